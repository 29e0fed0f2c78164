/**
 * Chat and message ids that clients choose are unique per workspace: another organization
 * using the same ids neither gets a 409 (which would tell it they exist) nor touches the first
 * organization's chat. The cheap cases use workspaces written straight into the database (no
 * container); the last one runs real turns in two workspaces sharing a chat id.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { insertReplica } from './activitySupport';

const V = { 'X-Api-Version': '2026-05-17' };
const db = () => harness().database.db;

/** An organization's key and a workspace of it that is still preparing (messages wait in its queue). */
async function tenant(name: string) {
  const org = await newOrg(name);
  return { api: as(org.org_api_key), key: org.org_api_key, replicaId: await insertReplica(org.organization_id, { status: 'preparing' }) };
}

const queueOf = async (api: ReturnType<typeof as>, replicaId: string, chatId: string): Promise<string[]> => {
  const res = await api.get(`/v1/workspaces/${replicaId}/chats/${chatId}/queue`);
  expect(res.status).to.equal(200);
  return (res.body.queue as Array<{ message: string }>).map((m) => m.message);
};

describe('replicas: chat and message ids scoped to their workspace', function () {
  this.timeout(300_000);

  it('lets two organizations create a chat with the same id, each in its own workspace; the same workspace twice is 409', async () => {
    const a = await tenant('chat-ids-a');
    const b = await tenant('chat-ids-b');
    const chatId = randomUUID();

    const first = await a.api.post(`/v1/replica/${a.replicaId}/chats`, { provider: 'agent_1', id: chatId, title: 'Org A' });
    expect(first.status).to.equal(201);
    const second = await b.api.post(`/v1/workspaces/${b.replicaId}/chats`, { provider: 'agent_2', id: chatId, title: 'Org B' });
    expect(second.status).to.equal(201);
    expect(second.body.chat).to.include({ id: chatId, provider: 'agent_2', title: 'Org B' });

    const again = await a.api.post(`/v1/replica/${a.replicaId}/chats`, { provider: 'agent_1', id: chatId });
    expect(again.status).to.equal(409);
    expect(errorOf(again).error).to.equal('A chat with this id already exists');

    const listed = async (t: typeof a) => (await t.api.get(`/v1/workspaces/${t.replicaId}/chats`)).body.chats as Array<{ id: string; title: string; provider: string }>;
    expect((await listed(a)).map((c) => [c.id, c.title, c.provider])).to.deep.equal([[chatId, 'Org A', 'agent_1']]);
    expect((await listed(b)).map((c) => [c.id, c.title, c.provider])).to.deep.equal([[chatId, 'Org B', 'agent_2']]);

    // Deleting one organization's chat leaves the other's alone.
    expect((await a.api.delete(`/v1/replica/${a.replicaId}/chats/${chatId}`)).status).to.equal(200);
    expect(await listed(a)).to.deep.equal([]);
    expect((await listed(b)).map((c) => c.id)).to.deep.equal([chatId]);
    // A deleted chat's id stays taken in its own workspace.
    expect((await a.api.post(`/v1/replica/${a.replicaId}/chats`, { provider: 'agent_1', id: chatId })).status).to.equal(409);
  });

  it('keeps messages with the same chat and message ids apart, and queue edits to their own workspace', async () => {
    const a = await tenant('message-ids-a');
    const b = await tenant('message-ids-b');
    const chatId = randomUUID();
    const messageId = randomUUID();
    for (const t of [a, b]) expect((await t.api.post(`/v1/workspaces/${t.replicaId}/chats`, { provider: 'agent_1', id: chatId })).status).to.equal(201);

    const toA = await a.api.post(`/v1/workspaces/${a.replicaId}/chats/${chatId}/messages`, { message: 'for A', messageId });
    expect(toA.status).to.equal(202);
    const toB = await b.api.post(`/v1/workspaces/${b.replicaId}/chats/${chatId}/messages`, { message: 'for B', messageId });
    expect(toB.status).to.equal(202);
    expect(toB.body).to.include({ messageId, queued: true, position: 0 });
    expect(await queueOf(a.api, a.replicaId, chatId)).to.deep.equal(['for A']);
    expect(await queueOf(b.api, b.replicaId, chatId)).to.deep.equal(['for B']);

    const twice = await a.api.post(`/v1/workspaces/${a.replicaId}/chats/${chatId}/messages`, { message: 'again', messageId });
    expect(twice.status).to.equal(409);
    errorOf(twice);

    // Removing the message by its id in A's workspace leaves B's message with the same id queued.
    const removed = await a.api.delete(`/v1/workspaces/${a.replicaId}/chats/${chatId}/queue/${messageId}`);
    expect(removed.status).to.equal(200);
    expect(removed.body.queue).to.deep.equal([]);
    expect(await queueOf(b.api, b.replicaId, chatId)).to.deep.equal(['for B']);

    // A deferred message naming a chat id another organization uses makes that chat here.
    const deferred = await a.api.post(`/v1/workspaces/${a.replicaId}/messages/deferred`, { message: 'deferred', provider: 'agent_1', chatId, messageId });
    expect(deferred.status).to.equal(202);
    expect(deferred.body).to.include({ chatId, messageId });
    const otherChat = randomUUID();
    const fresh = await b.api.post(`/v1/workspaces/${b.replicaId}/messages/deferred`, { message: 'elsewhere', provider: 'agent_1', chatId: otherChat, messageId });
    expect(fresh.status, 'a message id the workspace already has').to.equal(409);
    expect((await b.api.get(`/v1/workspaces/${b.replicaId}/chats`)).body.chats.map((c: { id: string }) => c.id)).to.deep.equal([chatId]);
    expect(await queueOf(b.api, b.replicaId, chatId)).to.deep.equal(['for B']);
  });

  it('takes messages and queue edits of one chat at once without a deadlock (found by the fuzzer)', async () => {
    const { api, replicaId } = await tenant('chat-locks');
    const chatId = randomUUID();
    expect((await api.post(`/v1/workspaces/${replicaId}/chats`, { provider: 'agent_1', id: chatId })).status).to.equal(201);
    const first = await api.post(`/v1/workspaces/${replicaId}/chats/${chatId}/messages`, { message: 'first' });
    const path = `/v1/workspaces/${replicaId}/chats/${chatId}`;
    const statuses: number[] = [];
    for (let round = 0; round < 25; round++) {
      const answers = await Promise.all([
        api.post(`${path}/messages`, { message: `send ${round}` }),
        api.patch(`${path}/queue/reorder`, { messageId: first.body.messageId, position: round % 3 }),
        api.post(`/v1/workspaces/${replicaId}/messages/deferred`, { message: `deferred ${round}`, provider: 'agent_1', chatId }),
        api.patch(`${path}/queue/reorder`, { messageId: first.body.messageId, position: 0 }),
      ]);
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses.filter((s) => s >= 500)).to.deep.equal([]);
    expect(await queueOf(api, replicaId, chatId)).to.have.length(51);
  });

  it('runs turns of two workspaces sharing a chat id and a message id in their own chats', async () => {
    const start = async (name: string) => {
      const { org_api_key: key } = await newOrg(name);
      const created = await request('POST', '/v1/replica', { key, headers: V, body: { name, message: `first of ${name}` } });
      expect(created.status).to.equal(201);
      const id = created.body.replica.id as string;
      return { key, api: as(key), id };
    };
    const [a, b] = await Promise.all([start('shared-ids-a'), start('shared-ids-b')]);
    const done = (replicaId: string) => db()('replica_messages').where({ replica_id: replicaId }).whereIn('status', ['completed', 'failed']);
    await until('A’s first turn', async () => (await done(a.id)).length === 1, 120_000);
    const [first] = await done(a.id);
    expect(first.status).to.equal('completed');

    // B takes A's chat id and A's message id for a chat and a message of its own.
    expect((await b.api.post(`/v1/workspaces/${b.id}/chats`, { provider: 'agent_1', id: first.chat_id })).status).to.equal(201);
    const sent = await b.api.post(`/v1/workspaces/${b.id}/chats/${first.chat_id}/messages`, { message: 'said in B', messageId: first.id });
    expect([200, 202]).to.include(sent.status);
    const history = async (t: typeof a) => JSON.stringify((await t.api.get(`/v1/replica/${t.id}/history?chat_id=${first.chat_id}&limit=500`)).body.events);
    await until('B’s turn in the shared chat id', async () => (await history(b)).includes('said in B'), 180_000);

    const inA = await history(a);
    expect(inA).to.include('first of shared-ids-a');
    expect(inA).not.to.include('said in B');
    expect(await history(b)).not.to.include('first of shared-ids-a');
    const rowA = await db()('replica_messages').where({ replica_id: a.id, id: first.id }).first('status', 'content');
    expect(rowA).to.deep.equal({ status: 'completed', content: 'first of shared-ids-a' });
    await until('B’s message to complete', async () => (await db()('replica_messages').where({ replica_id: b.id, id: first.id }).first('status'))?.status === 'completed', 60_000);
    for (const t of [a, b]) expect((await t.api.delete(`/v1/replica/${t.id}`)).status).to.equal(200);
  });
});
