/**
 * GitLab mentions through the public receiver on the real stack, each organization with its own
 * GitLab connection (issue 23): a note mentioning the bot starts a workspace (source `gitlab`)
 * and the agent's answer is posted as a note on the local GitLab with that connection's token, on
 * the connected repository's project; a failed pipeline of a merge request bound to the
 * workspace reaches its agent. A delivery reaches an organization only with that organization's
 * own token, the deployment-wide token routes nothing while there are several organizations,
 * and no payload field (project id, email, username) decides where answers go or who a member is.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { HANGAR_MARKER } from '../../../src/integrations/codeHosting/threads';
import { connectGitlab, gitlabMergeRequest, sendGitlab } from '../../support/codeHosting';
import { fakeGitlab, GITLAB_WEBHOOK_TOKEN, harness } from '../../support/harness';
import { as, errorOf } from '../../support/http';
import { gitlabNote, gitlabPipeline, sendGitlabEvent } from '../../support/mentionDeliveries';
import { until } from '../../support/wait';
import { boundThread, db, finishedMessages, orgWithRepository, threadDeliveryRecorded } from './support';

const notesOn = (project: string, noteable: 'issue' | 'merge_request', iid: number) =>
  fakeGitlab().notes.filter((n) => n.project === project && n.noteable === noteable && n.iid === iid);

/** An organization with a GitLab repository and a GitLab connection answering with an access token of its own. */
async function gitlabOrg(name: string) {
  const made = await orgWithRepository(name, 'gitlab.com');
  const apiToken = `glpat-${randomUUID()}`;
  fakeGitlab().acceptToken(apiToken);
  const { token, connection } = await connectGitlab(made.org.org_api_key, { apiToken });
  return { ...made, token, apiToken, connection };
}

describe('GitLab mentions', function () {
  this.timeout(600_000);

  it('starts a workspace on a mention in a note and posts the answer as a note with the connection', async () => {
    const { org, api, fullName, token, apiToken } = await gitlabOrg('gl-mention');
    const forged = randomUUID();
    const refused = await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 7, note: '@hangar please fix' }), { uuid: forged, token: 'not-the-token-of-anyone' });
    expect(refused.status).to.equal(401);
    expect(errorOf(refused)).to.deep.equal({ error: 'Invalid webhook token', details: 'X-Gitlab-Token matches no GitLab connection' });
    expect(await threadDeliveryRecorded('gitlab', org.organization_id, forged)).to.equal(false);

    const sent = await sendGitlabEvent(
      'Note Hook',
      gitlabNote({ fullName, iid: 7, title: 'Export fails', description: 'CSV export times out.', note: '@hangar please fix\nchecking the CSV exporter', noteId: 901 }),
      { token },
    );
    expect(sent.status, JSON.stringify(sent.body)).to.equal(202);

    const thread = await boundThread(org.organization_id, 'gitlab', `${fullName}#7`);
    expect((await api.get(`/v1/replica/${thread.replica_id}`)).body.replica).to.include({ source: 'gitlab', name: 'Export fails' });
    expect(thread.reference).to.deep.include({ repository: fullName, iid: 7, noteable: 'issue' });
    expect(thread.reference).to.not.have.property('project_id');

    const answer = await until('the answer as a note', async () => notesOn(fullName, 'issue', 7).find((n) => n.body.startsWith('checking the CSV exporter')), 180_000, 250);
    expect(answer.body.endsWith(HANGAR_MARKER)).to.equal(true);
    // The acknowledgement comes from the thread's own workflow, not ordered against the answer: wait for it too.
    await until('the acknowledgement note naming the workspace', async () => notesOn(fullName, 'issue', 7).find((n) => n.body.includes(thread.replica_id)), 180_000, 250);
    expect(fakeGitlab().awards.some((a) => a.project === fullName && a.awardable === 'note:901' && a.name === 'eyes')).to.equal(true);
    // Every call for this project carried the organization's own access token, not the deployment's.
    const calls = fakeGitlab().calls.filter((c) => c.method === 'POST' && c.path.includes(encodeURIComponent(fullName)));
    expect(calls.length).to.be.greaterThan(1);
    expect(calls.every((c) => c.token === apiToken)).to.equal(true);
  });

  it("sends a failed pipeline of the workspace's merge request to its agent", async () => {
    const { org, fullName, token } = await gitlabOrg('gl-ci');
    const mrUrl = `https://gitlab.com/${fullName}/-/merge_requests/5`;
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 8, note: `@hangar add a retry\nOpened ${mrUrl}` }), { token });
    const thread = await boundThread(org.organization_id, 'gitlab', `${fullName}#8`);
    const mr = await boundThread(org.organization_id, 'gitlab', `${fullName}!5`);
    expect(mr.replica_id).to.equal(thread.replica_id);
    expect(mr.reference).to.deep.include({ repository: fullName, iid: 5, noteable: 'merge_request' });

    await sendGitlabEvent('Pipeline Hook', gitlabPipeline({ fullName, mergeRequest: 5, pipelineId: 3131, jobs: [{ name: 'rspec', status: 'failed' }] }), { token });
    const messages = await finishedMessages(thread.replica_id, 2);
    expect(messages[1].content).to.include(`CI failed on your merge request ${fullName}!5`).and.include('rspec (stage test): script_failure');
    await until('the answer on the merge request', async () => notesOn(fullName, 'merge_request', 5).find((n) => n.body.startsWith('Please look into the failure')), 180_000, 250);
  });

  it("reaches an organization only with its own connection's token, and only its own repositories", async () => {
    const a = await gitlabOrg('gl-victim');
    const b = await gitlabOrg('gl-forger');
    const automation = await a.api.post('/v1/automations', {
      name: 'on merge requests',
      prompt: 'review',
      environment_id: (await a.api.post('/v1/environments', { name: 'reviews' })).body.environment.id,
      triggers: [{ type: 'gitlab', config: { event: 'merge_request.opened' } }],
    });
    expect(automation.status, JSON.stringify(automation.body)).to.equal(201);
    const events = () => db()('automation_events').where({ automation_id: automation.body.automation.id });

    // B's token on A's repository: answered like any repository B did not connect, nothing reaches A.
    const note = randomUUID();
    const viaB = await sendGitlabEvent('Note Hook', gitlabNote({ fullName: a.fullName, iid: 3, note: '@hangar hi' }), { uuid: note, token: b.token });
    expect(viaB.status, JSON.stringify(viaB.body)).to.equal(202);
    expect(viaB.body).to.deep.equal({ accepted: true, matched: 0, duplicate: false, ignored: 'this event or action triggers no automation' });
    const mr = randomUUID();
    expect((await sendGitlab(gitlabMergeRequest({ fullName: a.fullName, iid: 4 }), { token: b.token, uuid: mr })).body).to.deep.include({ matched: 0 });
    expect(await threadDeliveryRecorded('gitlab', a.org.organization_id, note)).to.equal(false);
    expect(await threadDeliveryRecorded('gitlab', b.org.organization_id, note)).to.equal(false);
    expect(await events()).to.deep.equal([]);
    expect(await db()('analytics_pull_request_events').where({ organization_id: a.org.organization_id })).to.deep.equal([]);

    // The same merge request with A's token (the delivery id B spent does not make it a duplicate).
    const own = await sendGitlab(gitlabMergeRequest({ fullName: a.fullName, iid: 4 }), { token: a.token, uuid: mr });
    expect(own.body).to.deep.equal({ accepted: true, matched: 1, duplicate: false });
    expect(await events()).to.have.length(1);
  });

  it('refuses the deployment-wide token while the deployment has several organizations', async () => {
    const { org, fullName } = await gitlabOrg('gl-deployment');
    const logged = harness().logs.length;
    const uuid = randomUUID();
    const refused = await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 2, note: '@hangar hi' }), { uuid, token: GITLAB_WEBHOOK_TOKEN });
    expect(refused.status).to.equal(401);
    expect(errorOf(refused).error).to.equal('Invalid webhook token');
    expect(errorOf(refused).details).to.match(/deployment-wide GitLab token is not accepted while the deployment has more than one organization/);
    expect(harness().logs.slice(logged).some((l) => l.includes('HANGAR_GITLAB_WEBHOOK_TOKEN') && l.includes('more than one organization'))).to.equal(true);
    expect(await threadDeliveryRecorded('gitlab', org.organization_id, uuid)).to.equal(false);
  });

  it("answers on the connected repository's project whatever project id the delivery names", async () => {
    const { org, fullName, token } = await gitlabOrg('gl-project');
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 4, note: '@hangar hi\nanswer-for-the-project', projectId: 777 }), { token });
    await boundThread(org.organization_id, 'gitlab', `${fullName}#4`);
    await until('the answer', async () => fakeGitlab().notes.find((n) => n.body.startsWith('answer-for-the-project')), 180_000, 250);
    expect(fakeGitlab().notes.filter((n) => n.body.startsWith('answer-for-the-project')).map((n) => n.project)).to.deep.equal([fullName]);
    expect(fakeGitlab().calls.filter((c) => c.path.includes('/projects/777/'))).to.deep.equal([]);
  });

  it('links no one from an email in the payload, and knows members by account id, not by username', async () => {
    const { org, fullName, token } = await gitlabOrg('gl-identity');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `member-${randomUUID().slice(0, 6)}@example.com` });

    // Whoever holds the hook's token can write a member's address into user.email.
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 5, note: '@hangar hi', username: 'someone', userId: 31_001, email: member.email }), { token });
    expect((await boundThread(org.organization_id, 'gitlab', `${fullName}#5`)).user_id).to.equal(null);
    expect(await db()('user_connections').where({ organization_id: org.organization_id })).to.deep.equal([]);

    // An admin links the member's GitLab account by its id; a username is refused.
    const api = as(org.org_api_key);
    const byLogin = await api.post('/v1/user/connections', { provider: 'gitlab', external_user_id: 'dev-old', user_id: member.user_id });
    expect(byLogin.status).to.equal(400);
    expect(errorOf(byLogin).details).to.match(/^body\.external_user_id: a gitlab identity is the account's numeric user id/);
    expect((await api.post('/v1/user/connections', { provider: 'gitlab', external_user_id: '31002', external_name: 'dev-old', user_id: member.user_id })).status).to.equal(201);

    // The member renamed to dev-new: still them. Someone else registered dev-old: a stranger.
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 6, note: '@hangar hi', username: 'dev-new', userId: 31_002 }), { token });
    await sendGitlabEvent('Note Hook', gitlabNote({ fullName, iid: 7, note: '@hangar hi', username: 'dev-old', userId: 31_003 }), { token });
    expect((await boundThread(org.organization_id, 'gitlab', `${fullName}#6`)).user_id).to.equal(member.user_id);
    expect((await boundThread(org.organization_id, 'gitlab', `${fullName}#7`)).user_id).to.equal(null);
  });
});
