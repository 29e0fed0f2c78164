/**
 * GitHub mentions through the public receiver with signed deliveries, on the real stack: a
 * mention starts a workspace (source `github`), the agent's answer comes back as an issue
 * comment on the local GitHub, later comments reach the same workspace, closing the issue
 * applies the lifecycle policy; the auto-responder allowlist; and a failed check run on the
 * workspace's own pull request reaches its agent.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { HANGAR_MARKER } from '../../../src/integrations/codeHosting/threads';
import { fakeGithub, harness } from '../../support/harness';
import { as, errorOf } from '../../support/http';
import { sendGithub } from '../../support/codeHosting';
import { githubCheckRun, githubIssue, githubIssueComment } from '../../support/mentionDeliveries';
import { until } from '../../support/wait';
import { boundThread, db, finishedMessages, orgWithRepository, statusOf, threadDeliveryRecorded } from './support';

const INSTALLATION = 4711;

/** The comments Hangar posted on one issue or pull request of the fake GitHub. */
const commentsOn = (repository: string, issue: number) => fakeGithub().issues.comments.filter((c) => c.repository === repository && c.issue === issue);

async function commentMatching(repository: string, issue: number, what: string, test: (body: string) => boolean) {
  return until(`a comment on ${repository}#${issue} ${what}`, async () => commentsOn(repository, issue).find((c) => test(c.body)), 180_000, 250);
}

describe('GitHub mentions', function () {
  this.timeout(600_000);

  it('starts a workspace on a mention, answers in the issue, routes later comments there, and applies the lifecycle policy on close', async () => {
    const { org, api, fullName } = await orgWithRepository('mention');
    const mention = await sendGithub(
      'issue_comment',
      githubIssueComment({ fullName, number: 12, title: 'Login is broken', body: 'Clicking login does nothing.', comment: '@hangar please fix\nlooking at the login form', commenter: 'alice', installationId: INSTALLATION }),
    );
    expect(mention.status, JSON.stringify(mention.body)).to.equal(202);
    expect(mention.body).to.deep.equal({ accepted: true, matched: 0, duplicate: false });

    const thread = await boundThread(org.organization_id, 'github', `${fullName}#12`);
    const replica = (await api.get(`/v1/replica/${thread.replica_id}`)).body.replica;
    expect(replica).to.include({ source: 'github', name: 'Login is broken' });
    expect(thread.reference).to.deep.include({ repository: fullName, number: 12, installation_id: INSTALLATION, is_pull_request: false, author: 'alice' });

    // Acknowledged: eyes on the comment and a comment naming the workspace, as the installation.
    await commentMatching(fullName, 12, 'naming the workspace', (b) => b.includes(thread.replica_id) && b.includes(HANGAR_MARKER));
    const cursor = String(thread.cursor);
    expect(fakeGithub().issues.reactions.some((r) => r.repository === fullName && `${r.subject}` === cursor && r.content === 'eyes')).to.equal(true);

    // The agent (the test agent echoes each line; its last line is its final answer) answers in the issue.
    await commentMatching(fullName, 12, 'with the answer', (b) => b.startsWith('looking at the login form') && b.endsWith(HANGAR_MARKER));
    const [first] = await finishedMessages(thread.replica_id, 1);
    expect(first.content).to.include('GitHub issue').and.include('Clicking login does nothing.').and.include('@hangar please fix');

    // A later comment, without a mention, goes to the same workspace; Hangar's own comments never do.
    const ownComment = commentsOn(fullName, 12)[0]!;
    const echoed = await sendGithub('issue_comment', githubIssueComment({ fullName, number: 12, comment: ownComment.body, commenter: 'hangar[bot]', commenterType: 'Bot', installationId: INSTALLATION }));
    expect(echoed.body).to.have.property('ignored');
    const followUp = await sendGithub('issue_comment', githubIssueComment({ fullName, number: 12, comment: 'also the logout button', commenter: 'bob', installationId: INSTALLATION }));
    expect(followUp.status).to.equal(202);
    await commentMatching(fullName, 12, 'answering the follow-up', (b) => b.startsWith('also the logout button'));
    const messages = await finishedMessages(thread.replica_id, 2);
    expect(messages).to.have.length(2);
    expect(messages[1].content).to.equal(`Comment by @bob on GitHub issue ${fullName}#12:\n\nalso the logout button`);
    expect(await db()('integration_threads').where({ organization_id: org.organization_id, provider: 'github' }).count('* as n').first()).to.deep.equal({ n: '1' });

    // Closing the issue applies the workspace's lifecycle policy (archive_when_done: archived).
    await db()('replicas').where({ id: thread.replica_id }).update({ lifecycle_policy: 'archive_when_done' });
    const closing = await sendGithub('issues', githubIssue({ fullName, number: 12, action: 'closed', installationId: INSTALLATION }));
    expect(closing.status).to.equal(202);
    await until('the workspace to be archived', async () => (await statusOf(thread.replica_id)) === 'archived', 120_000, 250);
    const closed = await db()('integration_threads').where({ id: thread.id }).first();
    expect(closed.closed_at).to.not.equal(null);
  });

  it('starts a workspace for an unmentioned issue by an allowlisted login, not by another login', async () => {
    const { org, adminApi, fullName } = await orgWithRepository('allowlist');
    const patched = await adminApi.patch('/v1/organization/settings', { auto_responder_allowlist: { logins: ['@Alice-Dev'] } });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.settings.auto_responder_allowlist).to.deep.equal({ logins: ['alice-dev'], repository_ids: [] });

    const other = randomUUID();
    const byOther = await sendGithub('issues', githubIssue({ fullName, number: 30, title: 'Typo', body: 'There is a typo in the README.', login: 'carol', installationId: INSTALLATION }), { deliveryId: other });
    expect(byOther.status).to.equal(202);
    expect(byOther.body.ignored).to.be.a('string');
    expect(await threadDeliveryRecorded('github', org.organization_id, other)).to.equal(false);

    const listed = randomUUID();
    const byListed = await sendGithub('issues', githubIssue({ fullName, number: 31, title: 'Flaky test', body: 'The payments test fails one run in ten.', login: 'alice-dev', installationId: INSTALLATION }), { deliveryId: listed });
    expect(byListed.body).to.not.have.property('ignored');
    expect(await threadDeliveryRecorded('github', org.organization_id, listed)).to.equal(true);
    const thread = await boundThread(org.organization_id, 'github', `${fullName}#31`);
    await commentMatching(fullName, 31, 'with the answer', (b) => b.startsWith('The payments test fails one run in ten.'));
    expect(thread.cursor).to.equal('issue:31');
    expect(await db()('integration_threads').where({ organization_id: org.organization_id, thread_key: `${fullName}#30` }).first()).to.equal(undefined);
  });

  it("sends a failed check run on the workspace's own pull request to its agent, and nothing for another pull request", async () => {
    const { org, adminApi, fullName } = await orgWithRepository('ci');
    const prUrl = `https://github.com/${fullName}/pull/77`;
    await sendGithub('issues', githubIssue({ fullName, number: 40, title: 'Add retries', body: `@hangar add retries to the client\nOpened ${prUrl}`, login: 'alice', installationId: INSTALLATION }));
    const thread = await boundThread(org.organization_id, 'github', `${fullName}#40`);
    await commentMatching(fullName, 40, 'naming the pull request', (b) => b.includes(`Pull requests:\n- ${prUrl}`));

    // The answer named the pull request: it is now the workspace's own.
    const pr = await boundThread(org.organization_id, 'github', `${fullName}#77`);
    expect(pr.replica_id).to.equal(thread.replica_id);
    expect(pr.reference).to.deep.include({ repository: fullName, number: 77, is_pull_request: true, installation_id: INSTALLATION });

    const elsewhere = randomUUID();
    const unrelated = await sendGithub('check_run', githubCheckRun({ fullName, pullRequest: 78, installationId: INSTALLATION }), { deliveryId: elsewhere });
    expect(unrelated.body.ignored).to.be.a('string');
    expect(await threadDeliveryRecorded('github', org.organization_id, elsewhere)).to.equal(false);

    const failed = await sendGithub('check_run', githubCheckRun({ fullName, pullRequest: 77, name: 'unit tests', summary: 'retry_test.go: expected 3 attempts, got 1', installationId: INSTALLATION }));
    expect(failed.status).to.equal(202);
    const messages = await finishedMessages(thread.replica_id, 2);
    expect(messages[1].content).to.include(`CI failed on your pull request ${fullName}#77: unit tests concluded failure`).and.include('expected 3 attempts, got 1');
    // The agent's answer to it reaches the pull request too.
    await commentMatching(fullName, 77, 'answering the failure', (b) => b.startsWith('Please look into the failure'));

    // Turned off, a failure is not sent.
    const off = await adminApi.patch('/v1/organization/settings', { ci_failure_response: false });
    expect(off.body.settings).to.include({ ci_failure_response: false });
    const muted = randomUUID();
    await sendGithub('check_run', githubCheckRun({ fullName, pullRequest: 77, installationId: INSTALLATION }), { deliveryId: muted });
    expect(await threadDeliveryRecorded('github', org.organization_id, muted)).to.equal(false);
  });

  it('knows a member by GitHub account id: a renamed login keeps its member, the old login taken by someone else gets no one', async () => {
    const { org, fullName } = await orgWithRepository('gh-identity');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `octo-${randomUUID().slice(0, 6)}@example.com` });
    const api = as(org.org_api_key);
    // A login can be renamed and registered again by someone else: it is not an identity.
    const byLogin = await api.post('/v1/user/connections', { provider: 'github', external_user_id: 'octo', user_id: member.user_id });
    expect(byLogin.status).to.equal(400);
    expect(errorOf(byLogin).details).to.match(/^body\.external_user_id: a github identity is the account's numeric user id/);
    const linked = await api.post('/v1/user/connections', { provider: 'github', external_user_id: '5550001', external_name: 'octo', user_id: member.user_id });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(201);

    // The member renamed octo to octo-renamed; someone else then registered octo.
    await sendGithub('issue_comment', githubIssueComment({ fullName, number: 6, comment: '@hangar hi', commenter: 'octo-renamed', commenterId: 5_550_001, installationId: INSTALLATION }));
    await sendGithub('issue_comment', githubIssueComment({ fullName, number: 7, comment: '@hangar hi', commenter: 'octo', commenterId: 5_550_002, installationId: INSTALLATION }));
    expect((await boundThread(org.organization_id, 'github', `${fullName}#6`)).user_id).to.equal(member.user_id);
    expect((await boundThread(org.organization_id, 'github', `${fullName}#7`)).user_id).to.equal(null);
  });
});
