/**
 * The workspace API's two ways to send a message (interop §4.10), on the real stack: to a
 * given chat (200 when the workspace is active, 202 while it prepares or sleeps, delivered in
 * order afterwards) and deferred (a chat selected or created, the workspace woken, 202).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };
const db = () => harness().database.db;

const statusOf = async (id: string): Promise<string> => (await db()('replicas').where({ id }).first('status')).status;
const messageStatus = async (id: string): Promise<string | undefined> => (await db()('replica_messages').where({ id }).first('status'))?.status;

/** A replica whose first turn has ended, and its chat. */
async function activeWorkspace(key: string) {
  const created = await request('POST', '/v1/replica', { key, headers: V, body: { name: 'ws-messages', message: 'hello' } });
  expect(created.status).to.equal(201);
  const id = created.body.replica.id as string;
  await until('the first turn to end', async () => (await db()('replica_messages').where({ replica_id: id, status: 'completed' }).first('id')) !== undefined, 120_000);
  const chatId = (await as(key).get(`/v1/workspaces/${id}/chats`)).body.chats[0].id as string;
  return { id, chatId };
}

async function sleepWorkspace(key: string, id: string): Promise<void> {
  expect((await as(key).post(`/v1/replica/${id}/sleep`)).status).to.equal(200);
  await until('the workspace to sleep', async () => (await statusOf(id)) === 'sleeping', 60_000);
}

describe('replicas: messages through the workspace API', function () {
  this.timeout(240_000);

  it('sends to a chat: 200 while active, 202 while asleep (run after waking), with the client’s message id', async () => {
    const { org_api_key: key } = await newOrg('ws-messages');
    const api = as(key);
    const { id, chatId } = await activeWorkspace(key);
    const path = `/v1/workspaces/${id}/chats/${chatId}/messages`;

    const messageId = randomUUID();
    const sent = await api.post(path, { message: 'second', messageId, submittedAt: new Date().toISOString(), planMode: false });
    expect(sent.status).to.equal(200);
    expect(sent.body).to.have.keys(['messageId', 'queued', 'position']);
    expect(sent.body.messageId).to.equal(messageId);
    await until('the second message to run', async () => (await messageStatus(messageId)) === 'completed', 120_000);

    // The same id again is a conflict; nothing is queued twice.
    expect((await api.post(path, { message: 'again', messageId })).status).to.equal(409);
    expect(await db()('replica_messages').where({ id: messageId }).count<{ n: string }[]>({ n: '*' })).to.deep.equal([{ n: '1' }]);

    const unknownChat = await api.post(`/v1/workspaces/${id}/chats/${randomUUID()}/messages`, { message: 'lost' });
    expect(unknownChat.status).to.equal(404);
    expect(unknownChat.body.error).to.equal('Chat not found');
    for (const [body, details] of [
      [{}, /body\.message/],
      [{ message: 'x', thinkingLevel: 'enormous' }, /body\.thinkingLevel/],
      [{ message: 'x', messageId: 'not-a-uuid' }, /body\.messageId/],
      [{ message: 'x', coding_agent: 'agent_2' }, /body\.coding_agent: unknown field/],
    ] as const) {
      const bad = await api.post(path, body);
      expect(bad.status, JSON.stringify(body)).to.equal(400);
      expect(bad.body.details).to.match(details);
    }

    await sleepWorkspace(key, id);
    const queued = await api.post(path, { message: 'third' });
    expect(queued.status).to.equal(202);
    expect(queued.body).to.include({ queued: true });
    await until('the workspace to wake and run the third message', async () => (await messageStatus(queued.body.messageId)) === 'completed', 120_000);
    expect(await statusOf(id)).to.equal('active');
  });

  it('defers a message into a new or a given chat, waking the workspace, and refuses an archived one', async () => {
    const { org_api_key: key } = await newOrg('ws-deferred');
    const api = as(key);
    const { id } = await activeWorkspace(key);
    await sleepWorkspace(key, id);

    const deferred = await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'Look at the flaky test', provider: 'agent_2' });
    expect(deferred.status).to.equal(202);
    expect(deferred.body).to.include({ status: 'waking' });
    const chat = await db()('replica_chats').where({ id: deferred.body.chatId }).first();
    expect(chat).to.include({ replica_id: id, provider: 'agent_2', title: 'Look at the flaky test' });
    await until('the deferred message to run', async () => (await messageStatus(deferred.body.messageId)) === 'completed', 120_000);
    expect((await db()('replica_messages').where({ id: deferred.body.messageId }).first('coding_agent')).coding_agent).to.equal('agent_2');

    // A given chat is selected; a new id makes a chat named as asked.
    const again = await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'and the other one', provider: 'agent_2', chatId: deferred.body.chatId });
    expect(again.body.chatId).to.equal(deferred.body.chatId);
    const fresh = randomUUID();
    const named = await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'quietly', provider: 'agent_1', chatId: fresh, generateName: false });
    expect(named.body.chatId).to.equal(fresh);
    expect((await db()('replica_chats').where({ id: fresh }).first('title')).title).to.equal('New chat');
    expect((await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'no agent' })).status).to.equal(400);

    await until('the queue to drain', async () => (await db()('replica_messages').where({ replica_id: id }).whereIn('status', ['queued', 'running']).first('id')) === undefined, 120_000);
    expect((await api.post(`/v1/workspaces/${id}/archive`)).status).to.equal(200);
    await until('archived', async () => (await statusOf(id)) === 'archived', 60_000);
    const refused = await api.post(`/v1/workspaces/${id}/messages/deferred`, { message: 'too late', provider: 'agent_1' });
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.equal('The workspace is archived');
    expect((await api.post(`/v1/workspaces/${id}/chats/${deferred.body.chatId}/messages`, { message: 'too late' })).status).to.equal(409);
  });
});
