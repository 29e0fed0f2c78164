import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { client, insertChat, insertMessage, insertReplica, startActivityApp, type ActivityApp } from './activitySupport';

const db = () => harness().database.db;
const eventsOf = async (replicaId: string) =>
  (await db()('replica_events').where({ replica_id: replicaId }).orderBy('id').select('type', 'payload')) as Array<{ type: string; payload: any }>;

describe('replica activity API', () => {
  let app: ActivityApp;
  before(async () => {
    app = await startActivityApp();
  });
  after(async () => {
    await app.close();
  });

  describe('access', () => {
    it('answers 404 for other organizations and other members, and 401 without a key', async () => {
      const org = await newOrg();
      const other = await newOrg();
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `m-${randomUUID()}@example.com` });
      const colleague = await harness().admin.createUser({ organizationId: org.organization_id, email: `c-${randomUUID()}@example.com` });
      const orgReplica = await insertReplica(org.organization_id);
      const personal = await insertReplica(org.organization_id, { userId: member.user_id });
      const chatId = await insertChat(personal);
      const messageId = await insertMessage(personal, chatId);

      const paths = (id: string) => [
        ['get', `/v1/replica/${id}/chats`],
        ['post', `/v1/replica/${id}/chats`, { provider: 'agent_1' }],
        ['delete', `/v1/replica/${id}/chats/${chatId}`],
        ['get', `/v1/workspaces/${id}/chats`],
        ['post', `/v1/workspaces/${id}/chats`, { provider: 'agent_1' }],
        ['get', `/v1/replica/${id}/chats/${chatId}/queue`],
        ['delete', `/v1/replica/${id}/chats/${chatId}/queue`],
        ['delete', `/v1/replica/${id}/chats/${chatId}/queue/${messageId}`],
        ['patch', `/v1/replica/${id}/chats/${chatId}/queue/reorder`, { messageId, position: 0 }],
        ['get', `/v1/workspaces/${id}/chats/${chatId}/queue`],
        ['get', `/v1/replica/${id}/history`],
        ['get', `/v1/replica/${id}/hooks`],
        ['get', `/v1/replica/${id}/events`],
      ] as const;

      for (const key of [other.org_api_key, other.admin.personal_api_key, colleague.personal_api_key]) {
        for (const [method, path, body] of paths(personal)) {
          const res = await (client(app, key) as any)[method](path, body);
          expect(res.status, `${method} ${path}`).to.equal(404);
          expect(res.body).to.deep.equal({ error: 'Replica not found', details: null });
        }
      }
      for (const [method, path, body] of paths(personal)) {
        expect((await (client(app) as any)[method](path, body)).status, `${method} ${path} without a key`).to.equal(401);
      }
      // The owner and org keys see the personal replica; every member sees the org's.
      expect((await client(app, member.personal_api_key).get(`/v1/replica/${personal}/chats`)).status).to.equal(200);
      expect((await client(app, org.org_api_key).get(`/v1/replica/${personal}/chats`)).status).to.equal(200);
      expect((await client(app, colleague.personal_api_key).get(`/v1/replica/${orgReplica}/chats`)).status).to.equal(200);

      // A deleted replica is gone for everyone at once.
      await db()('replicas').where({ id: orgReplica }).update({ deleted_at: new Date() });
      expect((await client(app, org.org_api_key).get(`/v1/replica/${orgReplica}/hooks`)).status).to.equal(404);
    });

    it('rejects malformed ids and unknown fields with 400 naming the field', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id);
      const bad = await api.get('/v1/replica/not-a-uuid/chats');
      expect(bad.status).to.equal(400);
      expect(bad.body.details).to.match(/^params\.id: must match format "uuid"/);
      expect((await api.get(`/v1/replica/${replica}/chats/nope/queue`)).body.details).to.match(/params\.chatId/);
      const unknownQuery = await api.get(`/v1/replica/${replica}/events?from=1`);
      expect(unknownQuery.status).to.equal(400);
      expect(unknownQuery.body.details).to.equal('query.from: unknown field');
      const messageId = await api.delete(`/v1/replica/${replica}/chats/${replica}/queue/42`);
      expect(messageId.status).to.equal(400);
      expect(messageId.body.details).to.match(/^params\.messageId: must match format "uuid"/);
    });
  });

  describe('chats', () => {
    it('lists chats with the summary fields, and wakes a sleeping or archived replica', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id);
      const first = await insertChat(replica, { title: 'first', processing: true });
      const second = await insertChat(replica, { provider: 'agent_2', title: 'second' });

      const listed = await api.get(`/v1/replica/${replica}/chats`);
      expect(listed.status).to.equal(200);
      expect(listed.body.waking).to.equal(false);
      expect(listed.body.chats.map((c: any) => c.id)).to.deep.equal([first, second]);
      expect(listed.body.chats[0]).to.include({ id: first, provider: 'agent_1', title: 'first', processing: true, parent_chat_id: null });
      expect(listed.body.chats[1]).to.include({ provider: 'agent_2', processing: false });
      expect(new Date(listed.body.chats[0].created_at).toISOString()).to.equal(listed.body.chats[0].created_at);
      expect(app.woken).not.to.include(replica);

      for (const status of ['sleeping', 'archived'] as const) {
        const asleep = await insertReplica(org.organization_id, { status });
        const res = await api.get(`/v1/replica/${asleep}/chats`);
        expect(res.body).to.deep.equal({ chats: [], waking: true });
        expect(app.woken).to.include(asleep);
      }
      const preparing = await insertReplica(org.organization_id, { status: 'preparing' });
      expect((await api.get(`/v1/replica/${preparing}/chats`)).body.waking).to.equal(false);
      expect(app.woken).not.to.include(preparing);
    });

    it('creates a chat, echoing clientRequestId in chat.created', async () => {
      const org = await newOrg();
      const api = client(app, org.admin.personal_api_key);
      const replica = await insertReplica(org.organization_id, { status: 'preparing' });
      const parent = await insertChat(replica);
      const id = randomUUID();
      const created = await api.post(`/v1/replica/${replica}/chats`, { provider: 'agent_3', id, title: 'Refactor', parentChatId: parent, clientRequestId: 'req-1' });
      expect(created.status).to.equal(201);
      expect(created.body).to.include({ id, provider: 'agent_3', title: 'Refactor', processing: false, parent_chat_id: parent });

      const plain = await api.post(`/v1/replica/${replica}/chats`, { provider: 'agent_1' });
      expect(plain.status).to.equal(201);
      expect(plain.body.title).to.equal('New chat');

      const events = await eventsOf(replica);
      expect(events.map((e) => e.type)).to.deep.equal(['chat.created', 'chat.created']);
      expect(events[0]!.payload).to.deep.include({ clientRequestId: 'req-1' });
      expect(events[0]!.payload.chat).to.include({ id, provider: 'agent_3', title: 'Refactor', processing: false, parentChatId: parent });
      expect(events[1]!.payload).not.to.have.property('clientRequestId');

      const again = await api.post(`/v1/replica/${replica}/chats`, { provider: 'agent_1', id });
      expect(again.status).to.equal(409);
      const orphan = await api.post(`/v1/replica/${replica}/chats`, { provider: 'agent_1', parentChatId: randomUUID() });
      expect(orphan.status).to.equal(404);
      expect(orphan.body.error).to.equal('Parent chat not found');
      expect((await eventsOf(replica)).length).to.equal(2);
    });

    it('refuses to create chats in archived or failed workspaces, and bad bodies', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      for (const status of ['archived', 'error'] as const) {
        const replica = await insertReplica(org.organization_id, { status });
        for (const path of [`/v1/replica/${replica}/chats`, `/v1/workspaces/${replica}/chats`]) {
          const res = await api.post(path, { provider: 'agent_1' });
          expect(res.status).to.equal(409);
          expect(res.body.error).to.contain(status);
        }
      }
      const replica = await insertReplica(org.organization_id);
      const cases: Array<[unknown, RegExp]> = [
        [{}, /^body\.provider: is required$/],
        [{ provider: 'agent_9' }, /^body\.provider: must be one of agent_1/],
        [{ provider: 'agent_1', colour: 'red' }, /^body\.colour: unknown field$/],
        [{ provider: 'agent_1', id: 'abc' }, /^body\.id: must match format "uuid"$/],
        [{ provider: 'agent_1', title: '' }, /^body\.title/],
        [{ provider: 'agent_1', parent_chat_id: randomUUID() }, /^body\.parent_chat_id: unknown field$/],
      ];
      for (const [body, details] of cases) {
        const res = await api.post(`/v1/replica/${replica}/chats`, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.details).to.match(details);
      }
    });

    it('soft-deletes a chat, drops its queued messages and emits chat.deleted', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id);
      const chat = await insertChat(replica);
      const keep = await insertChat(replica);
      const running = await insertMessage(replica, chat, { status: 'running' });
      await insertMessage(replica, chat);

      expect((await api.delete(`/v1/replica/${replica}/chats/${chat}`)).body).to.deep.equal({ success: true });
      expect((await api.get(`/v1/replica/${replica}/chats`)).body.chats.map((c: any) => c.id)).to.deep.equal([keep]);
      expect(await db()('replica_messages').where({ chat_id: chat }).pluck('id')).to.deep.equal([running]);
      expect(await eventsOf(replica)).to.deep.equal([{ type: 'chat.deleted', payload: { chatId: chat } }]);
      expect((await api.delete(`/v1/replica/${replica}/chats/${chat}`)).status).to.equal(404);
      expect((await api.get(`/v1/replica/${replica}/chats/${chat}/queue`)).status).to.equal(404);
      const { deletedChats } = (await api.get(`/v1/workspaces/${replica}/chats`)).body;
      expect(deletedChats.map((c: { id: string }) => c.id)).to.deep.equal([chat]);
      expect(deletedChats[0]).to.include.keys(['provider', 'title', 'createdAt', 'updatedAt', 'processing', 'parentChatId']);
    });

    it('serves the workspace-scoped chat API in camelCase without waking the workspace', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id, { status: 'sleeping' });
      const chat = await insertChat(replica, { title: 'Existing' });
      await insertMessage(replica, chat, { content: 'older', createdAt: new Date(Date.now() - 60_000) });
      await insertMessage(replica, chat, { content: 'the latest words' });

      const created = await api.post(`/v1/workspaces/${replica}/chats`, { provider: 'agent_2', title: 'Side quest', parentChatId: chat, clientRequestId: 'c-9' });
      expect(created.status).to.equal(201);
      expect(created.body.chat).to.include({ provider: 'agent_2', title: 'Side quest', processing: false, parentChatId: chat });
      expect(created.body.chat).to.have.keys(['id', 'provider', 'title', 'createdAt', 'updatedAt', 'processing', 'parentChatId']);

      const listed = await api.get(`/v1/workspaces/${replica}/chats`);
      expect(listed.status).to.equal(200);
      expect(listed.body.deletedChats).to.deep.equal([]);
      expect(listed.body).not.to.have.property('waking');
      expect(listed.body.chats).to.have.length(2);
      expect(listed.body.chats[0]).to.include({ id: chat, title: 'Existing', lastMessageText: 'the latest words', parentChatId: null });
      expect(listed.body.chats[1]).to.deep.equal(created.body.chat);
      expect(app.woken).not.to.include(replica);
    });
  });

  describe('queue', () => {
    async function chatWithQueue(options: { senders?: boolean } = {}) {
      const org = await newOrg();
      const replica = await insertReplica(org.organization_id);
      const chat = await insertChat(replica, { processing: true });
      await insertMessage(replica, chat, { status: 'completed' });
      const running = await insertMessage(replica, chat, { status: 'running' });
      const queued: string[] = [];
      for (let i = 0; i < 4; i++) {
        queued.push(
          await insertMessage(replica, chat, {
            content: `q${i}`,
            ...(options.senders && i === 0 ? { senderUserId: org.admin.user_id, senderEmail: org.admin.email } : {}),
          }),
        );
      }
      return { org, api: client(app, org.org_api_key), replica, chat, running, queued };
    }

    it('shows the queued messages in order, without the running one', async () => {
      const { org, api, replica, chat, queued } = await chatWithQueue({ senders: true });
      const res = await api.get(`/v1/replica/${replica}/chats/${chat}/queue`);
      expect(res.status).to.equal(200);
      expect(res.body.chatId).to.equal(chat);
      expect(res.body.processing).to.equal(true);
      expect(res.body.queue.map((m: any) => m.id)).to.deep.equal(queued);
      expect(res.body.queue[0]).to.include({ message: 'q0', senderUserId: org.admin.user_id, senderEmail: org.admin.email });
      expect(res.body.queue[1]).to.have.keys(['id', 'message', 'queuedAt']);
      expect((await api.get(`/v1/workspaces/${replica}/chats/${chat}/queue`)).body).to.deep.equal(res.body);
    });

    it('reorders by zero-based position, past the end meaning last, and emits chat.updated', async () => {
      const { api, replica, chat, queued } = await chatWithQueue();
      const [a, b, c, d] = queued as [string, string, string, string];
      const path = `/v1/replica/${replica}/chats/${chat}/queue/reorder`;
      const first = await api.patch(path, { messageId: d, position: 0 });
      expect(first.status).to.equal(200);
      expect(first.body.success).to.equal(true);
      expect(first.body.queue.map((m: any) => m.id)).to.deep.equal([d, a, b, c]);
      expect((await api.patch(path, { messageId: d, position: 2 })).body.queue.map((m: any) => m.id)).to.deep.equal([a, b, d, c]);
      expect((await api.patch(path, { messageId: a, position: 99 })).body.queue.map((m: any) => m.id)).to.deep.equal([b, d, c, a]);
      expect((await api.get(`/v1/replica/${replica}/chats/${chat}/queue`)).body.queue.map((m: any) => m.id)).to.deep.equal([b, d, c, a]);

      const events = await eventsOf(replica);
      expect(events.map((e) => e.type)).to.deep.equal(['chat.updated', 'chat.updated', 'chat.updated']);
      expect(events[0]!.payload.chat).to.include({ id: chat, processing: true });
    });

    it('keeps the order right after many moves exhaust the room between two positions', async () => {
      const { api, replica, chat, queued } = await chatWithQueue();
      const model = [...queued];
      const path = `/v1/workspaces/${replica}/chats/${chat}/queue/reorder`;
      // Moving the last message between the first two halves the gap each time.
      for (let i = 0; i < 70; i++) {
        const moved = model.pop()!;
        model.splice(1, 0, moved);
        const res = await api.patch(path, { messageId: moved, position: 1 });
        expect(res.body.queue.map((m: any) => m.id), `move ${i}`).to.deep.equal(model);
      }
    });

    it('removes one message or clears the queue, leaving the running one', async () => {
      const { api, replica, chat, running, queued } = await chatWithQueue();
      const removed = await api.delete(`/v1/replica/${replica}/chats/${chat}/queue/${queued[1]}`);
      expect(removed.body.queue.map((m: any) => m.id)).to.deep.equal([queued[0], queued[2], queued[3]]);
      expect((await api.delete(`/v1/replica/${replica}/chats/${chat}/queue/${queued[1]}`)).status).to.equal(404);
      expect((await api.delete(`/v1/replica/${replica}/chats/${chat}/queue/${running}`)).status).to.equal(404);

      const cleared = await api.delete(`/v1/workspaces/${replica}/chats/${chat}/queue`);
      expect(cleared.body).to.deep.equal({ success: true, queue: [] });
      expect(await db()('replica_messages').where({ chat_id: chat }).pluck('status')).to.have.members(['completed', 'running']);
      expect((await eventsOf(replica)).map((e) => e.type)).to.deep.equal(['chat.updated', 'chat.updated']);
    });

    it('rejects bad reorder input and messages that are not queued', async () => {
      const { api, replica, chat, running, queued } = await chatWithQueue();
      const path = `/v1/replica/${replica}/chats/${chat}/queue/reorder`;
      const cases: Array<[unknown, number, RegExp]> = [
        [{ messageId: queued[0], position: -1 }, 400, /^body\.position: must be >= 0$/],
        [{ messageId: queued[0], position: 1.5 }, 400, /^body\.position: must be integer$/],
        [{ position: 0 }, 400, /^body\.messageId: is required$/],
        [{ messageId: queued[0], position: 0, after: 'x' }, 400, /^body\.after: unknown field$/],
        [{ messageId: running, position: 0 }, 404, /Queued message not found/],
        [{ messageId: randomUUID(), position: 0 }, 404, /Queued message not found/],
      ];
      for (const [body, status, message] of cases) {
        const res = await api.patch(path, body);
        expect(res.status, JSON.stringify(body)).to.equal(status);
        expect(status === 400 ? res.body.details : res.body.error).to.match(message);
      }
      expect((await api.patch(`/v1/replica/${replica}/chats/${randomUUID()}/queue/reorder`, { messageId: queued[0], position: 0 })).body.error).to.equal('Chat not found');
      expect(await eventsOf(replica)).to.deep.equal([]);
    });
  });

  describe('history', () => {
    async function insertAgentEvents(replicaId: string, chatId: string, count: number, messageId: string | null = null, from = 0) {
      const start = Date.now() - 3_600_000;
      await db()('replica_agent_events').insert(
        Array.from({ length: count }, (_, i) => ({
          replica_id: replicaId,
          chat_id: chatId,
          message_id: messageId,
          timestamp: new Date(start + (from + i) * 1000),
          type: 'agent_1-assistant',
          payload: JSON.stringify({ n: from + i }),
        })),
      );
    }

    it('pages backwards from the newest event', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id, { codingAgent: 'agent_2' });
      const chat = await insertChat(replica, { provider: 'agent_1' });
      await insertAgentEvents(replica, chat, 120);

      const newest = await api.get(`/v1/replica/${replica}/history`);
      expect(newest.status).to.equal(200);
      expect(newest.body).to.include({ thread_id: chat, total: 120, has_more: true, coding_agent: 'agent_1', waking: false });
      expect(newest.body.events.map((e: any) => e.payload.n)).to.deep.equal(Array.from({ length: 50 }, (_, i) => 70 + i));
      expect(newest.body.events[0]).to.have.keys(['timestamp', 'type', 'payload']);
      expect(newest.body.events[0].type).to.equal('agent_1-assistant');

      const middle = await api.get(`/v1/replica/${replica}/history?limit=30&offset=50`);
      expect(middle.body.events.map((e: any) => e.payload.n)).to.deep.equal(Array.from({ length: 30 }, (_, i) => 40 + i));
      expect(middle.body.has_more).to.equal(true);

      const oldest = await api.get(`/v1/replica/${replica}/history?limit=500&offset=100`);
      expect(oldest.body.events.map((e: any) => e.payload.n)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i));
      expect(oldest.body.has_more).to.equal(false);

      const beyond = await api.get(`/v1/replica/${replica}/history?offset=1000`);
      expect(beyond.body).to.include({ total: 120, has_more: false });
      expect(beyond.body.events).to.deep.equal([]);
    });

    it('defaults to the most recently updated chat, and names the senders of the page', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id, { status: 'sleeping' });
      const older = await insertChat(replica, { updatedAt: new Date(Date.now() - 60_000) });
      const newer = await insertChat(replica, { provider: 'agent_3' });
      const sent = await insertMessage(replica, newer, { status: 'completed', senderUserId: org.admin.user_id, senderEmail: org.admin.email, createdAt: new Date(Date.now() - 7_200_000) });
      await insertMessage(replica, newer, { status: 'completed', senderEmail: 'other@example.com', createdAt: new Date(Date.now() - 7_100_000) });
      await insertAgentEvents(replica, older, 3);
      await insertAgentEvents(replica, newer, 5, sent);

      const res = await api.get(`/v1/replica/${replica}/history`);
      expect(res.body).to.include({ thread_id: newer, total: 5, coding_agent: 'agent_3', waking: true });
      expect(app.woken).to.include(replica);
      expect(res.body.senders).to.have.length(1);
      expect(res.body.senders[0]).to.include({ senderUserId: org.admin.user_id, senderEmail: org.admin.email });
      expect(res.body.senders[0].recordedAt).to.be.a('string');

      const explicit = await api.get(`/v1/replica/${replica}/history?chat_id=${older}`);
      expect(explicit.body).to.include({ thread_id: older, total: 3 });
      expect(explicit.body.senders).to.deep.equal([]);
      expect((await api.get(`/v1/replica/${replica}/history?chat_id=${randomUUID()}`)).status).to.equal(404);

      const empty = await insertReplica(org.organization_id, { codingAgent: 'agent_4' });
      expect((await api.get(`/v1/replica/${empty}/history`)).body).to.deep.equal({
        thread_id: null,
        events: [],
        total: 0,
        has_more: false,
        coding_agent: 'agent_4',
        waking: false,
        senders: [],
      });
    });

    it('rejects limits and offsets out of bounds', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id);
      const cases: Array<[string, RegExp]> = [
        ['limit=0', /^query\.limit: must be >= 1$/],
        ['limit=501', /^query\.limit: must be <= 500$/],
        ['limit=ten', /^query\.limit: must be integer$/],
        ['offset=-1', /^query\.offset: must be >= 0$/],
        ['chat_id=123', /^query\.chat_id: must match format "uuid"$/],
        ['page=2', /^query\.page: unknown field$/],
      ];
      for (const [query, details] of cases) {
        const res = await api.get(`/v1/replica/${replica}/history?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body.details).to.match(details);
      }
      expect((await api.get(`/v1/replica/${replica}/history?limit=500&offset=0`)).status).to.equal(200);
    });
  });

  describe('hook logs', () => {
    it('answers warm and start logs in camelCase, flagging truncated output', async () => {
      const org = await newOrg();
      const api = client(app, org.org_api_key);
      const replica = await insertReplica(org.organization_id);
      const base = Date.now() - 600_000;
      const at = (s: number) => new Date(base + s * 1000);
      await db()('replica_hook_logs').insert([
        { id: randomUUID(), replica_id: replica, kind: 'start', hook_type: 'repository', hook_name: 'api', script: 'npm ci\n\nnpm test\n', output: 'ok', output_total_chars: 2, exit_code: 0, executed_at: at(3) },
        { id: randomUUID(), replica_id: replica, kind: 'warm', hook_type: 'global', hook_name: 'environment', script: 'apt-get update', output: 'x'.repeat(10), output_total_chars: 250_000, exit_code: null, timed_out: true, executed_at: at(1) },
        { id: randomUUID(), replica_id: replica, kind: 'start', hook_type: 'environment', hook_name: 'environment', script: 'make setup', output: 'done', output_total_chars: 4, exit_code: 2, executed_at: at(2) },
      ]);
      const res = await api.get(`/v1/replica/${replica}/hooks`);
      expect(res.status).to.equal(200);
      expect(res.body.warm_hooks.logs).to.deep.equal([
        {
          hookType: 'global',
          hookName: 'environment',
          hookScript: 'apt-get update',
          output: 'x'.repeat(10),
          outputTruncated: true,
          outputTotalChars: 250_000,
          exitCode: null,
          timedOut: true,
          executedAt: at(1).toISOString(),
        },
      ]);
      expect(res.body.start_hooks.logs).to.deep.equal([
        { hookType: 'environment', hookName: 'environment', repoName: 'environment', hookCommands: ['make setup'], output: 'done', outputTruncated: false, outputTotalChars: 4, exitCode: 2, timedOut: false, executedAt: at(2).toISOString() },
        { hookType: 'repository', hookName: 'api', repoName: 'api', hookCommands: ['npm ci', 'npm test'], output: 'ok', outputTruncated: false, outputTotalChars: 2, exitCode: 0, timedOut: false, executedAt: at(3).toISOString() },
      ]);
      const none = await insertReplica(org.organization_id);
      expect((await api.get(`/v1/replica/${none}/hooks`)).body).to.deep.equal({ warm_hooks: { logs: [] }, start_hooks: { logs: [] } });
    });
  });
});
