/**
 * The twelve replica tools of the original service's MCP server, each one call of Hangar's own
 * HTTP API through the typed client: the API authenticates the key and keeps the tenant
 * boundary, so a tool can do exactly what its caller's key can do over HTTP, and no more.
 *
 * Inputs are the API's fields under the API's names (snake_case, as the replica routes spell
 * them), with the replica (and chat) named by `replica_id` (and `chat_id`). The zod schemas
 * check shape and type so a model gets a precise message for a malformed call; the API's own
 * validation stays the authority on limits. An answer is the API's JSON, as text and as
 * structured content; an API error is a tool result with `isError` and the Error body's text
 * (answer.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AGENT_IDS, THINKING_LEVELS } from '../agents/catalog';
import { answer, type ToolContext } from './answer';

/** The tool names the original service's MCP server offers; clients configured for it find them here. */
export const TOOL_NAMES = [
  'create_replica',
  'list_replicas',
  'get_replica',
  'send_replica_message',
  'delete_replica',
  'list_repositories',
  'list_repository_sets',
  'list_chats',
  'create_chat',
  'delete_chat',
  'read_replica_history',
  'get_replica_hooks',
] as const;

const id = (what: string) => z.guid().describe(what);
const replicaId = id('The replica (workspace) id, as list_replicas or create_replica return it');
const chatId = id('The chat id, as list_chats or get_replica return it');

const agent = z.enum(AGENT_IDS);
const thinking = z.enum(THINKING_LEVELS);
const image = z.strictObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('base64'), media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string().describe('Base64 of the image') }),
    z.strictObject({ type: z.literal('url'), url: z.string().describe('An http(s) URL the server fetches') }),
  ]),
});
const message = z.string().min(1).max(100_000);
const agentTurn = {
  coding_agent: agent.optional().describe('The coding agent to run the message with'),
  model: z.string().min(1).max(200).optional().describe("A model id the agent accepts (else the organization's default)"),
  images: z.array(image).max(10).optional().describe('Up to ten images sent with the message'),
  thinking_level: thinking.optional(),
  plan_mode: z.boolean().optional(),
  goal_mode: z.boolean().optional(),
  fast_mode: z.boolean().optional(),
};

const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Reads that wake a sleeping or archived replica, as the API's GET does: not read-only in effect. */
const wakingRead: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const write: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const destructive: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** The version header under which POST /v1/replica answers at once, while the workspace prepares. */
const CREATE_API_VERSION = '2026-05-17';

export function registerReplicaTools(server: McpServer, context: ToolContext): void {
  const { api, call } = context.client;
  const run = (fn: () => Promise<unknown>) => answer(context, fn);

  server.registerTool(
    'create_replica',
    {
      title: 'Create a replica',
      description:
        'Create a replica: a workspace with its own container, where a coding agent works on the first message. ' +
        "Answers at once with status 'preparing'; poll get_replica until it is 'active' (or 'error'). " +
        "Without environment_id the organization's default environment is used (its repositories are checked out).",
      inputSchema: z.strictObject({
        name: z.string().min(1).max(200).regex(/^\S+$/).describe('A name without spaces'),
        message: message.describe("The agent's first task"),
        environment_id: id('The environment to create it from (list environments with the API)').optional(),
        ...agentTurn,
        lifecycle_policy: z.enum(['default', 'archive_when_done', 'sleep_when_done', 'delete_after_inactivity']).optional(),
        size: z.enum(['small', 'large']).optional(),
        config: z
          .object({
            capabilities: z.strictObject({ pr_followups: z.boolean().optional(), read_only_contents: z.boolean().optional() }).optional(),
            preferences: z.strictObject({ keep_open_on_pr_merge: z.boolean().optional(), keep_open_on_pr_close: z.boolean().optional() }).optional(),
          })
          .loose()
          .optional()
          .describe('Workspace configuration (unknown properties are kept, as the API does)'),
        webhook_url: z
          .union([z.string(), z.strictObject({ url: z.string(), secret: z.string().min(1).max(512).optional() })])
          .optional()
          .describe("An http(s) URL told about the replica's events, or {url, secret} to sign them"),
      }),
      annotations: write,
    },
    (args, extra) =>
      run(() => call(api.POST('/v1/replica', { body: args, headers: { 'x-api-version': CREATE_API_VERSION }, signal: extra.signal }))),
  );

  server.registerTool(
    'list_replicas',
    {
      title: 'List replicas',
      description: "List the organization's replicas, newest first, a page at a time (archived ones by last activity).",
      inputSchema: z.strictObject({
        page: z.number().int().min(1).optional().describe('From 1'),
        limit: z.number().int().min(1).max(100).optional().describe('Per page, 10 by default'),
        user_id: id('Only those of this user').optional(),
        source: z.enum(['api', 'dashboard', 'automation', 'github', 'gitlab', 'slack', 'linear']).optional(),
        status: z.enum(['preparing', 'active', 'sleeping', 'archived', 'error']).optional(),
      }),
      annotations: readOnly,
    },
    (args, extra) => run(() => call(api.GET('/v1/replica', { params: { query: args }, signal: extra.signal }))),
  );

  server.registerTool(
    'get_replica',
    {
      title: 'Get a replica',
      description: "A replica's details: status, agent and models, repositories, chats. Reading a sleeping or archived replica wakes it (waking: true).",
      inputSchema: z.strictObject({
        replica_id: replicaId,
        include: z.array(z.enum(['environment', 'diffs'])).optional().describe("Extra blocks: 'environment' (what the workspace was given), 'diffs'"),
      }),
      annotations: wakingRead,
    },
    ({ replica_id, include }, extra) =>
      run(() =>
        call(
          api.GET('/v1/replica/{id}', {
            params: { path: { id: replica_id }, query: include?.length ? { include: [...new Set(include)].join(',') } : {} },
            signal: extra.signal,
          }),
        ),
      ),
  );

  server.registerTool(
    'send_replica_message',
    {
      title: 'Send a message to a replica',
      description:
        "Send a message to a replica's agent, in a chat (chat_id) or its most recent one. It runs at once, waits in the chat's queue " +
        "while the agent is busy ('queued', with its position), or wakes a sleeping replica first ('waking'). Follow the answer with read_replica_history.",
      inputSchema: z.strictObject({
        replica_id: replicaId,
        message: message.describe('What to tell the agent'),
        chat_id: chatId.optional(),
        ...agentTurn,
      }),
      annotations: write,
    },
    ({ replica_id, ...body }, extra) => run(() => call(api.POST('/v1/replica/{id}/messages', { params: { path: { id: replica_id } }, body, signal: extra.signal }))),
  );

  server.registerTool(
    'delete_replica',
    {
      title: 'Delete a replica',
      description: 'Delete a replica: it is gone from every read at once, and its container and volume are removed. This cannot be undone.',
      inputSchema: z.strictObject({ replica_id: replicaId }),
      annotations: destructive,
    },
    ({ replica_id }, extra) => run(() => call(api.DELETE('/v1/replica/{id}', { params: { path: { id: replica_id } }, signal: extra.signal }))),
  );

  server.registerTool(
    'list_repositories',
    {
      title: 'List repositories',
      description: "The git repositories connected to the organization (environments check them out into replicas).",
      inputSchema: z.strictObject({}),
      annotations: readOnly,
    },
    (_args, extra) => run(() => call(api.GET('/v1/replica/repositories', { signal: extra.signal }))),
  );

  server.registerTool(
    'list_repository_sets',
    {
      title: 'List repository sets',
      description: "The organization's repository sets: named groups of connected repositories, each with its repositories.",
      inputSchema: z.strictObject({}),
      annotations: readOnly,
    },
    (_args, extra) => run(() => call(api.GET('/v1/replica/repository-sets', { signal: extra.signal }))),
  );

  server.registerTool(
    'list_chats',
    {
      title: "List a replica's chats",
      description: "The chats of a replica, each with its agent (provider), title and whether it is processing. Wakes a sleeping or archived replica (waking: true).",
      inputSchema: z.strictObject({ replica_id: replicaId }),
      annotations: wakingRead,
    },
    ({ replica_id }, extra) => run(() => call(api.GET('/v1/replica/{id}/chats', { params: { path: { id: replica_id } }, signal: extra.signal }))),
  );

  server.registerTool(
    'create_chat',
    {
      title: 'Create a chat',
      description: 'Start a new chat (conversation) in a replica with the given coding agent; send_replica_message with its chat_id talks in it.',
      inputSchema: z.strictObject({
        replica_id: replicaId,
        provider: agent.describe("The chat's coding agent"),
        title: z.string().min(1).max(200).optional(),
        chat_id: id('An id of your choosing for the chat (else the server picks one)').optional(),
        parent_chat_id: id('The chat this one continues from').nullable().optional(),
        client_request_id: z.string().min(1).max(200).optional().describe('Echoed in the chat.created event, to recognise your own chat'),
      }),
      annotations: write,
    },
    ({ replica_id, provider, title, chat_id, parent_chat_id, client_request_id }, extra) =>
      run(() =>
        call(
          api.POST('/v1/replica/{id}/chats', {
            params: { path: { id: replica_id } },
            body: { provider, title, id: chat_id, parentChatId: parent_chat_id, clientRequestId: client_request_id },
            signal: extra.signal,
          }),
        ),
      ),
  );

  server.registerTool(
    'delete_chat',
    {
      title: 'Delete a chat',
      description: 'Delete a chat of a replica; the messages waiting in its queue are dropped.',
      inputSchema: z.strictObject({ replica_id: replicaId, chat_id: chatId }),
      annotations: destructive,
    },
    ({ replica_id, chat_id }, extra) =>
      run(() => call(api.DELETE('/v1/replica/{id}/chats/{chatId}', { params: { path: { id: replica_id, chatId: chat_id } }, signal: extra.signal }))),
  );

  server.registerTool(
    'read_replica_history',
    {
      title: "Read a replica's history",
      description:
        "The agent's events in a chat (its most recent one without chat_id), paged backwards from the newest: " +
        'offset counts events skipped from the newest, has_more says whether older ones remain. Wakes a sleeping replica.',
      inputSchema: z.strictObject({
        replica_id: replicaId,
        chat_id: chatId.optional(),
        limit: z.number().int().min(1).max(500).optional().describe('Events per page, 50 by default'),
        offset: z.number().int().min(0).optional().describe('Events to skip, counted from the newest'),
      }),
      annotations: wakingRead,
    },
    ({ replica_id, ...query }, extra) =>
      run(() => call(api.GET('/v1/replica/{id}/history', { params: { path: { id: replica_id }, query }, signal: extra.signal }))),
  );

  server.registerTool(
    'get_replica_hooks',
    {
      title: "Read a replica's hook logs",
      description: "The output of the warm and start hooks that prepared the replica's workspace, with exit codes: where to look when it came up wrong.",
      inputSchema: z.strictObject({ replica_id: replicaId }),
      annotations: readOnly,
    },
    ({ replica_id }, extra) => run(() => call(api.GET('/v1/replica/{id}/hooks', { params: { path: { id: replica_id } }, signal: extra.signal }))),
  );
}
