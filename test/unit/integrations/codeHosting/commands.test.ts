import { expect } from 'chai';
import { botCommand, isBotAuthor, repositoryFullNameOf } from '../../../../src/integrations/codeHosting/events';
import { parseGithubEvent } from '../../../../src/integrations/github/events';
import { parseGitlabEvent } from '../../../../src/integrations/gitlab/events';
import { PayloadError } from '../../../../src/integrations/payloadError';

/** An `issue_comment` delivery shaped like GitHub's documented body (trimmed to the usual keys). */
function issueComment(body: string, over: { action?: string; onIssue?: boolean; commenter?: string; sender?: string } = {}): Record<string, unknown> {
  const repository = {
    full_name: 'octo-org/Hello-World',
    html_url: 'https://github.com/octo-org/Hello-World',
    clone_url: 'https://github.com/octo-org/Hello-World.git',
    ssh_url: 'git@github.com:octo-org/Hello-World.git',
    git_url: 'git://github.com/octo-org/Hello-World.git',
  };
  const commenter = over.commenter ?? 'octocat';
  return {
    action: over.action ?? 'created',
    issue: {
      url: 'https://api.github.com/repos/octo-org/Hello-World/issues/1347',
      html_url: 'https://github.com/octo-org/Hello-World/pull/1347',
      number: 1347,
      title: 'Amazing new feature',
      user: { login: 'author', id: 2, type: 'User' },
      state: 'open',
      draft: false,
      body: 'Please pull these awesome changes in!',
      ...(over.onIssue
        ? {}
        : {
            pull_request: {
              url: 'https://api.github.com/repos/octo-org/Hello-World/pulls/1347',
              html_url: 'https://github.com/octo-org/Hello-World/pull/1347',
              diff_url: 'https://github.com/octo-org/Hello-World/pull/1347.diff',
              patch_url: 'https://github.com/octo-org/Hello-World/pull/1347.patch',
              merged_at: null,
            },
          }),
    },
    comment: {
      id: 99,
      html_url: 'https://github.com/octo-org/Hello-World/pull/1347#issuecomment-99',
      body,
      user: { login: commenter, id: 1, type: commenter.endsWith('[bot]') ? 'Bot' : 'User' },
    },
    repository,
    sender: { login: over.sender ?? commenter, id: 1, type: 'User' },
    installation: { id: 2311213 },
  };
}

/** A "Note Hook" body for a note on a merge request, shaped like GitLab's documented example. */
function mergeRequestNote(note: string, over: { user?: string; noteable?: string; action?: string | null; system?: boolean } = {}): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    id: 1244,
    note,
    noteable_type: over.noteable ?? 'MergeRequest',
    author_id: 1,
    system: over.system ?? false,
    noteable_id: 7,
    url: 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1#note_1244',
  };
  if (over.action !== null) attributes.action = over.action ?? 'create';
  return {
    object_kind: 'note',
    event_type: 'note',
    user: { id: 1, name: 'Administrator', username: over.user ?? 'root' },
    project_id: 5,
    project: {
      id: 5,
      web_url: 'https://gitlab.example.com/gitlabhq/gitlab-test',
      git_ssh_url: 'git@gitlab.example.com:gitlabhq/gitlab-test.git',
      git_http_url: 'https://gitlab.example.com/gitlabhq/gitlab-test.git',
      path_with_namespace: 'gitlabhq/gitlab-test',
    },
    object_attributes: attributes,
    merge_request: {
      id: 7,
      iid: 1,
      title: 'Tempora et eos debitis quae laborum et.',
      state: 'opened',
      source_branch: 'master',
      target_branch: 'markdown',
      url: 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1',
      description: 'Et voluptas corrupti',
      last_commit: { id: '562e173be03b8ff2efb05345d12df18815438a4b' },
      work_in_progress: false,
    },
  };
}

describe('bot commands', () => {
  it('botCommand takes the text after /{botName} and white space, in any case, on the first line only', () => {
    expect(botCommand('/hangar fix the tests', 'hangar')).to.equal('fix the tests');
    expect(botCommand('  /Hangar   fix it\n\nThe flaky one.', 'hangar')).to.equal('fix it\n\nThe flaky one.');
    expect(botCommand('/hangar\nrebase please', 'hangar')).to.equal('rebase please');
    for (const body of ['/hangar', '/hangar   ', 'please /hangar fix', '@hangar fix', '/hangarbot fix', 'hangar fix', '', null]) {
      expect(botCommand(body, 'hangar'), String(body)).to.equal(null);
    }
    expect(botCommand('/reviewer go', 'reviewer')).to.equal('go');
  });

  it('isBotAuthor knows the bot by its login and by its App login', () => {
    expect(isBotAuthor('hangar', 'hangar')).to.equal(true);
    expect(isBotAuthor('Hangar[bot]', 'hangar')).to.equal(true);
    expect(isBotAuthor('@hangar', 'hangar')).to.equal(true);
    expect(isBotAuthor('hangar-fan', 'hangar')).to.equal(false);
    expect(isBotAuthor(null, 'hangar')).to.equal(false);
  });

  it('repositoryFullNameOf reads owner/name from any URL form', () => {
    expect(repositoryFullNameOf('https://github.com/acme/app.git')).to.equal('acme/app');
    expect(repositoryFullNameOf('git@github.com:acme/app.git')).to.equal('acme/app');
    expect(repositoryFullNameOf('https://gitlab.com/group/sub/app')).to.equal(null);
    expect(repositoryFullNameOf('not a url')).to.equal(null);
  });
});

describe('parseGithubEvent: pull_request.command', () => {
  it('maps a /hangar comment on a pull request to the command event with the commenter and the text', () => {
    const event = parseGithubEvent('issue_comment', issueComment('/hangar fix the tests'), { botName: 'hangar' })!;
    expect(event).to.include({ provider: 'github', event: 'pull_request.command', number: 1347, actor: 'octocat', headSha: null, installationId: 2311213, repositoryFullName: 'octo-org/Hello-World' });
    expect(event.repositoryUrls).to.include('https://github.com/octo-org/Hello-World');
    expect(event.payload).to.deep.include({ provider: 'github', event: 'pull_request.command', action: 'created', sender: 'octocat' });
    expect(event.payload.command).to.deep.equal({ text: 'fix the tests', author: 'octocat', comment_id: 99, url: 'https://github.com/octo-org/Hello-World/pull/1347#issuecomment-99' });
    expect(event.payload.pull_request).to.deep.include({ number: 1347, title: 'Amazing new feature', url: 'https://github.com/octo-org/Hello-World/pull/1347', author: 'author', merged: false });
    expect((event.payload.pull_request as { head: unknown }).head).to.deep.equal({ ref: null, sha: null });
  });

  it('uses the configured bot name (default hangar)', () => {
    expect(parseGithubEvent('issue_comment', issueComment('/hangar go'))?.event).to.equal('pull_request.command');
    expect(parseGithubEvent('issue_comment', issueComment('/hangar go'), { botName: 'reviewer' })).to.equal(null);
    expect(parseGithubEvent('issue_comment', issueComment('/reviewer go'), { botName: 'reviewer' })?.payload.command).to.deep.include({ text: 'go' });
  });

  it('ignores comments that are no command, on issues, edited or deleted, and the bot own comments', () => {
    const none = (body: Record<string, unknown>) => expect(parseGithubEvent('issue_comment', body, { botName: 'hangar' })).to.equal(null);
    none(issueComment('Looks good to me'));
    none(issueComment('@hangar fix the tests'));
    none(issueComment('/hangar fix the tests', { onIssue: true }));
    none(issueComment('/hangar fix the tests', { action: 'edited' }));
    none(issueComment('/hangar fix the tests', { action: 'deleted' }));
    none(issueComment('/hangar fix the tests', { commenter: 'hangar[bot]' }));
    none(issueComment('/hangar fix the tests', { commenter: 'Hangar' }));
  });

  it('throws on a command comment missing what the mapping needs', () => {
    const body = issueComment('/hangar go');
    delete (body.issue as Record<string, unknown>).number;
    expect(() => parseGithubEvent('issue_comment', body)).to.throw(PayloadError, /issue\.number/);
    const noRepo = issueComment('/hangar go');
    delete noRepo.repository;
    expect(() => parseGithubEvent('issue_comment', noRepo)).to.throw(PayloadError, /repository\.full_name/);
    expect(() => parseGithubEvent('issue_comment', { action: 'created' })).to.throw(PayloadError, /issue/);
  });
});

describe('parseGitlabEvent: merge_request.command', () => {
  it('maps a /hangar note on a merge request to the command event, with the head commit', () => {
    const event = parseGitlabEvent('Note Hook', mergeRequestNote('/hangar rebase onto main'), { botName: 'hangar' })!;
    expect(event).to.include({ provider: 'gitlab', event: 'merge_request.command', number: 1, actor: 'root', headSha: '562e173be03b8ff2efb05345d12df18815438a4b', projectId: 5 });
    expect(event.payload.command).to.deep.equal({ text: 'rebase onto main', author: 'root', note_id: 1244, url: 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1#note_1244' });
    expect(event.payload.merge_request).to.deep.include({ number: 1, title: 'Tempora et eos debitis quae laborum et.', head: { ref: 'master', sha: '562e173be03b8ff2efb05345d12df18815438a4b' }, base: { ref: 'markdown' } });
    // Hooks from before GitLab 16.11 carry no action: a note hook then means a new note.
    expect(parseGitlabEvent('Note Hook', mergeRequestNote('/hangar go', { action: null }))?.event).to.equal('merge_request.command');
  });

  it('ignores other notes: no command, an issue or commit note, an edit, a system note, the bot itself', () => {
    const none = (body: Record<string, unknown>) => expect(parseGitlabEvent('Note Hook', body, { botName: 'hangar' })).to.equal(null);
    none(mergeRequestNote('LGTM'));
    none(mergeRequestNote('/hangar go', { noteable: 'Issue' }));
    none(mergeRequestNote('/hangar go', { noteable: 'Commit' }));
    none(mergeRequestNote('/hangar go', { action: 'update' }));
    none(mergeRequestNote('/hangar go', { system: true }));
    none(mergeRequestNote('/hangar go', { user: 'hangar' }));
    none({ ...mergeRequestNote('/hangar go'), object_kind: 'issue' });
  });

  it('throws on a command note without its merge request', () => {
    const body = mergeRequestNote('/hangar go');
    delete body.merge_request;
    expect(() => parseGitlabEvent('Note Hook', body)).to.throw(PayloadError, /merge_request/);
  });
});
