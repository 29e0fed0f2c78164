/**
 * `POST /v1/slack/threads/attach` (interop §9): with an API key the workspace is named and must
 * be visible to the key; with a workspace's engine secret only that workspace. The answer is
 * the thread and its workspace. A thread already routed moves only for the member whose
 * workspace holds it, an admin or an organization key; a workspace's own code never takes a
 * thread from another workspace.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { hashEngineSecret } from '../../../src/domain/replicas';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { db, slackOrg, threadRow } from './support';

/** A workspace record as the API writes one, with an engine secret the test knows (no container needed here). */
async function workspace(organizationId: string, name: string, userId: string | null = null) {
  const id = randomUUID();
  const engineSecret = randomBytes(32).toString('base64url');
  await harness().database.db('replicas').insert({ id, organization_id: organizationId, user_id: userId, name, status: 'active', coding_agent: 'agent_1', engine_secret_hash: hashEngineSecret(engineSecret) });
  return { id, name, engine: { authorization: `Bearer ${engineSecret}`, 'x-workspace-id': id } };
}

const ATTACH = '/v1/slack/threads/attach';

describe('slack: attaching a thread to a workspace', () => {
  it('with an API key: needs the Slack connection and a workspace the key may use; answers the thread and the workspace', async () => {
    const bare = await newOrg('slack-attach-bare');
    const bareWs = await workspace(bare.organization_id, 'bare');
    const noSlack = await as(bare.org_api_key).post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', workspace_id: bareWs.id });
    expect(noSlack.status).to.equal(409);
    expect(errorOf(noSlack).error).to.equal('Slack is not connected');

    const { org, api, team, connectionId } = await slackOrg('slack-attach');
    const first = await workspace(org.organization_id, 'first');
    const second = await workspace(org.organization_id, 'second');
    expect((await api.post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100' })).status, 'workspace_id is required with a key').to.equal(400);
    expect((await api.post(ATTACH, { channel_id: '#general', thread_ts: '1700000000.000100', workspace_id: first.id })).status).to.equal(400);
    expect((await api.post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: 'yesterday', workspace_id: first.id })).status).to.equal(400);
    const foreign = await api.post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', workspace_id: bareWs.id });
    expect(foreign.status).to.equal(404);
    expect(errorOf(foreign).error).to.equal('Replica not found');

    const attached = await api.post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', workspace_id: first.id });
    expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
    const { thread, workspace: ws } = attached.body;
    expect(thread).to.include({ organization_id: org.organization_id, slack_team_id: team.id, channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', workspace_id: first.id, status: 'open', last_processed_message_ts: null });
    expect(thread.metadata).to.deep.equal({ channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', message_ts: '1700000000.000100', original_message: '', user_id: '' });
    expect(ws).to.deep.equal({ id: first.id, name: 'first' });
    const row = await threadRow(org.organization_id, `${team.id}:C0ATTACH1:1700000000.000100`);
    expect(row).to.include({ id: thread.id, replica_id: first.id, connection_id: connectionId, cursor: null });
    expect(row.reference).to.deep.equal({ team_id: team.id, channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', message_ts: '1700000000.000100' });

    const moved = await api.post(ATTACH, { channel_id: 'C0ATTACH1', thread_ts: '1700000000.000100', workspace_id: second.id });
    expect(moved.body.thread).to.include({ id: thread.id, workspace_id: second.id });
    expect(moved.body.workspace).to.deep.equal({ id: second.id, name: 'second' });
  });

  it("with a personal key: not another member's personal workspace", async () => {
    const { org } = await slackOrg('slack-attach-personal');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `m-${org.organization_id.slice(0, 8)}@example.com` });
    const adminOwn = await workspace(org.organization_id, 'admin-own', org.admin.user_id);
    const shared = await workspace(org.organization_id, 'team');
    const memberApi = as(member.personal_api_key);
    expect((await memberApi.post(ATTACH, { channel_id: 'C0P1', thread_ts: '1700000000.000200', workspace_id: adminOwn.id })).status).to.equal(404);
    expect((await memberApi.post(ATTACH, { channel_id: 'C0P1', thread_ts: '1700000000.000200', workspace_id: shared.id })).status).to.equal(200);
  });

  it('with an engine secret: its own workspace by default, no other, and never with a wrong secret', async () => {
    const { org, team } = await slackOrg('slack-attach-engine');
    const self = await workspace(org.organization_id, 'self');
    const sibling = await workspace(org.organization_id, 'sibling');
    const own = await request('POST', ATTACH, { headers: self.engine, body: { channel_id: 'D0DIRECT1', thread_ts: '1700000000.000300' } });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
    expect(own.body.thread).to.include({ slack_team_id: team.id, channel_id: 'D0DIRECT1', workspace_id: self.id });
    expect((await request('POST', ATTACH, { headers: self.engine, body: { channel_id: 'D0DIRECT1', thread_ts: '1700000000.000300', workspace_id: self.id } })).status).to.equal(200);
    const other = await request('POST', ATTACH, { headers: self.engine, body: { channel_id: 'D0DIRECT1', thread_ts: '1700000000.000300', workspace_id: sibling.id } });
    expect(other.status).to.equal(404);
    const wrong = await request('POST', ATTACH, { headers: { ...self.engine, authorization: 'Bearer not-the-secret' }, body: { channel_id: 'D0DIRECT1', thread_ts: '1700000000.000300' } });
    expect(wrong.status).to.equal(401);
    expect((await threadRow(org.organization_id, `${team.id}:D0DIRECT1:1700000000.000300`)).replica_id).to.equal(self.id);
  });

  it("moves a thread only for its owner, an admin or an organization key; a workspace's own code never takes one", async () => {
    const { org, team } = await slackOrg('slack-attach-owner');
    const email = (who: string) => `${who}-${org.organization_id.slice(0, 8)}@example.com`;
    const alice = await harness().admin.createUser({ organizationId: org.organization_id, email: email('alice') });
    const bob = await harness().admin.createUser({ organizationId: org.organization_id, email: email('bob') });
    const aliceWs = await workspace(org.organization_id, 'alice-1', alice.user_id);
    const aliceOther = await workspace(org.organization_id, 'alice-2', alice.user_id);
    const bobWs = await workspace(org.organization_id, 'bob', bob.user_id);
    const shared = await workspace(org.organization_id, 'team');
    const aliceApi = as(alice.personal_api_key);
    const bobApi = as(bob.personal_api_key);
    const dm = { channel_id: 'D0ALICEDM', thread_ts: '1700000000.000400' };
    const key = `${team.id}:${dm.channel_id}:${dm.thread_ts}`;
    const holder = async () => (await threadRow(org.organization_id, key)).replica_id as string;

    expect((await aliceApi.post(ATTACH, { ...dm, workspace_id: aliceWs.id })).status, 'a fresh thread').to.equal(200);

    // Another member, with a key or from inside their workspace, cannot take it.
    const taken = await bobApi.post(ATTACH, { ...dm, workspace_id: bobWs.id });
    expect(taken.status, JSON.stringify(taken.body)).to.equal(403);
    expect(errorOf(taken).error).to.equal('The Slack thread belongs to another workspace');
    const fromInside = await request('POST', ATTACH, { headers: bobWs.engine, body: dm });
    expect(fromInside.status, JSON.stringify(fromInside.body)).to.equal(403);
    expect(errorOf(fromInside).error).to.equal('The workspace agent cannot route this Slack thread');
    // Nor can the owner's other workspace: its code acts for the workspace, not for the member.
    expect((await request('POST', ATTACH, { headers: aliceOther.engine, body: dm })).status).to.equal(403);
    expect(await holder()).to.equal(aliceWs.id);

    // The workspace that holds it may attach it again (to its latest chat); its owner may move it.
    expect((await request('POST', ATTACH, { headers: aliceWs.engine, body: dm })).status).to.equal(200);
    expect((await aliceApi.post(ATTACH, { ...dm, workspace_id: aliceOther.id })).status).to.equal(200);
    expect(await holder()).to.equal(aliceOther.id);

    // An admin and an organization key may move it; a thread held by a team workspace has no owner but them.
    expect((await as(org.admin.personal_api_key).post(ATTACH, { ...dm, workspace_id: shared.id })).status).to.equal(200);
    expect(await holder()).to.equal(shared.id);
    expect((await aliceApi.post(ATTACH, { ...dm, workspace_id: aliceWs.id })).status).to.equal(403);
    expect((await as(org.org_api_key).post(ATTACH, { ...dm, workspace_id: bobWs.id })).status).to.equal(200);
    expect(await holder()).to.equal(bobWs.id);
  });

  it('a thread whose message is being routed (a row, no workspace yet) is not fresh: only an admin moves it', async () => {
    const { org, team, connectionId } = await slackOrg('slack-attach-routing');
    const bob = await harness().admin.createUser({ organizationId: org.organization_id, email: `bob-${org.organization_id.slice(0, 8)}@example.com` });
    const bobWs = await workspace(org.organization_id, 'bob', bob.user_id);
    const shared = await workspace(org.organization_id, 'team');
    // What the worker's routing writes first, under its lock, for a direct message to the bot.
    const dm = { channel_id: 'D0ALICEDM', thread_ts: '1700000000.000500' };
    const key = `${team.id}:${dm.channel_id}:${dm.thread_ts}`;
    await db()('integration_threads').insert({ id: randomUUID(), organization_id: org.organization_id, provider: 'slack', thread_key: key, connection_id: connectionId, reference: JSON.stringify({ team_id: team.id, ...dm, message_ts: dm.thread_ts }) });

    const grabbed = await as(bob.personal_api_key).post(ATTACH, { ...dm, workspace_id: bobWs.id });
    expect(grabbed.status, JSON.stringify(grabbed.body)).to.equal(403);
    expect(errorOf(grabbed)).to.include({ error: 'The Slack thread belongs to another workspace' });
    expect((await request('POST', ATTACH, { headers: bobWs.engine, body: dm })).status).to.equal(403);
    expect((await as(bob.personal_api_key).post(ATTACH, { ...dm, workspace_id: shared.id })).status, 'nor to a team workspace').to.equal(403);
    expect((await threadRow(org.organization_id, key)).replica_id).to.equal(null);

    expect((await as(org.admin.personal_api_key).post(ATTACH, { ...dm, workspace_id: shared.id })).status).to.equal(200);
    expect((await threadRow(org.organization_id, key)).replica_id).to.equal(shared.id);
  });
});
