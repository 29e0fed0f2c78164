import type { Actor } from '../../domain/actor';
import { successSchema } from '../../schemas/common';
import {
  chatListSchema,
  chatParams,
  createChatBody,
  historyQuery,
  historySchema,
  hookLogsSchema,
  queueEditSchema,
  queueSchema,
  queuedMessageParams,
  reorderBody,
  replicaChatSchema,
  slashCommandsSchema,
  replicaParams,
  workspaceChatEnvelope,
  workspaceChatListSchema,
  workspaceChatParams,
  workspaceParams,
  workspaceQueuedMessageParams,
} from '../../schemas/replicaChats';
import { serializeReplicaChat, serializeWorkspaceChat, type ReplicasService } from '../../services/replicas';
import type { BodyOf } from '../../schemas/common';
import { defineRoute, type JsonSchema, type Route } from '../route';

const tag = 'Replicas';

/** Chats of a replica, their queues, the agent history and the hook logs. */
export function replicaChatRoutes(service: ReplicasService): Route[] {
  const routes: Route[] = [
    defineRoute({
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
    defineRoute({
      method: 'post',
      path: '/v1/replica/:id/chats',
      operationId: 'createReplicaChat',
      summary: 'Create a chat (emits `chat.created` with the clientRequestId)',
      tag,
      auth: 'apiKey',
      params: replicaParams,
      body: createChatBody,
      // The chat itself, unwrapped, as the original answers here (the workspace path wraps it).
      response: { status: 201, description: 'The chat', schema: replicaChatSchema },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body }) => serializeReplicaChat(await service.chats.create(actor, params.id, body)),
    }),
    defineRoute({
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
    defineRoute({
      method: 'get',
      path: '/v1/workspaces/:workspaceId/chats',
      operationId: 'listWorkspaceChats',
      summary: 'List the chats of a workspace in any state, without waking it',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      response: { status: 200, description: 'Chats, and the most recently deleted ones', schema: workspaceChatListSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        const { chats, deletedChats } = await service.chats.listForWorkspace(actor, params.workspaceId);
        return { chats: chats.map(serializeWorkspaceChat), deletedChats: deletedChats.map(serializeWorkspaceChat) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/workspaces/:workspaceId/chats',
      operationId: 'createWorkspaceChat',
      summary: 'Create a chat at once, also while the workspace prepares or sleeps',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      body: createChatBody,
      response: { status: 201, description: 'The chat', schema: workspaceChatEnvelope },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body }) => ({ chat: serializeWorkspaceChat(await service.chats.create(actor, params.workspaceId, body)) }),
    }),
  ];

  // The queue answers under both spellings of the workspace (interop §4.9, §4.10).
  for (const base of [
    { prefix: '/v1/replica/:id', key: 'id', name: 'Replica' },
    { prefix: '/v1/workspaces/:workspaceId', key: 'workspaceId', name: 'Workspace' },
  ] as const) {
    const chatOnly = base.key === 'id' ? chatParams : workspaceChatParams;
    const withMessage = base.key === 'id' ? queuedMessageParams : workspaceQueuedMessageParams;
    const replicaOf = (params: Record<string, string>) => params[base.key]!;
    // The three edits answer the queue as it is afterwards. `run` takes the body as its schema
    // admits it (derived where the edit is named: inside this generic helper it would be too
    // deep for the compiler).
    const edit = <BS extends JsonSchema | undefined = undefined>(route: {
      method: 'delete' | 'patch';
      suffix: string;
      operationId: string;
      summary: string;
      params: typeof chatOnly | typeof withMessage;
      body?: BS;
      run: (actor: Actor, replicaId: string, params: Record<string, string>, body: BodyOf<BS>) => Promise<unknown>;
    }) =>
      defineRoute({
        method: route.method,
        path: `${base.prefix}/chats/:chatId/queue${route.suffix}`,
        operationId: route.operationId,
        summary: route.summary,
        tag,
        auth: 'apiKey',
        params: route.params,
        ...(route.body ? { body: route.body as JsonSchema } : {}),
        response: { status: 200, description: 'The queue after the edit', schema: queueEditSchema },
        errors: [400, 401, 404],
        handler: async ({ actor, params, body }) => ({ success: true, queue: await route.run(actor, replicaOf(params), params, body as BodyOf<BS>) }),
      });
    routes.push(
      defineRoute({
        method: 'get',
        path: `${base.prefix}/chats/:chatId/queue`,
        operationId: `get${base.name}ChatQueue`,
        summary: 'The messages waiting in a chat (the running one excluded)',
        tag,
        auth: 'apiKey',
        params: chatOnly,
        response: { status: 200, description: 'The queue', schema: queueSchema },
        errors: [400, 401, 404],
        handler: ({ actor, params }) => service.queue.get(actor, replicaOf(params), params.chatId!),
      }),
      edit({
        method: 'delete',
        suffix: '',
        operationId: `clear${base.name}ChatQueue`,
        summary: 'Drop every queued message (the running one continues)',
        params: chatOnly,
        run: (actor, replicaId, params) => service.queue.clear(actor, replicaId, params.chatId!),
      }),
      edit({
        method: 'delete',
        suffix: '/:messageId',
        operationId: `remove${base.name}QueuedMessage`,
        summary: 'Drop one queued message',
        params: withMessage,
        run: (actor, replicaId, params) => service.queue.remove(actor, replicaId, params.chatId!, params.messageId!),
      }),
      edit({
        method: 'patch',
        suffix: '/reorder',
        operationId: `reorder${base.name}ChatQueue`,
        summary: 'Move a queued message to a zero-based position',
        params: chatOnly,
        body: reorderBody,
        run: (actor, replicaId, params, body) => service.queue.reorder(actor, replicaId, params.chatId!, body),
      }),
    );
  }

  routes.push(
    defineRoute({
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
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/chats/:chatId/slash-commands',
      operationId: 'listReplicaSlashCommands',
      summary: "The slash commands of a chat: those its agent's CLI reported at its session's start",
      tag,
      auth: 'apiKey',
      params: chatParams,
      response: { status: 200, description: 'The commands', schema: slashCommandsSchema },
      errors: [400, 401, 404],
      handler: ({ actor, params }) => service.history.slashCommands(actor, params.id, params.chatId),
    }),
    defineRoute({
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
