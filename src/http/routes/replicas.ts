import { invalid } from '../../domain/errors';
import { successSchema } from '../../schemas/common';
import {
  createReplicaAnswer,
  createReplicaBody,
  deferredMessageAnswer,
  deferredMessageBody,
  deferredMessageParams,
  getReplicaQuery,
  listReplicasQuery,
  replicaDetailsAnswer,
  replicaIdParams as idParams,
  replicaPage,
  sendMessageAnswer,
  sendMessageBody,
  wakeAnswer,
  workspaceChatParams,
  workspaceIdParams as workspaceParams,
  workspaceMessageAnswer,
  workspaceMessageBody,
} from '../../schemas/replicas';
import {
  serializeReplicaListItem,
  type ReplicaRow,
  type ReplicasService,
} from '../../services/replicas';
import { defineRoute, type Route } from '../route';

const tag = 'Replica';
export const API_VERSION = '2026-05-17';

function serializeDetails(row: ReplicaRow, waking: boolean, chats: Array<Record<string, any>>, environment: unknown | undefined) {
  return {
    ...serializeReplicaListItem(row),
    coding_agent: row.coding_agent,
    environment_id: row.environment_id,
    models: row.agent_models,
    thinking_level: row.thinking_level,
    plan_mode: row.plan_mode,
    goal_mode: row.goal_mode,
    fast_mode: row.fast_mode,
    size: row.size,
    lifecycle_policy: row.lifecycle_policy,
    config: row.config,
    repository_statuses: row.repositories.map((r) => ({
      repository: r.name,
      branch: r.default_branch,
      default_branch: r.default_branch,
      pr_urls: [],
      start_hooks_completed: row.status === 'active' || row.status === 'sleeping',
      git_diff: null,
    })),
    waking,
    chats: chats.map((c) => ({
      id: c.id,
      provider: c.provider,
      title: c.title,
      created_at: new Date(c.created_at).toISOString(),
      updated_at: new Date(c.updated_at).toISOString(),
      processing: c.processing,
    })),
    ...(environment === undefined ? {} : { environment }),
  };
}

export function replicaRoutes(replicas: ReplicasService, deps: { legacyCreateTimeoutMs: number }): Route[] {
  const lifecycleRoute = (path: string, params: typeof idParams | typeof workspaceParams, action: 'sleep' | 'archive', opId: string) =>
    defineRoute({
      method: 'post',
      path,
      operationId: opId,
      summary: action === 'sleep' ? 'Put an active workspace to sleep (container stopped, volume kept)' : 'Archive a workspace (container and volume removed; wakeable)',
      tag,
      auth: 'apiKey',
      params,
      response: { status: 200, description: 'Requested', schema: successSchema },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params }) => {
        await replicas[action](actor, 'id' in params ? params.id : params.workspaceId);
        return { success: true };
      },
    });

  return [
    defineRoute({
      method: 'post',
      path: '/v1/replica',
      operationId: 'createReplica',
      summary: 'Create a workspace; with X-Api-Version 2026-05-17 it answers at once (preparing)',
      tag,
      auth: 'apiKeyOrEngine',
      body: createReplicaBody,
      // Up to ten images inline (base64).
      bodyLimit: 'messages',
      response: { status: 201, description: 'The workspace', schema: createReplicaAnswer },
      errors: [400, 401, 403, 404, 409, 503],
      handler: async ({ actor, body, ctx }) => {
        const version = ctx.get('x-api-version');
        if (version && version !== API_VERSION) throw invalid('Unsupported X-Api-Version', `the only version is ${API_VERSION}`);
        let row = await replicas.create(actor, body);
        if (!version) row = await replicas.untilSettled(row.id, deps.legacyCreateTimeoutMs);
        return { replica: serializeReplicaListItem(row) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica',
      operationId: 'listReplicas',
      summary: 'List workspaces (newest first; archived by last activity)',
      tag,
      auth: 'apiKey',
      query: listReplicasQuery,
      response: { status: 200, description: 'A page of workspaces', schema: replicaPage },
      errors: [400, 401],
      handler: ({ actor, query }) => replicas.list(actor, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id',
      operationId: 'getReplica',
      summary: 'Get a workspace (reading a sleeping or archived one wakes it)',
      tag,
      auth: 'apiKey',
      params: idParams,
      query: getReplicaQuery,
      response: { status: 200, description: 'The workspace', schema: replicaDetailsAnswer },
      errors: [400, 401, 404],
      handler: async ({ actor, params, query }) => {
        const { row, waking, chats } = await replicas.get(actor, params.id);
        const include = new Set((query.include ?? '').split(','));
        const environment = include.has('environment') ? await replicas.environmentBlock(row) : undefined;
        return { replica: serializeDetails(row, waking, chats, environment) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/replica/:id',
      operationId: 'deleteReplica',
      summary: 'Delete a workspace: gone from every read at once, its container and volume removed',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        await replicas.remove(actor, params.id);
        return { success: true };
      },
    }),
    lifecycleRoute('/v1/replica/:id/sleep', idParams, 'sleep', 'sleepReplica'),
    lifecycleRoute('/v1/replica/:id/archive', idParams, 'archive', 'archiveReplica'),
    lifecycleRoute('/v1/workspaces/:workspaceId/sleep', workspaceParams, 'sleep', 'sleepWorkspace'),
    lifecycleRoute('/v1/workspaces/:workspaceId/archive', workspaceParams, 'archive', 'archiveWorkspace'),
    defineRoute({
      method: 'post',
      path: '/v1/replica/:id/wake',
      operationId: 'wakeReplica',
      summary: 'Wake a sleeping or archived workspace',
      tag,
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'Whether it is waking', schema: wakeAnswer },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params }) => ({ success: true, waking: (await replicas.wake(actor, params.id)).waking }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/replica/:id/messages',
      operationId: 'sendReplicaMessage',
      summary: 'Send a message to a chat (queued while the agent is busy; wakes a sleeping workspace)',
      tag,
      auth: 'apiKey',
      params: idParams,
      body: sendMessageBody,
      bodyLimit: 'messages',
      response: { status: 200, description: 'Accepted', schema: sendMessageAnswer },
      errors: [400, 401, 404, 409],
      handler: ({ actor, params, body }) => replicas.sendMessage(actor, params.id, body),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/workspaces/:workspaceId/chats/:chatId/messages',
      operationId: 'sendWorkspaceChatMessage',
      summary: 'Send a message to a chat of a workspace in any state but archived or error (queued while it prepares or sleeps)',
      tag,
      auth: 'apiKey',
      params: workspaceChatParams,
      body: workspaceMessageBody,
      bodyLimit: 'messages',
      response: {
        status: 200,
        description: 'Accepted by the active workspace',
        schema: workspaceMessageAnswer,
        alternate: { status: 202, description: 'Queued while the workspace prepares or wakes; delivered in order' },
      },
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body, useAlternate }) => {
        const { accepted, ...answer } = await replicas.sendToChat(actor, params.workspaceId, params.chatId, body);
        if (!accepted) useAlternate();
        return answer;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/workspaces/:workspaceId/messages/deferred',
      operationId: 'sendDeferredWorkspaceMessage',
      summary: 'Queue a message in a new or given chat and wake the workspace',
      tag,
      auth: 'apiKey',
      params: deferredMessageParams,
      body: deferredMessageBody,
      bodyLimit: 'messages',
      response: { status: 202, description: 'Queued; the workspace is waking', schema: deferredMessageAnswer },
      errors: [400, 401, 404, 409],
      handler: ({ actor, params, body }) => replicas.sendDeferred(actor, params.workspaceId, body),
    }),
  ];
}
