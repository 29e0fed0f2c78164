import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { isExcludedActor, normaliseRepositoryUrl } from '../../../../src/integrations/codeHosting/events';
import { parseGithubEvent, verifyGithubSignature } from '../../../../src/integrations/github/events';
import { parseGitlabEvent, verifyGitlabToken } from '../../../../src/integrations/gitlab/events';
import { PayloadError } from '../../../../src/integrations/payloadError';

const HEAD_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const BASE_SHA = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
const MR_SHA = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';

/** A pull_request delivery shaped like GitHub's documented webhook body (trimmed to the usual keys). */
function githubPullRequest(action: string, overrides: { merged?: boolean; sender?: string } = {}): Record<string, unknown> {
  const owner = { login: 'octo-org', id: 6811672, type: 'Organization' };
  const repository = {
    id: 1296269,
    node_id: 'MDEwOlJlcG9zaXRvcnkxMjk2MjY5',
    name: 'Hello-World',
    full_name: 'octo-org/Hello-World',
    private: false,
    owner,
    html_url: 'https://github.com/octo-org/Hello-World',
    url: 'https://api.github.com/repos/octo-org/Hello-World',
    git_url: 'git://github.com/octo-org/Hello-World.git',
    ssh_url: 'git@github.com:octo-org/Hello-World.git',
    clone_url: 'https://github.com/octo-org/Hello-World.git',
    default_branch: 'main',
  };
  const merged = overrides.merged ?? false;
  return {
    action,
    number: 1347,
    pull_request: {
      url: 'https://api.github.com/repos/octo-org/Hello-World/pulls/1347',
      id: 1,
      node_id: 'MDExOlB1bGxSZXF1ZXN0MQ==',
      html_url: 'https://github.com/octo-org/Hello-World/pull/1347',
      number: 1347,
      state: action === 'closed' ? 'closed' : 'open',
      locked: false,
      title: 'Amazing new feature',
      user: { login: 'octocat', id: 1, type: 'User' },
      body: 'Please pull these awesome changes in!',
      created_at: '2011-01-26T19:01:12Z',
      updated_at: '2011-01-26T19:01:12Z',
      closed_at: action === 'closed' ? '2011-01-26T19:01:12Z' : null,
      merged_at: merged ? '2011-01-26T19:01:12Z' : null,
      draft: false,
      merged,
      head: { label: 'octocat:new-topic', ref: 'new-topic', sha: HEAD_SHA, user: { login: 'octocat' }, repo: repository },
      base: { label: 'octo-org:main', ref: 'main', sha: BASE_SHA, user: owner, repo: repository },
    },
    repository,
    organization: { login: 'octo-org', id: 6811672 },
    sender: { login: overrides.sender ?? 'octocat', id: 1, type: 'User' },
    installation: { id: 2311213, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMjMxMTIxMw==' },
  };
}

/** A merge request delivery shaped like GitLab's documented "Merge Request Hook" body. */
function gitlabMergeRequest(action: string): Record<string, unknown> {
  const project = {
    id: 1,
    name: 'Gitlab Test',
    description: 'Aut reprehenderit ut est.',
    web_url: 'https://gitlab.example.com/gitlabhq/gitlab-test',
    avatar_url: null,
    git_ssh_url: 'git@gitlab.example.com:gitlabhq/gitlab-test.git',
    git_http_url: 'https://gitlab.example.com/gitlabhq/gitlab-test.git',
    namespace: 'GitlabHQ',
    visibility_level: 20,
    path_with_namespace: 'gitlabhq/gitlab-test',
    default_branch: 'master',
    homepage: 'https://gitlab.example.com/gitlabhq/gitlab-test',
    url: 'https://gitlab.example.com/gitlabhq/gitlab-test.git',
    ssh_url: 'git@gitlab.example.com:gitlabhq/gitlab-test.git',
    http_url: 'https://gitlab.example.com/gitlabhq/gitlab-test.git',
  };
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 1, name: 'Administrator', username: 'root', avatar_url: 'http://www.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61', email: 'admin@example.com' },
    project,
    repository: { name: 'Gitlab Test', url: 'http://gitlab.example.com/gitlabhq/gitlab-test.git', description: 'Aut reprehenderit ut est.', homepage: 'http://gitlab.example.com/gitlabhq/gitlab-test' },
    object_attributes: {
      id: 99,
      iid: 1,
      target_branch: 'master',
      source_branch: 'ms-viewport',
      source_project_id: 14,
      author_id: 51,
      assignee_ids: [6],
      title: 'MS-Viewport',
      created_at: '2013-12-03T17:23:34Z',
      updated_at: '2013-12-03T17:23:34Z',
      state: action === 'merge' ? 'merged' : action === 'close' ? 'closed' : 'opened',
      merge_status: 'unchecked',
      target_project_id: 14,
      description: 'Make the viewport smaller on phones.',
      url: 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1',
      source: project,
      target: project,
      last_commit: {
        id: MR_SHA,
        message: 'fixed readme',
        timestamp: '2012-01-03T23:36:29+02:00',
        url: `https://gitlab.example.com/awesome_space/awesome_project/commits/${MR_SHA}`,
        author: { name: 'GitLab dev user', email: 'gitlabdev@dv6700.(none)' },
      },
      work_in_progress: false,
      draft: false,
      action,
    },
    labels: [],
    changes: {},
  };
}

/** Every path in a value whose leaf is `undefined`. */
function undefinedPaths(value: unknown, path = '$'): string[] {
  if (value === undefined) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => undefinedPaths(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => undefinedPaths(inner, `${path}.${key}`));
  }
  return [];
}

describe('codeHosting/events', () => {
  describe('verifyGithubSignature', () => {
    const secret = 'It\'s a Secret to Everybody';
    const body = Buffer.from('{"action":"opened","number":1347}');
    const sign = (key: string, payload: Buffer) => `sha256=${createHmac('sha256', key).update(payload).digest('hex')}`;

    it('accepts a signature computed over the exact body with the secret', () => {
      expect(verifyGithubSignature(secret, body, sign(secret, body))).to.equal(true);
    });

    it('matches GitHub\'s documented test vector', () => {
      // From GitHub's "Validating webhook deliveries" guide.
      const header = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
      expect(verifyGithubSignature(secret, Buffer.from('Hello, World!'), header)).to.equal(true);
    });

    it('accepts upper-case hex digits', () => {
      const header = sign(secret, body);
      expect(verifyGithubSignature(secret, body, `sha256=${header.slice(7).toUpperCase()}`)).to.equal(true);
    });

    it('rejects a signature computed over a different body', () => {
      expect(verifyGithubSignature(secret, body, sign(secret, Buffer.from('{"action":"closed","number":1347}')))).to.equal(false);
    });

    it('rejects a signature made with another secret', () => {
      expect(verifyGithubSignature(secret, body, sign('not the secret', body))).to.equal(false);
    });

    it('rejects a missing or empty header', () => {
      expect(verifyGithubSignature(secret, body, undefined)).to.equal(false);
      expect(verifyGithubSignature(secret, body, '')).to.equal(false);
    });

    it('rejects the bare hex digest without the "sha256=" prefix', () => {
      expect(verifyGithubSignature(secret, body, sign(secret, body).slice('sha256='.length))).to.equal(false);
    });

    it('rejects malformed headers (sha1 scheme, truncated, non-hex)', () => {
      const good = sign(secret, body);
      const sha1 = `sha1=${createHmac('sha1', secret).update(body).digest('hex')}`;
      expect(verifyGithubSignature(secret, body, sha1)).to.equal(false);
      expect(verifyGithubSignature(secret, body, good.slice(0, -2))).to.equal(false);
      expect(verifyGithubSignature(secret, body, `${good.slice(0, -1)}z`)).to.equal(false);
      expect(verifyGithubSignature(secret, body, `${good}00`)).to.equal(false);
    });

    it('rejects everything when the secret is empty, even a signature made with the empty key', () => {
      expect(verifyGithubSignature('', body, sign('', body))).to.equal(false);
    });
  });

  describe('verifyGitlabToken', () => {
    it('accepts the configured token', () => {
      expect(verifyGitlabToken('glwht-s3cr3t', 'glwht-s3cr3t')).to.equal(true);
    });

    it('rejects a different token, including a prefix or a differently-cased one', () => {
      expect(verifyGitlabToken('glwht-s3cr3t', 'glwht-wrong')).to.equal(false);
      expect(verifyGitlabToken('glwht-s3cr3t', 'glwht-s3cr3')).to.equal(false);
      expect(verifyGitlabToken('glwht-s3cr3t', 'GLWHT-S3CR3T')).to.equal(false);
    });

    it('rejects a missing or empty header and an empty configured token', () => {
      expect(verifyGitlabToken('glwht-s3cr3t', undefined)).to.equal(false);
      expect(verifyGitlabToken('glwht-s3cr3t', '')).to.equal(false);
      expect(verifyGitlabToken('', '')).to.equal(false);
      expect(verifyGitlabToken('', undefined)).to.equal(false);
    });
  });

  describe('parseGithubEvent', () => {
    it('maps an opened pull request with all identifying fields', () => {
      const event = parseGithubEvent('pull_request', githubPullRequest('opened'));
      expect(event).to.not.equal(null);
      expect(event!.provider).to.equal('github');
      expect(event!.event).to.equal('pull_request.opened');
      expect(event!.repositoryFullName).to.equal('octo-org/Hello-World');
      expect(event!.number).to.equal(1347);
      expect(event!.actor).to.equal('octocat');
      expect(event!.headSha).to.equal(HEAD_SHA);
      expect(event!.installationId).to.equal(2311213);
      expect(event!.projectId).to.equal(null);
      expect(event!.repositoryUrls).to.have.members([
        'https://github.com/octo-org/Hello-World',
        'https://github.com/octo-org/Hello-World.git',
        'git@github.com:octo-org/Hello-World.git',
        'git://github.com/octo-org/Hello-World.git',
      ]);
    });

    it('builds the documented payload', () => {
      const event = parseGithubEvent('pull_request', githubPullRequest('opened'));
      expect(event!.payload).to.deep.equal({
        provider: 'github',
        event: 'pull_request.opened',
        action: 'opened',
        repository: { full_name: 'octo-org/Hello-World', url: 'https://github.com/octo-org/Hello-World' },
        pull_request: {
          number: 1347,
          title: 'Amazing new feature',
          url: 'https://github.com/octo-org/Hello-World/pull/1347',
          state: 'open',
          draft: false,
          merged: false,
          author: 'octocat',
          head: { ref: 'new-topic', sha: HEAD_SHA },
          base: { ref: 'main', sha: BASE_SHA },
          body: 'Please pull these awesome changes in!',
        },
        sender: 'octocat',
      });
    });

    it('maps synchronize', () => {
      expect(parseGithubEvent('pull_request', githubPullRequest('synchronize'))?.event).to.equal('pull_request.synchronize');
    });

    it('maps closed with merged=true to pull_request.merged', () => {
      const event = parseGithubEvent('pull_request', githubPullRequest('closed', { merged: true }));
      expect(event?.event).to.equal('pull_request.merged');
      expect((event!.payload.pull_request as Record<string, unknown>).merged).to.equal(true);
    });

    it('maps closed without merging to pull_request.closed', () => {
      expect(parseGithubEvent('pull_request', githubPullRequest('closed', { merged: false }))?.event).to.equal('pull_request.closed');
      const noFlag = githubPullRequest('closed');
      delete (noFlag.pull_request as Record<string, unknown>).merged;
      expect(parseGithubEvent('pull_request', noFlag)?.event).to.equal('pull_request.closed');
    });

    for (const action of ['labeled', 'edited', 'reopened', 'ready_for_review', 'assigned']) {
      it(`returns null for the ${action} action`, () => {
        expect(parseGithubEvent('pull_request', githubPullRequest(action))).to.equal(null);
      });
    }

    it('returns null for ping and other event names', () => {
      expect(parseGithubEvent('ping', { zen: 'Keep it logically awesome.', hook_id: 1, hook: { type: 'App' } })).to.equal(null);
      expect(parseGithubEvent('push', { ref: 'refs/heads/main', repository: { full_name: 'octo-org/Hello-World' } })).to.equal(null);
      expect(parseGithubEvent('issues', githubPullRequest('opened'))).to.equal(null);
    });

    it('throws a PayloadError naming "number" when the body lacks it', () => {
      const body = githubPullRequest('opened');
      delete body.number;
      expect(() => parseGithubEvent('pull_request', body)).to.throw(PayloadError, /number/);
    });

    it('throws naming repository.full_name and pull_request when those are missing', () => {
      const noRepo = githubPullRequest('opened');
      delete (noRepo.repository as Record<string, unknown>).full_name;
      expect(() => parseGithubEvent('pull_request', noRepo)).to.throw(PayloadError, /repository\.full_name/);
      const noPr = githubPullRequest('synchronize');
      delete noPr.pull_request;
      expect(() => parseGithubEvent('pull_request', noPr)).to.throw(PayloadError, /pull_request/);
    });

    it('fills missing optional fields with null, never undefined', () => {
      const body = {
        action: 'opened',
        number: 7,
        pull_request: { head: {}, base: {} },
        repository: { full_name: 'octo-org/Hello-World' },
      };
      const event = parseGithubEvent('pull_request', body)!;
      expect(undefinedPaths(event)).to.deep.equal([]);
      expect(undefinedPaths(JSON.parse(JSON.stringify(event.payload)))).to.deep.equal([]);
      const pr = event.payload.pull_request as Record<string, unknown>;
      expect(pr.title).to.equal(null);
      expect(pr.author).to.equal(null);
      expect(pr.body).to.equal(null);
      expect(event.payload.sender).to.equal(null);
      expect(event.actor).to.equal(null);
      expect(event.headSha).to.equal(null);
      expect(event.installationId).to.equal(null);
      expect(event.repositoryUrls).to.deep.equal([]);
      // Round-tripping through JSON must not drop any key.
      expect(JSON.parse(JSON.stringify(event.payload))).to.deep.equal(event.payload);
    });

    it('has no undefined values in a full payload either', () => {
      expect(undefinedPaths(parseGithubEvent('pull_request', githubPullRequest('closed', { merged: true })))).to.deep.equal([]);
    });

    it('truncates the body to 10,000 characters', () => {
      const body = githubPullRequest('opened');
      (body.pull_request as Record<string, unknown>).body = 'x'.repeat(12_345);
      const pr = parseGithubEvent('pull_request', body)!.payload.pull_request as Record<string, unknown>;
      expect(pr.body).to.have.lengthOf(10_000);
    });
  });

  describe('parseGitlabEvent', () => {
    const cases: Array<[string, string]> = [
      ['open', 'merge_request.opened'],
      ['update', 'merge_request.updated'],
      ['close', 'merge_request.closed'],
      ['merge', 'merge_request.merged'],
    ];
    for (const [action, expected] of cases) {
      it(`maps action ${action} to ${expected}`, () => {
        expect(parseGitlabEvent('Merge Request Hook', gitlabMergeRequest(action))?.event).to.equal(expected);
      });
    }

    it('maps identifying fields and the repository URLs', () => {
      const event = parseGitlabEvent('Merge Request Hook', gitlabMergeRequest('open'))!;
      expect(event.provider).to.equal('gitlab');
      expect(event.repositoryFullName).to.equal('gitlabhq/gitlab-test');
      expect(event.number).to.equal(1);
      expect(event.actor).to.equal('root');
      expect(event.headSha).to.equal(MR_SHA);
      expect(event.installationId).to.equal(null);
      expect(event.projectId).to.equal(1);
      expect(event.repositoryUrls).to.include.members([
        'https://gitlab.example.com/gitlabhq/gitlab-test',
        'https://gitlab.example.com/gitlabhq/gitlab-test.git',
        'git@gitlab.example.com:gitlabhq/gitlab-test.git',
      ]);
    });

    it('builds the documented payload', () => {
      expect(parseGitlabEvent('Merge Request Hook', gitlabMergeRequest('update'))!.payload).to.deep.equal({
        provider: 'gitlab',
        event: 'merge_request.updated',
        action: 'update',
        repository: { full_name: 'gitlabhq/gitlab-test', url: 'https://gitlab.example.com/gitlabhq/gitlab-test', project_id: 1 },
        merge_request: {
          number: 1,
          title: 'MS-Viewport',
          url: 'https://gitlab.example.com/gitlabhq/gitlab-test/-/merge_requests/1',
          state: 'opened',
          draft: false,
          author: 'root',
          head: { ref: 'ms-viewport', sha: MR_SHA },
          base: { ref: 'master' },
          description: 'Make the viewport smaller on phones.',
        },
        sender: 'root',
      });
    });

    it('takes draft from draft, then work_in_progress, then false', () => {
      const draftOf = (attrs: Record<string, unknown>) => {
        const body = gitlabMergeRequest('open');
        const { draft: _draft, work_in_progress: _wip, ...rest } = body.object_attributes as Record<string, unknown>;
        body.object_attributes = { ...rest, ...attrs };
        return (parseGitlabEvent('Merge Request Hook', body)!.payload.merge_request as Record<string, unknown>).draft;
      };
      expect(draftOf({ draft: true, work_in_progress: false })).to.equal(true);
      expect(draftOf({ work_in_progress: true })).to.equal(true);
      expect(draftOf({})).to.equal(false);
    });

    for (const action of ['reopen', 'approved', 'unapproved', 'approval']) {
      it(`returns null for the ${action} action`, () => {
        expect(parseGitlabEvent('Merge Request Hook', gitlabMergeRequest(action))).to.equal(null);
      });
    }

    it('returns null for a push hook and other hooks', () => {
      const push = {
        object_kind: 'push',
        event_name: 'push',
        before: '95790bf891e76fee5e1747ab589903a6a1f80f22',
        after: MR_SHA,
        ref: 'refs/heads/master',
        user_username: 'jsmith',
        project: { id: 15, path_with_namespace: 'mike/diaspora', web_url: 'http://example.com/mike/diaspora' },
        commits: [],
        total_commits_count: 0,
      };
      expect(parseGitlabEvent('Push Hook', push)).to.equal(null);
      expect(parseGitlabEvent('Note Hook', gitlabMergeRequest('open'))).to.equal(null);
      // Right header, but the body says it is something else.
      expect(parseGitlabEvent('Merge Request Hook', push)).to.equal(null);
    });

    it('throws naming the iid when object_attributes.iid is missing', () => {
      const body = gitlabMergeRequest('open');
      delete (body.object_attributes as Record<string, unknown>).iid;
      expect(() => parseGitlabEvent('Merge Request Hook', body)).to.throw(PayloadError, /object_attributes\.iid/);
    });

    it('throws naming path_with_namespace when the project lacks it', () => {
      const body = gitlabMergeRequest('merge');
      delete (body.project as Record<string, unknown>).path_with_namespace;
      expect(() => parseGitlabEvent('Merge Request Hook', body)).to.throw(PayloadError, /project\.path_with_namespace/);
    });

    it('fills missing optional fields with null, never undefined', () => {
      const body = {
        object_kind: 'merge_request',
        project: { path_with_namespace: 'group/sub/app' },
        object_attributes: { iid: 3, action: 'open' },
      };
      const event = parseGitlabEvent('Merge Request Hook', body)!;
      expect(undefinedPaths(event)).to.deep.equal([]);
      expect(JSON.parse(JSON.stringify(event.payload))).to.deep.equal(event.payload);
      const mr = event.payload.merge_request as Record<string, unknown>;
      expect(mr.description).to.equal(null);
      expect(mr.author).to.equal(null);
      expect(mr.draft).to.equal(false);
      expect(mr.head).to.deep.equal({ ref: null, sha: null });
      expect(event.projectId).to.equal(null);
      expect((event.payload.repository as Record<string, unknown>).project_id).to.equal(null);
    });

    it('truncates the description to 10,000 characters', () => {
      const body = gitlabMergeRequest('open');
      (body.object_attributes as Record<string, unknown>).description = 'y'.repeat(10_001);
      const mr = parseGitlabEvent('Merge Request Hook', body)!.payload.merge_request as Record<string, unknown>;
      expect(mr.description).to.equal('y'.repeat(10_000));
    });
  });

  describe('isExcludedActor', () => {
    it('matches case-insensitively', () => {
      expect(isExcludedActor('Dependabot[bot]', ['dependabot[bot]'])).to.equal(true);
      expect(isExcludedActor('renovate[bot]', ['RENOVATE[BOT]'])).to.equal(true);
    });

    it('ignores a leading "@" on either side', () => {
      expect(isExcludedActor('dependabot[bot]', ['@Dependabot[bot]'])).to.equal(true);
      expect(isExcludedActor('@octocat', ['octocat'])).to.equal(true);
      expect(isExcludedActor('@octocat', ['@OctoCat'])).to.equal(true);
    });

    it('does not exclude other actors, partial names or a null actor', () => {
      expect(isExcludedActor('octocat', ['dependabot[bot]'])).to.equal(false);
      expect(isExcludedActor('dependabot', ['dependabot[bot]'])).to.equal(false);
      expect(isExcludedActor('octocat', [])).to.equal(false);
      expect(isExcludedActor(null, ['octocat', ''])).to.equal(false);
    });
  });

  describe('normaliseRepositoryUrl', () => {
    const expected = 'https://github.com/octo-org/hello-world';
    const cases: Array<[string, string]> = [
      ['https with .git', 'https://github.com/octo-org/hello-world.git'],
      ['upper-case host', 'https://GitHub.COM/octo-org/hello-world'],
      ['trailing slash', 'https://github.com/octo-org/hello-world/'],
      ['.git and a trailing slash', 'https://github.com/octo-org/hello-world.git/'],
      ['scp-like ssh', 'git@github.com:octo-org/hello-world.git'],
      ['ssh:// form', 'ssh://git@github.com/octo-org/hello-world.git'],
      ['ssh:// with a port', 'ssh://git@github.com:22/octo-org/hello-world'],
      ['git:// form', 'git://github.com/octo-org/hello-world.git'],
      ['credentials', 'https://x-access-token:ghs_abc123@github.com/octo-org/hello-world.git'],
      ['user only', 'https://octocat@github.com/octo-org/hello-world'],
      ['http scheme', 'http://github.com/octo-org/hello-world'],
    ];
    for (const [label, input] of cases) {
      it(`normalises ${label}`, () => {
        expect(normaliseRepositoryUrl(input)).to.equal(expected);
      });
    }

    it('keeps path case and nested GitLab groups, and a non-default https port', () => {
      expect(normaliseRepositoryUrl('git@GitLab.Example.com:Group/Sub/App.git')).to.equal('https://gitlab.example.com/Group/Sub/App');
      expect(normaliseRepositoryUrl('https://gitlab.example.com:8443/group/app.git')).to.equal('https://gitlab.example.com:8443/group/app');
    });

    it('makes every URL form of a delivery normalise to the same value', () => {
      const urls = parseGitlabEvent('Merge Request Hook', gitlabMergeRequest('open'))!.repositoryUrls;
      expect(new Set(urls.map(normaliseRepositoryUrl))).to.deep.equal(new Set(['https://gitlab.example.com/gitlabhq/gitlab-test']));
      const gh = parseGithubEvent('pull_request', githubPullRequest('opened'))!.repositoryUrls;
      expect(new Set(gh.map(normaliseRepositoryUrl))).to.deep.equal(new Set(['https://github.com/octo-org/Hello-World']));
    });

    it('returns null for things that are not repository URLs', () => {
      expect(normaliseRepositoryUrl('')).to.equal(null);
      expect(normaliseRepositoryUrl('not a url')).to.equal(null);
      expect(normaliseRepositoryUrl('octo-org/hello-world')).to.equal(null);
      expect(normaliseRepositoryUrl('mailto:octocat@github.com')).to.equal(null);
      expect(normaliseRepositoryUrl('https://github.com/')).to.equal(null);
    });
  });
});
