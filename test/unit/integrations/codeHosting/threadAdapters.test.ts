import { expect } from 'chai';
import { HANGAR_MARKER } from '../../../../src/integrations/codeHosting/threads';
import { createGithubApi } from '../../../../src/integrations/github/api';
import { createGithubThreadAdapter } from '../../../../src/integrations/github/threadAdapter';
import { createGitlabApi } from '../../../../src/integrations/gitlab/api';
import { createGitlabThreadAdapter } from '../../../../src/integrations/gitlab/threadAdapter';
import type { ThreadBinding, ThreadRouting } from '../../../../src/integrations/threads/types';
import { startFakeGithub, type FakeGithub } from '../../../support/fakeGithub';
import { startFakeGitlab, type FakeGitlab } from '../../../support/fakeGitlab';

const binding = (over: Partial<ThreadBinding>): ThreadBinding => ({
  id: 't1',
  organizationId: 'o1',
  provider: 'github',
  connectionId: null,
  threadKey: 'acme/app#12',
  replicaId: 'r1',
  chatId: 'c1',
  userId: null,
  reference: {},
  cursor: null,
  closedAt: null,
  ...over,
});

const routing = (over: Partial<ThreadRouting> = {}): ThreadRouting => ({ replicaId: 'r1', chatId: 'c1', messageId: 'm1', created: false, waking: false, ...over });

describe('code-hosting thread adapters', () => {
  describe('GitHub', () => {
    let gh: FakeGithub;
    beforeEach(async () => {
      gh = await startFakeGithub();
    });
    afterEach(() => gh.close());

    const adapter = (bound: string[][] = []) =>
      createGithubThreadAdapter({
        api: createGithubApi({ apiUrl: gh.url, appId: gh.appId, privateKeyPem: gh.privateKeyPem }),
        pullRequests: { bindPullRequests: async (_b, urls) => void bound.push(urls) },
      });
    const ref = { repository: 'acme/app', number: 12, installation_id: 31, is_pull_request: false };

    it('reacts to the comment that reached the workspace and names a new workspace in a comment', async () => {
      await adapter().acknowledge(binding({ reference: ref, cursor: 'issue_comment:555' }), routing({ created: true, replicaId: 'rep-1' }));
      expect(gh.issues.reactions).to.deep.equal([{ id: gh.issues.reactions[0]!.id, repository: 'acme/app', subject: 'issue_comment:555', content: 'eyes' }]);
      expect(gh.issues.comments).to.have.length(1);
      expect(gh.issues.comments[0]).to.include({ repository: 'acme/app', issue: 12 });
      expect(gh.issues.comments[0]!.body).to.include('rep-1').and.include(HANGAR_MARKER);
      // As the installation: a token minted for installation 31.
      expect(gh.calls.some((c) => c.path === '/app/installations/31/access_tokens')).to.equal(true);
    });

    it('only reacts to a follow-up, on the issue itself when the issue opened the thread', async () => {
      await adapter().acknowledge(binding({ reference: ref, cursor: 'issue:12' }), routing());
      expect(gh.issues.reactions.map((r) => r.subject)).to.deep.equal(['issue:12']);
      expect(gh.issues.comments).to.deep.equal([]);
      await adapter().acknowledge(binding({ reference: ref, cursor: 'check_run:9' }), routing());
      expect(gh.issues.reactions).to.have.length(1);
    });

    it('posts the answer with PR links, binds the pull requests, and says when a turn failed', async () => {
      const bound: string[][] = [];
      const a = adapter(bound);
      await a.reply(binding({ reference: ref }), { replicaId: 'r1', text: 'Opened a fix.', ok: true, error: null, pullRequestUrls: ['https://github.com/acme/app/pull/13'] });
      await a.reply(binding({ reference: ref }), { replicaId: 'r1', text: '', ok: false, error: 'agent exited 1', pullRequestUrls: [] });
      expect(gh.issues.comments.map((c) => c.body)).to.deep.equal([
        `Opened a fix.\n\nPull requests:\n- https://github.com/acme/app/pull/13\n\n${HANGAR_MARKER}`,
        `The agent's turn failed: agent exited 1\n\n${HANGAR_MARKER}`,
      ]);
      expect(bound).to.deep.equal([['https://github.com/acme/app/pull/13']]);
    });

    it('refuses a thread whose reference names no repository, and surfaces GitHub errors', async () => {
      let thrown: unknown = null;
      await adapter().reply(binding({ reference: { repository: '../x', number: 1 } }), { replicaId: 'r1', text: 'x', ok: true, error: null, pullRequestUrls: [] }).catch((e) => (thrown = e));
      expect(String(thrown)).to.include('no usable repository');
      gh.failNext(1, 500, { method: 'POST', pathPrefix: '/repos/acme/app/issues/12/comments' });
      thrown = null;
      await adapter().reply(binding({ reference: ref }), { replicaId: 'r1', text: 'x', ok: true, error: null, pullRequestUrls: [] }).catch((e) => (thrown = e));
      expect(thrown).to.have.property('retryable', true);
    });
  });

  describe('GitLab', () => {
    let gl: FakeGitlab;
    beforeEach(async () => {
      gl = await startFakeGitlab();
    });
    afterEach(() => gl.close());

    const adapter = (token = gl.token) => createGitlabThreadAdapter({ apiFor: async () => createGitlabApi({ apiUrl: gl.apiUrl, token }) });

    it('awards eyes to the note, posts a note on the issue, and answers on a merge request, always by the project path', async () => {
      // A project id stored by an older Hangar came from a delivery's body: it is never addressed.
      const issue = binding({ provider: 'gitlab', threadKey: 'grp/app#4', reference: { project_id: 4242, repository: 'grp/app', iid: 4, noteable: 'issue' }, cursor: 'note:77' });
      await adapter().acknowledge(issue, routing({ created: true }));
      expect(gl.awards.map((a) => [a.project, a.awardable, a.name])).to.deep.equal([['grp/app', 'note:77', 'eyes']]);
      expect(gl.notes.map((n) => [n.project, n.noteable, n.iid])).to.deep.equal([['grp/app', 'issue', 4]]);

      const mr = binding({ provider: 'gitlab', threadKey: 'grp/app!9', reference: { project_id: null, repository: 'grp/app', iid: 9, noteable: 'merge_request' } });
      await adapter().reply(mr, { replicaId: 'r1', text: 'Done.', ok: true, error: null, pullRequestUrls: [] });
      expect(gl.notes[1]).to.include({ project: 'grp/app', noteable: 'merge_request', iid: 9, body: `Done.\n\n${HANGAR_MARKER}` });
      expect(gl.calls.every((c) => c.token === gl.token)).to.equal(true);
    });

    it('fails without a token, and with a wrong one, without showing it', async () => {
      const ref = { project_id: 1, repository: 'g/a', iid: 1, noteable: 'issue' };
      let thrown: unknown = null;
      await createGitlabThreadAdapter({ apiFor: async () => createGitlabApi({ apiUrl: gl.apiUrl }) })
        .reply(binding({ provider: 'gitlab', reference: ref }), { replicaId: 'r', text: 'x', ok: true, error: null, pullRequestUrls: [] })
        .catch((e) => (thrown = e));
      expect(String(thrown)).to.include('HANGAR_GITLAB_TOKEN');
      thrown = null;
      await adapter('glpat-wrong-secret')
        .reply(binding({ provider: 'gitlab', reference: ref }), { replicaId: 'r', text: 'x', ok: true, error: null, pullRequestUrls: [] })
        .catch((e) => (thrown = e));
      expect(thrown).to.have.property('status', 401);
      expect(String(thrown)).to.not.include('glpat-wrong-secret');
    });
  });
});
