/**
 * Routing decisions of the code-hosting receiver, over in-memory stand-ins for its three
 * repositories and a dispatcher that records what it is handed.
 */
import { expect } from 'chai';
import type { Repositories } from '../../../../src/db';
import type { OrganizationSettingsRow } from '../../../../src/db/organizationSettingsRepository';
import type { RepositoryRow } from '../../../../src/db/repositoriesRepository';
import type { InboundThreadMessage, ThreadBinding, ThreadClosed } from '../../../../src/integrations/threads/types';
import { createLogger } from '../../../../src/logger';
import { createCodeHostingThreads } from '../../../../src/services/receivers/codeHostingThreads';
import type { GitlabSender } from '../../../../src/services/receivers/gitlabSenders';
import { githubPullRequest } from '../../../support/codeHosting';
import { githubCheckRun, githubIssue, githubIssueComment, gitlabNote, gitlabPipeline } from '../../../support/mentionDeliveries';

const REPO = 'acme/app';

function world() {
  const repositories: RepositoryRow[] = [];
  const settings = new Map<string, Partial<OrganizationSettingsRow>>();
  const bindings: ThreadBinding[] = [];
  const messages: InboundThreadMessage[] = [];
  const closed: ThreadClosed[] = [];
  const deletedReplicas = new Set<string>();
  const repos = {
    replicas: { find: async (id: string) => ({ id, status: 'active', deleted_at: deletedReplicas.has(id) ? new Date() : null }) },
    codeRepositories: {
      withUrlContaining: async (name: string) => repositories.filter((r) => r.url.toLowerCase().includes(name.toLowerCase())),
    },
    organizationSettings: { find: async (organizationId: string) => (settings.get(organizationId) ?? null) as OrganizationSettingsRow | null },
    integrationThreads: {
      find: async (k: { organizationId: string; provider: string; threadKey: string }) =>
        bindings.find((b) => b.organizationId === k.organizationId && b.provider === k.provider && b.threadKey === k.threadKey) ?? null,
    },
  } as unknown as Pick<Repositories, 'codeRepositories' | 'integrationThreads' | 'organizationSettings' | 'replicas'>;
  const receiver = createCodeHostingThreads({
    repos,
    threads: {
      message: async (m) => (messages.push(m), { duplicate: false }),
      close: async (c) => (closed.push(c), { duplicate: false }),
    },
    botName: 'hangar',
    logger: createLogger({ level: 'error', write: () => undefined }),
  });
  const connect = (organizationId: string, url: string) => repositories.push({ id: `repo-${organizationId}`, organization_id: organizationId, name: 'app', url, default_branch: 'main', created_at: new Date() });
  const bind = (organizationId: string, threadKey: string, over: Partial<ThreadBinding> = {}) =>
    bindings.push({ id: `t${bindings.length}`, organizationId, provider: 'github', connectionId: null, threadKey, replicaId: 'rep-1', chatId: 'c', userId: null, reference: { repository: REPO, number: 1 }, cursor: null, closedAt: null, ...over });
  const github = (event: string, body: unknown, delivery = 'd-1') => receiver.acceptGithub(event, body, delivery, Buffer.from(JSON.stringify(body)));
  /** Sent with the token of `from`'s GitLab connections (default: every organization that connected a repository). */
  const gitlab = (event: string, body: unknown, delivery = 'g-1', from: string[] = [...new Set(repositories.map((r) => r.organization_id))]) => {
    const sender: GitlabSender = { kind: 'connection', organizations: from.map((organizationId) => ({ organizationId, connectionId: `conn-${organizationId}` })) };
    return receiver.acceptGitlab(event, body, delivery, Buffer.from(JSON.stringify(body)), sender);
  };
  return { settings, messages, closed, connect, bind, github, gitlab, deletedReplicas };
}

describe('code-hosting thread routing', () => {
  it('starts a thread in every organization that connected the repository, in any URL form', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    w.connect('org-b', `git@github.com:${REPO}.git`);
    w.connect('org-c', 'https://github.com/acme/app-other');
    const answer = await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 12, title: 'Crash', comment: '@hangar please fix [env:prod]', commenter: 'alice', commenterId: 501, installationId: 5 }));
    expect(answer).to.deep.equal({ routed: 2 });
    expect(w.messages.map((m) => m.organizationId).sort()).to.deep.equal(['org-a', 'org-b']);
    const [first] = w.messages;
    expect(first).to.deep.include({ provider: 'github', connectionId: null, threadKey: 'acme/app#12', environmentName: 'prod', title: 'Crash', cursor: 'issue_comment:' + first!.cursor!.split(':')[1] });
    // The account id is the identity (a login can be renamed and registered again by someone else).
    expect(first!.author).to.deep.equal({ externalId: '501', name: 'alice', email: null });
    expect(first!.reference).to.deep.equal({
      repository: REPO,
      number: 12,
      installation_id: 5,
      is_pull_request: false,
      url: `https://github.com/${REPO}/issues/12`,
      author: 'alice',
      author_id: '501',
    });
    expect(first!.text).to.include('GitHub issue acme/app#12: Crash').and.include('@hangar please fix');
    // One delivery id: the core tells the organizations apart.
    expect(w.messages.map((m) => m.deliveryId)).to.deep.equal(['github:d-1', 'github:d-1']);
  });

  it('ignores unmentioned comments on unbound threads, and forwards every comment on a bound one', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    expect(await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 3, comment: 'just chatting' }))).to.deep.equal({ routed: 0 });
    w.bind('org-a', 'acme/app#3', { reference: { repository: REPO, number: 3, author: 'starter' } });
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 3, comment: 'also, the logout', commenter: 'bob' }));
    expect(w.messages).to.have.length(1);
    expect(w.messages[0]!.text).to.equal('Comment by @bob on GitHub issue acme/app#3:\n\nalso, the logout');
    // The thread keeps whoever started it.
    expect(w.messages[0]!.reference.author).to.equal('starter');
    // A /hangar command on a bound pull request is the automations' (pull_request.command), not the thread's.
    w.bind('org-a', 'acme/app#4');
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 4, isPullRequest: true, comment: '/hangar fix the tests' }));
    expect(w.messages).to.have.length(1);
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 4, isPullRequest: true, comment: 'fix the tests' }));
    expect(w.messages).to.have.length(2);
  });

  it('does not forward to a closed thread unless the bot is mentioned again', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    w.bind('org-a', 'acme/app#3', { closedAt: new Date().toISOString() });
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 3, comment: 'thanks' }));
    expect(w.messages).to.have.length(0);
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 3, comment: '@hangar one more thing' }));
    expect(w.messages).to.have.length(1);
  });

  it('keeps outsiders and bots out, but lets allowlisted logins and the thread starter in', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    w.settings.set('org-a', { auto_responder_logins: ['trusted-outsider'], auto_responder_repository_ids: [], ci_failure_response: true });
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 1, comment: '@hangar rm -rf', commenter: 'mallory', commenterAssociation: 'NONE' }));
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 1, comment: '@hangar hi', commenter: 'renovate[bot]', commenterType: 'Bot' }));
    expect(w.messages).to.have.length(0);
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 1, comment: '@hangar please', commenter: 'Trusted-Outsider', commenterAssociation: 'CONTRIBUTOR' }));
    expect(w.messages).to.have.length(1);
    w.bind('org-a', 'acme/app#2', { reference: { repository: REPO, number: 2, author: 'reporter', author_id: '777' } });
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 2, comment: 'more details', commenter: 'reporter', commenterId: 777, commenterAssociation: 'NONE' }));
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 2, comment: 'me too', commenter: 'passerby', commenterAssociation: 'NONE' }));
    // The starter's login, renamed and registered again by another account, is a stranger's.
    await w.github('issue_comment', githubIssueComment({ fullName: REPO, number: 2, comment: 'I am the reporter now', commenter: 'reporter', commenterId: 778, commenterAssociation: 'NONE' }));
    expect(w.messages.map((m) => [m.author.name, m.author.externalId])).to.deep.equal([
      ['Trusted-Outsider', w.messages[0]!.author.externalId],
      ['reporter', '777'],
    ]);
  });

  it('auto-responds to new issues by allowlisted logins or in allowlisted repositories, not to others or to pull requests', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    w.settings.set('org-a', { auto_responder_logins: ['alice'], auto_responder_repository_ids: [], ci_failure_response: true });
    await w.github('issues', githubIssue({ fullName: REPO, number: 20, body: 'No mention here', login: 'bob' }));
    const pr = githubPullRequest({ fullName: REPO, number: 21, action: 'opened', sender: 'alice' });
    Object.assign(pr.pull_request as object, { user: { login: 'alice', type: 'User' }, author_association: 'MEMBER' });
    await w.github('pull_request', pr);
    expect(w.messages).to.have.length(0);
    await w.github('issues', githubIssue({ fullName: REPO, number: 22, body: 'No mention here', login: 'Alice' }));
    expect(w.messages.map((m) => m.threadKey)).to.deep.equal(['acme/app#22']);
    expect(w.messages[0]!.cursor).to.equal('issue:22');

    w.settings.set('org-a', { auto_responder_logins: [], auto_responder_repository_ids: ['repo-org-a'], ci_failure_response: true });
    await w.github('issues', githubIssue({ fullName: REPO, number: 23, body: 'Support request', login: 'customer', association: 'NONE' }));
    expect(w.messages.map((m) => m.threadKey)).to.deep.equal(['acme/app#22', 'acme/app#23']);
  });

  it('closes bound threads only', async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    w.bind('org-a', 'acme/app#8');
    await w.github('issues', githubIssue({ fullName: REPO, number: 8, action: 'closed' }));
    await w.github('issues', githubIssue({ fullName: REPO, number: 9, action: 'closed' }));
    await w.github('pull_request', githubPullRequest({ fullName: REPO, number: 8, action: 'closed', merged: true }), 'd-2');
    expect(w.closed.map((c) => [c.organizationId, c.threadKey])).to.deep.equal([
      ['org-a', 'acme/app#8'],
      ['org-a', 'acme/app#8'],
    ]);
  });

  it("sends a failed check to the workspace bound to the pull request, unless CI-failure response is off, and never starts one", async () => {
    const w = world();
    w.connect('org-a', `https://github.com/${REPO}`);
    await w.github('check_run', githubCheckRun({ fullName: REPO, pullRequest: 40 }));
    expect(w.messages).to.have.length(0);
    w.bind('org-a', 'acme/app#40', { reference: { repository: REPO, number: 40, is_pull_request: true } });
    await w.github('check_run', githubCheckRun({ fullName: REPO, pullRequest: 40, name: 'unit tests', summary: '3 failed' }));
    expect(w.messages).to.have.length(1);
    expect(w.messages[0]!.text).to.include('CI failed on your pull request acme/app#40: unit tests concluded failure').and.include('3 failed');
    expect(w.messages[0]!.reference).to.deep.equal({ repository: REPO, number: 40, is_pull_request: true });
    w.settings.set('org-a', { auto_responder_logins: [], auto_responder_repository_ids: [], ci_failure_response: false });
    await w.github('check_run', githubCheckRun({ fullName: REPO, pullRequest: 40 }), 'd-3');
    expect(w.messages).to.have.length(1);
    // Its workspace deleted, a failure goes nowhere.
    w.settings.delete('org-a');
    w.deletedReplicas.add('rep-1');
    await w.github('check_run', githubCheckRun({ fullName: REPO, pullRequest: 40 }), 'd-4');
    expect(w.messages).to.have.length(1);
  });

  it('routes GitLab notes and failed merge request pipelines the same way', async () => {
    const w = world();
    w.connect('org-g', 'https://gitlab.com/grp/app');
    await w.gitlab('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 5, note: '@hangar please fix', username: 'dev', userId: 42 }));
    expect(w.messages[0]).to.deep.include({ provider: 'gitlab', threadKey: 'grp/app#5', connectionId: 'conn-org-g' });
    // Answers go to the connected repository's project, by its path: the body's project id is not kept.
    expect(w.messages[0]!.reference).to.deep.equal({ repository: 'grp/app', iid: 5, noteable: 'issue', url: 'https://gitlab.com/grp/app/-/issues/5', author: 'dev', author_id: '42' });
    w.bind('org-g', 'grp/app!6', { provider: 'gitlab' });
    await w.gitlab('Pipeline Hook', gitlabPipeline({ fullName: 'grp/app', mergeRequest: 6 }), 'g-2');
    expect(w.messages[1]!.text).to.include('CI failed on your merge request grp/app!6');
  });

  it("reaches only the organizations whose GitLab token the delivery carried, in their own repositories", async () => {
    const w = world();
    w.connect('org-a', 'https://gitlab.com/grp/app');
    w.connect('org-b', 'https://gitlab.com/grp/other');
    // org-b's token, org-a's repository: nothing.
    expect(await w.gitlab('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 5, note: '@hangar please fix' }), 'g-1', ['org-b'])).to.deep.equal({ routed: 0 });
    w.bind('org-a', 'grp/app!6', { provider: 'gitlab' });
    expect(await w.gitlab('Pipeline Hook', gitlabPipeline({ fullName: 'grp/app', mergeRequest: 6 }), 'g-2', ['org-b'])).to.deep.equal({ routed: 0 });
    expect(await w.gitlab('Merge Request Hook', { object_kind: 'merge_request', user: { id: 1, username: 'dev' }, project: { path_with_namespace: 'grp/app', web_url: 'https://gitlab.com/grp/app' }, object_attributes: { iid: 6, action: 'close' } }, 'g-3', ['org-b'])).to.deep.equal({ routed: 0 });
    expect(w.messages).to.deep.equal([]);
    expect(w.closed).to.deep.equal([]);
    // org-a's own token: its thread.
    expect(await w.gitlab('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 5, note: '@hangar please fix' }), 'g-4', ['org-a'])).to.deep.equal({ routed: 1 });
    expect(w.messages.map((m) => m.organizationId)).to.deep.equal(['org-a']);
  });

  it('names a GitLab author by account id and never by the email the payload carries', async () => {
    const w = world();
    w.connect('org-g', 'https://gitlab.com/grp/app');
    await w.gitlab('Note Hook', gitlabNote({ fullName: 'grp/app', iid: 7, note: '@hangar hi', username: 'dev', userId: 9, email: 'admin@example.com' }));
    expect(w.messages[0]!.author).to.deep.equal({ externalId: '9', name: 'dev', email: null });
  });

  it('logs and skips a thread payload it cannot read', async () => {
    const w = world();
    expect(await w.github('issues', { action: 'opened', repository: { full_name: REPO } })).to.deep.equal({ routed: 0 });
  });
});
