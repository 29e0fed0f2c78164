import { expect } from 'chai';
import {  } from '../../../../src/integrations/codeHosting/events';
import {
  ciFailureText,
  environmentTag,
  HANGAR_MARKER,
  mentionsBot,
  postText,
  pullRequestOfUrl,
  replyComment,
  threadDeliveryId,
  type CiFailure,
  type ThreadPost,
} from '../../../../src/integrations/codeHosting/threads';
import { parseGithubThreadEvent } from '../../../../src/integrations/github/mentions';
import { parseGitlabThreadEvent } from '../../../../src/integrations/gitlab/mentions';
import { githubPullRequest } from '../../../support/codeHosting';
import { githubCheckRun, githubIssue, githubIssueComment, gitlabIssue, gitlabNote, gitlabPipeline } from '../../../support/mentionDeliveries';
import { gitlabMergeRequest } from '../../../support/codeHosting';
import { PayloadError } from '../../../../src/integrations/payloadError';

const REPO = 'acme/app';

describe('code-hosting mentions', () => {
  describe('mentionsBot', () => {
    it('finds @name as a word, in any case, also as name[bot]', () => {
      expect(mentionsBot('@hangar please fix', 'hangar')).to.equal(true);
      expect(mentionsBot('Hey @Hangar, look', 'hangar')).to.equal(true);
      expect(mentionsBot('cc @hangar[bot]', 'hangar')).to.equal(true);
      expect(mentionsBot('(@hangar)', 'hangar')).to.equal(true);
    });

    it('ignores other logins, e-mail addresses, code and quoted lines', () => {
      expect(mentionsBot('@hangar-ci is unrelated', 'hangar')).to.equal(false);
      expect(mentionsBot('@hangars', 'hangar')).to.equal(false);
      expect(mentionsBot('mail me at ops@hangar.dev', 'hangar')).to.equal(false);
      expect(mentionsBot('run `@hangar fix` later', 'hangar')).to.equal(false);
      expect(mentionsBot('```\n@hangar\n```', 'hangar')).to.equal(false);
      expect(mentionsBot('> @hangar fix it\nagreed', 'hangar')).to.equal(false);
      expect(mentionsBot(null, 'hangar')).to.equal(false);
    });

    it('uses the configured bot name literally', () => {
      expect(mentionsBot('@my-bot go', 'my-bot')).to.equal(true);
      expect(mentionsBot('@myxbot go', 'my-bot')).to.equal(false);
    });
  });

  it('reads [env:name] and makes ids the core accepts', () => {
    expect(environmentTag('please [env:staging] fix')).to.equal('staging');
    expect(environmentTag('nothing')).to.equal(null);
    const id = threadDeliveryId('github', 'a b/c…', 'x');
    expect(id).to.equal('github:a-b-c-:x');
    expect(threadDeliveryId('gitlab', 'x'.repeat(500), 'p'.repeat(300))).to.match(/^gitlab:[0-9a-f]{64}$/);
    expect(threadDeliveryId('gitlab', 'x'.repeat(500))).to.not.equal(threadDeliveryId('gitlab', 'x'.repeat(501)));
  });

  it('reads pull and merge request URLs', () => {
    expect(pullRequestOfUrl('github', 'https://github.com/acme/app/pull/7')).to.deep.equal({ host: 'github.com', fullName: 'acme/app', number: 7, threadKey: 'acme/app#7' });
    expect(pullRequestOfUrl('github', 'https://github.com/acme/app/issues/7')).to.equal(null);
    expect(pullRequestOfUrl('gitlab', 'https://gitlab.com/group/sub/proj/-/merge_requests/3/')).to.deep.equal({
      host: 'gitlab.com',
      fullName: 'group/sub/proj',
      number: 3,
      threadKey: 'group/sub/proj!3',
    });
    expect(pullRequestOfUrl('gitlab', 'not a url')).to.equal(null);
  });

  describe('GitHub', () => {
    it('maps an opened issue with its author, association and cursor', () => {
      const event = parseGithubThreadEvent('issues', githubIssue({ fullName: REPO, number: 12, body: '@hangar please fix', association: 'OWNER', installationId: 77, userId: 583231 }), 'hangar');
      expect(event).to.include({ kind: 'post', trigger: 'opened', text: '@hangar please fix', trusted: true, fromBot: false, cursor: 'issue:12', installationId: 77 });
      const post = event as ThreadPost;
      expect(post.item).to.include({ threadKey: 'acme/app#12', number: 12, isPullRequest: false, url: 'https://github.com/acme/app/issues/12' });
      expect(post.repositoryUrls).to.include('https://github.com/acme/app');
      expect(post.author).to.include({ id: '583231', login: 'octocat' });
    });

    it('maps a comment on a pull request, and says who may not be trusted', () => {
      const body = githubIssueComment({ fullName: REPO, number: 5, isPullRequest: true, comment: 'hi', commenter: 'stranger', commenterAssociation: 'NONE', commentId: 99 });
      const post = parseGithubThreadEvent('issue_comment', body, 'hangar') as ThreadPost;
      expect(post).to.include({ trigger: 'comment', text: 'hi', trusted: false, cursor: 'issue_comment:99' });
      expect(post.item).to.include({ isPullRequest: true, threadKey: 'acme/app#5' });
      expect(post.commentUrl).to.match(/#issuecomment-99$/);
    });

    it('marks bots, the bot itself and Hangar-marked comments as fromBot', () => {
      const fromBot = (over: Record<string, unknown>) =>
        (parseGithubThreadEvent('issue_comment', githubIssueComment({ fullName: REPO, number: 1, comment: 'x', ...over }), 'hangar') as ThreadPost).fromBot;
      expect(fromBot({ commenterType: 'Bot', commenter: 'dependabot[bot]' })).to.equal(true);
      expect(fromBot({ commenter: 'hangar[bot]' })).to.equal(true);
      expect(fromBot({ commenter: 'Hangar' })).to.equal(true);
      expect(fromBot({ comment: `answer\n\n${HANGAR_MARKER}` })).to.equal(true);
      expect(fromBot({})).to.equal(false);
    });

    it('maps closing an issue or a pull request, and ignores other actions and events', () => {
      expect(parseGithubThreadEvent('issues', githubIssue({ fullName: REPO, number: 3, action: 'closed' }), 'hangar')).to.deep.include({ kind: 'close', threadKey: 'acme/app#3' });
      expect(parseGithubThreadEvent('pull_request', githubPullRequest({ fullName: REPO, number: 4, action: 'closed', merged: true }), 'hangar')).to.deep.include({
        kind: 'close',
        threadKey: 'acme/app#4',
      });
      expect(parseGithubThreadEvent('issues', githubIssue({ fullName: REPO, number: 3, action: 'edited' }), 'hangar')).to.equal(null);
      expect(parseGithubThreadEvent('pull_request', githubPullRequest({ fullName: REPO, number: 4, action: 'synchronize' }), 'hangar')).to.equal(null);
      expect(parseGithubThreadEvent('push', { ref: 'x' }, 'hangar')).to.equal(null);
      expect(parseGithubThreadEvent('ping', { zen: 'x' }, 'hangar')).to.equal(null);
    });

    it('throws a payload error naming the missing field', () => {
      expect(() => parseGithubThreadEvent('issues', { action: 'opened', repository: { full_name: REPO } }, 'hangar')).to.throw(PayloadError, 'issue.number');
      expect(() => parseGithubThreadEvent('issue_comment', { action: 'created', issue: { number: 1 } }, 'hangar')).to.throw(PayloadError, 'repository.full_name');
      // An author without an account id cannot be told apart from whoever takes their login next.
      const anonymous = githubIssueComment({ fullName: REPO, number: 1, comment: '@hangar hi' }) as { comment: { user: Record<string, unknown> } };
      delete anonymous.comment.user.id;
      expect(() => parseGithubThreadEvent('issue_comment', anonymous, 'hangar')).to.throw(PayloadError, 'comment.user.id');
    });

    it('maps a failed check run to its pull requests, and ignores success and neutral ones', () => {
      const failure = parseGithubThreadEvent('check_run', githubCheckRun({ fullName: REPO, pullRequest: 7, name: 'unit', summary: 'boom', runId: 5 }), 'hangar') as CiFailure;
      expect(failure).to.include({ kind: 'ci_failed', name: 'unit', conclusion: 'failure', cursor: 'check_run:5', url: 'https://github.com/acme/app/runs/5' });
      expect(failure.pullRequests).to.deep.equal([{ threadKey: 'acme/app#7', number: 7 }]);
      expect(failure.summary).to.include('boom');
      expect(parseGithubThreadEvent('check_run', githubCheckRun({ fullName: REPO, pullRequest: 7, conclusion: 'timed_out' }), 'hangar')).to.include({ conclusion: 'timed_out' });
      expect(parseGithubThreadEvent('check_run', githubCheckRun({ fullName: REPO, pullRequest: 7, conclusion: 'success' }), 'hangar')).to.equal(null);
      expect(parseGithubThreadEvent('check_run', githubCheckRun({ fullName: REPO, pullRequest: 7, conclusion: 'neutral' }), 'hangar')).to.equal(null);
    });

    it('reports a failed check suite only when it has no check runs of its own', () => {
      const suite = (count: number) => ({
        action: 'completed',
        check_suite: { id: 8, status: 'completed', conclusion: 'failure', head_sha: 'a'.repeat(40), latest_check_runs_count: count, app: { name: 'Legacy CI' }, pull_requests: [{ number: 9 }] },
        repository: { full_name: REPO, html_url: `https://github.com/${REPO}` },
      });
      expect(parseGithubThreadEvent('check_suite', suite(3), 'hangar')).to.equal(null);
      expect(parseGithubThreadEvent('check_suite', suite(0), 'hangar')).to.deep.include({ kind: 'ci_failed', name: 'Legacy CI check suite', url: 'https://github.com/acme/app/pull/9/checks' });
    });

    it('formats what the agent reads: the whole context first, then only the new comment', () => {
      const post = parseGithubThreadEvent(
        'issue_comment',
        githubIssueComment({ fullName: REPO, number: 12, title: 'Login broken', body: 'Steps: …', comment: '@hangar please fix', commenter: 'alice' }),
        'hangar',
      ) as ThreadPost;
      const first = postText(post, false);
      expect(first).to.include('GitHub issue acme/app#12: Login broken').and.include('Steps: …').and.include('Comment by @alice:').and.include('@hangar please fix');
      const later = postText(post, true);
      expect(later).to.equal('Comment by @alice on GitHub issue acme/app#12:\n\n@hangar please fix');
    });
  });

  describe('GitLab', () => {
    it('maps notes on issues and merge requests to separate thread keys', () => {
      const onIssue = parseGitlabThreadEvent('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 4, note: '@hangar fix', noteId: 31, userId: 17, email: 'someone@example.com' }), 'hangar') as ThreadPost;
      expect(onIssue).to.include({ kind: 'post', trigger: 'comment', cursor: 'note:31', trusted: null });
      // The body's project id is not carried: answers go to the connected repository's project.
      expect(onIssue).to.not.have.property('projectId');
      expect(onIssue.item).to.include({ threadKey: 'grp/app#4', isPullRequest: false });
      // Named by account id; the payload's email (anyone holding the token can write one) is dropped.
      expect(onIssue.author).to.deep.equal({ id: '17', login: 'dev', name: 'dev', email: null });
      const anonymous = gitlabNote({ fullName: 'grp/app', iid: 4, note: '@hangar fix' }) as { user: Record<string, unknown> };
      delete anonymous.user.id;
      expect(() => parseGitlabThreadEvent('Note Hook', anonymous, 'hangar')).to.throw(PayloadError, 'user.id');
      const onMr = parseGitlabThreadEvent('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 4, note: 'x', mergeRequest: true }), 'hangar') as ThreadPost;
      expect(onMr.item).to.include({ threadKey: 'grp/app!4', isPullRequest: true });
    });

    it('skips system notes, edits and notes on commits', () => {
      const note = gitlabNote({ fullName: 'grp/app', iid: 4, note: 'x' });
      expect(parseGitlabThreadEvent('Note Hook', { ...note, object_attributes: { ...note.object_attributes, system: true } }, 'hangar')).to.equal(null);
      expect(parseGitlabThreadEvent('Note Hook', { ...note, object_attributes: { ...note.object_attributes, action: 'update' } }, 'hangar')).to.equal(null);
      expect(parseGitlabThreadEvent('Note Hook', { ...note, object_attributes: { ...note.object_attributes, noteable_type: 'Commit' } }, 'hangar')).to.equal(null);
    });

    it('maps issue and merge request opening and closing', () => {
      expect(parseGitlabThreadEvent('Issue Hook', gitlabIssue({ fullName: 'grp/app', iid: 2, description: '@hangar go' }), 'hangar')).to.include({ kind: 'post', trigger: 'opened', text: '@hangar go' });
      expect(parseGitlabThreadEvent('Issue Hook', gitlabIssue({ fullName: 'grp/app', iid: 2, action: 'close' }), 'hangar')).to.deep.include({ kind: 'close', threadKey: 'grp/app#2' });
      expect(parseGitlabThreadEvent('Issue Hook', gitlabIssue({ fullName: 'grp/app', iid: 2, action: 'update' }), 'hangar')).to.equal(null);
      expect(parseGitlabThreadEvent('Merge Request Hook', gitlabMergeRequest({ fullName: 'grp/app', iid: 6, action: 'merge' }), 'hangar')).to.deep.include({ kind: 'close', threadKey: 'grp/app!6' });
      expect(parseGitlabThreadEvent('Merge Request Hook', gitlabMergeRequest({ fullName: 'grp/app', iid: 6, action: 'update' }), 'hangar')).to.equal(null);
    });

    it("marks the bot's own notes and project bots", () => {
      const fromBot = (username: string, note = 'x') => (parseGitlabThreadEvent('Note Hook', gitlabNote({ fullName: 'g/a', iid: 1, note, username }), 'hangar') as ThreadPost).fromBot;
      expect(fromBot('hangar')).to.equal(true);
      expect(fromBot('project_42_bot_3f2a')).to.equal(true);
      expect(fromBot('dev', `ok ${HANGAR_MARKER}`)).to.equal(true);
      expect(fromBot('dev')).to.equal(false);
    });

    it('maps a failed merge request pipeline with its failed jobs, and ignores others', () => {
      const failure = parseGitlabThreadEvent(
        'Pipeline Hook',
        gitlabPipeline({ fullName: 'grp/app', mergeRequest: 3, pipelineId: 77, jobs: [{ name: 'rspec', status: 'failed' }, { name: 'lint', status: 'success' }] }),
        'hangar',
      ) as CiFailure;
      expect(failure).to.include({ kind: 'ci_failed', conclusion: 'failed', cursor: 'pipeline:77', url: 'https://gitlab.com/grp/app/-/pipelines/77' });
      expect(failure.name).to.equal('pipeline #77 (failed jobs: rspec)');
      expect(failure.pullRequests).to.deep.equal([{ threadKey: 'grp/app!3', number: 3 }]);
      const text = ciFailureText(failure, failure.pullRequests[0]!);
      expect(text).to.include('CI failed on your merge request grp/app!3').and.include('rspec (stage test): script_failure');
      expect(parseGitlabThreadEvent('Pipeline Hook', gitlabPipeline({ fullName: 'grp/app', mergeRequest: 3, status: 'success' }), 'hangar')).to.equal(null);
      const branchPipeline = { ...gitlabPipeline({ fullName: 'grp/app', mergeRequest: 3 }), merge_request: null };
      expect(parseGitlabThreadEvent('Pipeline Hook', branchPipeline, 'hangar')).to.equal(null);
    });
  });

  it("formats the reply: the answer, PR links, a failed turn, and Hangar's marker", () => {
    const ok = replyComment({ text: 'Fixed it.', ok: true, error: null, pullRequestUrls: ['https://github.com/acme/app/pull/8'] });
    expect(ok).to.equal(`Fixed it.\n\nPull requests:\n- https://github.com/acme/app/pull/8\n\n${HANGAR_MARKER}`);
    const failed = replyComment({ text: '', ok: false, error: 'the agent crashed', pullRequestUrls: [] });
    expect(failed).to.include("The agent's turn failed: the agent crashed").and.include(HANGAR_MARKER);
    expect(replyComment({ text: 'x'.repeat(100_000), ok: true, error: null, pullRequestUrls: [] }).length).to.be.below(65_536);
  });
});
