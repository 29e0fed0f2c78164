import { once } from 'node:events';
import type { Context } from 'koa';
import { invalid } from '../../domain/errors';
import type { ReplicaEvent } from '../../events/replicaEvents';
import type { Logger } from '../../logger';
import { object, successSchema, uuid } from '../../schemas/common';
import {
  EVENT_ID_PATTERN,
  chatListSchema,
  chatParams,
  createChatBody,
  eventsQuery,
  historyQuery,
  historySchema,
  hookLogsSchema,
  queueEditSchema,
  queueSchema,
  queuedMessageParams,
  reorderBody,
  replicaChatSchema,
  replicaParams,
  workspaceChatListSchema,
  workspaceChatSchema,
  workspaceParams,
} from '../../schemas/replicaActivity';
import type { HistoryQuery } from '../../services/replicaActivity/history';
import {
  serializeReplicaChat,
  serializeWorkspaceChat,
  type CreateChatInput,
  type ReplicaActivityService,
} from '../../services/replicaActivity';
import { defineRoute, type Route } from '../route';

export interface ReplicaActivityRouteDeps {
  logger: Logger;
  /** Comment heartbeat on the events stream (interop §4.13: every 15 s). */
  heartbeatMs?: number;
}

const tag = 'Replicas';
const RETRY_MS = 3000;

type Id = { id: string };
type ChatIds = { id: string; chatId: string };
type Nothing = Record<string, never>;

/**
 * The events stream's wire format: `id:` (the event id, for Last-Event-ID) and one `data:`
 * line with the envelope; no `event:` line. It writes the response itself (`respond = false`):
 * a client hanging up is the normal end of a stream, not an error to report. Writes wait for
 * the socket to drain, so a slow client holds its own reader back instead of growing a buffer.
 */
function openEventStream(ctx: Context) {
  const res = ctx.res;
  let closed = false;
  let markClosed: () => void = () => {};
  const closedSignal = new Promise<void>((resolve) => (markClosed = resolve));
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.respond = false;
  res.writeHead(200);
  res.write(`retry: ${RETRY_MS}\n\n`);
  const close = () => {
    if (closed) return;
    closed = true;
    markClosed();
    res.end();
  };
  res.once('close', close);
  if (res.destroyed || ctx.req.socket.destroyed) close();
  return {
    async send(events: ReplicaEvent[]) {
      if (closed) throw new Error('stream closed');
      const text = events.map((e) => `id: ${e.id}\ndata: ${JSON.stringify({ id: e.id, ts: e.ts, type: e.type, payload: e.payload })}\n\n`).join('');
      if (!res.write(text)) await Promise.race([once(res, 'drain'), closedSignal]);
    },
    comment(text: string) {
      if (!closed) res.write(`: ${text}\n\n`);
    },
    close,
    get closed() {
      return closed;
    },
  };
}

/** Last-Event-ID (a reconnecting EventSource) wins over `?after=` (the URL it was opened with). */
function resumeFrom(ctx: Context, after: string | undefined): string | null {
  const header = ctx.get('last-event-id').trim();
  if (header) {
    if (!EVENT_ID_PATTERN.test(header)) throw invalid('Invalid header', 'headers.last-event-id: must be an event id (digits)');
    return header;
  }
  return after ?? null;
}

export function replicaActivityRoutes(service: ReplicaActivityService, deps: ReplicaActivityRouteDeps): Route[] {
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const logger = deps.logger.child({ component: 'replica-activity' });

  const routes: Route[] = [
    defineRoute<Id, { after?: string }>({
      method: 'get',
      path: '/v1/replica/:id/events',
      operationId: 'streamReplicaEvents',
      summary: "Follow the replica's events (server-sent events; replays after Last-Event-ID or ?after=)",
      tag,
      auth: 'apiKey',
      params: replicaParams,
      query: eventsQuery,
      raw: true,
      response: {
        status: 200,
        description: 'Messages `id: <event id>` + `data: {id, ts, type, payload}`; a comment heartbeat every 15 s',
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 404],
      handler: async ({ actor, params, query, ctx }) => {
        const after = resumeFrom(ctx, query.after);
        let sse: ReturnType<typeof openEventStream> | null = null;
        const early: ReplicaEvent[][] = [];
        const handle = await service.followEvents(actor, params.id, {
          after,
          // The first batch can be read before the response is set up; hold it until then.
          deliver: async (events) => (sse ? sse.send(events) : void early.push(events)),
          onError: (err) => logger.warn('replica events read failed', { replicaId: params.id, requestId: ctx.state.requestId, err: err as Error }),
        });
        const stream = openEventStream(ctx);
        const heartbeat = setInterval(() => {
          stream.comment('heartbeat');
          handle.poke();
          service.exists(params.id).then(
            (exists) => (exists ? undefined : stream.close()),
            () => undefined,
          );
        }, heartbeatMs);
        const stop = () => {
          clearInterval(heartbeat);
          stream.close();
          handle.stop().catch(() => undefined);
        };
        ctx.res.once('close', stop);
        // A client that hung up while the stream was being set up has no 'close' left to fire.
        if (stream.closed) stop();
        try {
          while (early.length > 0) await stream.send(early.shift()!);
          sse = stream;
        } catch {
          stop();
        }
      },
    }),
    defineRoute<Id>({
      method: 'get',
      path: '/v1/replica/:id/chats',
      operationId: 'listReplicaChats',
      summary: 'List the chats of a replica (wakes a sleeping or archived one: `waking: true`)',
      tag,
      auth: 'apiKey',
      params: replicaParams,
      response: { status: 200, description: 'The chats', schema: chatListSchema },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params }) => {
        const { chats, waking } = await service.chats.list(actor, params.id);
        return { chats: chats.map(serializeReplicaChat), waking };
      },
    }),
    defineRoute<Id, Nothing, CreateChatInput>({
      method: 'post',
      path: '/v1/replica/:id/chats',
      operationId: 'createReplicaChat',
      summary: 'Create a chat (emits `chat.created` with the clientRequestId)',
      tag,
      auth: 'apiKey',
      params: replicaParams,
      body: createChatBody,
      response: { status: 201, description: 'The chat', schema: object({ chat: replicaChatSchema }, ['chat']) },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body }) => ({ chat: serializeReplicaChat(await service.chats.create(actor, params.id, body)) }),
    }),
    defineRoute<ChatIds>({
      method: 'delete',
      path: '/v1/replica/:id/chats/:chatId',
      operationId: 'deleteReplicaChat',
      summary: 'Delete a chat (its queued messages are dropped; emits `chat.deleted`)',
      tag,
      auth: 'apiKey',
      params: chatParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        await service.chats.remove(actor, params.id, params.chatId);
        return { success: true };
      },
    }),
    defineRoute<{ workspaceId: string }>({
      method: 'get',
      path: '/v1/workspaces/:workspaceId/chats',
      operationId: 'listWorkspaceChats',
      summary: 'List the chats of a workspace in any state, without waking it',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      response: { status: 200, description: 'Chats and the ids of deleted ones', schema: workspaceChatListSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        const { chats, deletedChats } = await service.chats.listForWorkspace(actor, params.workspaceId);
        return { chats: chats.map(serializeWorkspaceChat), deletedChats };
      },
    }),
    defineRoute<{ workspaceId: string }, Nothing, CreateChatInput>({
      method: 'post',
      path: '/v1/workspaces/:workspaceId/chats',
      operationId: 'createWorkspaceChat',
      summary: 'Create a chat at once, also while the workspace prepares or sleeps',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      body: createChatBody,
      response: { status: 201, description: 'The chat', schema: object({ chat: workspaceChatSchema }, ['chat']) },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body }) => ({ chat: serializeWorkspaceChat(await service.chats.create(actor, params.workspaceId, body)) }),
    }),
  ];

  // The queue answers under both spellings of the workspace (interop §4.9, §4.10).
  for (const base of [
    { prefix: '/v1/replica/:id', key: 'id', name: 'Replica' },
    { prefix: '/v1/workspaces/:workspaceId', key: 'workspaceId', name: 'Workspace' },
  ] as const) {
    const chatOnly = object({ [base.key]: uuid, chatId: uuid }, [base.key, 'chatId']);
    const withMessage = object({ [base.key]: uuid, chatId: uuid, messageId: uuid }, [base.key, 'chatId', 'messageId']);
    const replicaOf = (params: Record<string, string>) => params[base.key]!;
    routes.push(
      defineRoute<Record<string, string>>({
        method: 'get',
        path: `${base.prefix}/chats/:chatId/queue`,
        operationId: `get${base.name}ChatQueue`,
        summary: 'The messages waiting in a chat (the running one excluded)',
        tag,
        auth: 'apiKey',
        params: base.key === 'id' ? chatParams : chatOnly,
        response: { status: 200, description: 'The queue', schema: queueSchema },
        errors: [400, 401, 404],
        handler: ({ actor, params }) => service.queue.get(actor, replicaOf(params), params.chatId!),
      }),
      defineRoute<Record<string, string>>({
        method: 'delete',
        path: `${base.prefix}/chats/:chatId/queue`,
        operationId: `clear${base.name}ChatQueue`,
        summary: 'Drop every queued message (the running one continues)',
        tag,
        auth: 'apiKey',
        params: base.key === 'id' ? chatParams : chatOnly,
        response: { status: 200, description: 'The queue after the edit', schema: queueEditSchema },
        errors: [400, 401, 404],
        handler: async ({ actor, params }) => ({ success: true, queue: await service.queue.clear(actor, replicaOf(params), params.chatId!) }),
      }),
      defineRoute<Record<string, string>>({
        method: 'delete',
        path: `${base.prefix}/chats/:chatId/queue/:messageId`,
        operationId: `remove${base.name}QueuedMessage`,
        summary: 'Drop one queued message',
        tag,
        auth: 'apiKey',
        params: base.key === 'id' ? queuedMessageParams : withMessage,
        response: { status: 200, description: 'The queue after the edit', schema: queueEditSchema },
        errors: [400, 401, 404],
        handler: async ({ actor, params }) => ({
          success: true,
          queue: await service.queue.remove(actor, replicaOf(params), params.chatId!, params.messageId!),
        }),
      }),
      defineRoute<Record<string, string>, Nothing, { messageId: string; position: number }>({
        method: 'patch',
        path: `${base.prefix}/chats/:chatId/queue/reorder`,
        operationId: `reorder${base.name}ChatQueue`,
        summary: 'Move a queued message to a zero-based position',
        tag,
        auth: 'apiKey',
        params: base.key === 'id' ? chatParams : chatOnly,
        body: reorderBody,
        response: { status: 200, description: 'The queue after the edit', schema: queueEditSchema },
        errors: [400, 401, 404],
        handler: async ({ actor, params, body }) => ({ success: true, queue: await service.queue.reorder(actor, replicaOf(params), params.chatId!, body) }),
      }),
    );
  }

  routes.push(
    defineRoute<Id, HistoryQuery>({
      method: 'get',
      path: '/v1/replica/:id/history',
      operationId: 'getReplicaHistory',
      summary: "A chat's agent events, paged backwards from the newest (wakes a sleeping replica)",
      tag,
      auth: 'apiKey',
      params: replicaParams,
      query: historyQuery,
      response: { status: 200, description: 'A page of history', schema: historySchema },
      errors: [400, 401, 404],
      handler: ({ actor, params, query }) => service.history.history(actor, params.id, query),
    }),
    defineRoute<Id>({
      method: 'get',
      path: '/v1/replica/:id/hooks',
      operationId: 'getReplicaHookLogs',
      summary: 'Warm and start hook logs of the workspace',
      tag,
      auth: 'apiKey',
      params: replicaParams,
      response: { status: 200, description: 'Hook logs', schema: hookLogsSchema },
      errors: [400, 401, 404],
      handler: ({ actor, params }) => service.history.hookLogs(actor, params.id),
    }),
  );
  return routes;
}
