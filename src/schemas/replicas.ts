import { AGENT_IDS, THINKING_LEVELS } from '../agents/catalog';
import { type BodyOf, dateTime, type JsonSchema, object, pageParam, type QueryOf, uuid } from './common';

const agent = { enum: [...AGENT_IDS] } as const;
const thinking = { enum: [...THINKING_LEVELS] } as const;
const image = {
  type: 'object',
  required: ['type', 'source'],
  properties: {
    type: { const: 'image' },
    source: {
      oneOf: [
        object({ type: { const: 'base64' }, media_type: { enum: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] }, data: { type: 'string', maxLength: 10_000_000 } }, ['type', 'media_type', 'data']),
        object({ type: { const: 'url' }, url: { type: 'string', format: 'uri', pattern: '^https?://' } }, ['type', 'url']),
      ],
    },
  },
  additionalProperties: false,
} as const;
const message = { type: 'string', minLength: 1, maxLength: 100_000 } as const;

export const createReplicaBody = object(
  {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '^\\S+$' },
    message,
    environment_id: uuid,
    coding_agent: agent,
    model: { type: 'string', minLength: 1, maxLength: 200 },
    images: { type: 'array', maxItems: 10, items: image },
    lifecycle_policy: { enum: ['default', 'archive_when_done', 'sleep_when_done', 'delete_after_inactivity'] },
    thinking_level: thinking,
    plan_mode: { type: 'boolean' },
    goal_mode: { type: 'boolean' },
    fast_mode: { type: 'boolean' },
    size: { enum: ['small', 'large'] },
    // WorkspaceConfig: unknown properties are allowed (interop §4.6).
    config: {
      type: 'object',
      properties: {
        capabilities: object({ pr_followups: { type: 'boolean' }, read_only_contents: { type: 'boolean' } }),
        preferences: object({ keep_open_on_pr_merge: { type: 'boolean' }, keep_open_on_pr_close: { type: 'boolean' } }),
      },
    },
    webhook_url: {
      oneOf: [
        { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 },
        object({ url: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 }, secret: { type: 'string', minLength: 1, maxLength: 512 } }, ['url']),
      ],
    },
  },
  ['name', 'message'],
);

export const sendMessageBody = object(
  {
    message,
    coding_agent: agent,
    chat_id: uuid,
    model: { type: 'string', minLength: 1, maxLength: 200 },
    images: { type: 'array', maxItems: 10, items: image },
    plan_mode: { type: 'boolean' },
    goal_mode: { type: 'boolean' },
    fast_mode: { type: 'boolean' },
    thinking_level: thinking,
    senderUserId: uuid,
    senderEmail: { type: 'string', format: 'email' },
  },
  ['message'],
);

/** The workspace API's message (camelCase, interop §4.10); `submittedAt` is accepted and not used. */
const workspaceMessageFields = {
  message,
  messageId: uuid,
  submittedAt: { type: 'string', format: 'date-time' },
  model: { type: 'string', minLength: 1, maxLength: 200 },
  images: { type: 'array', maxItems: 10, items: image },
  planMode: { type: 'boolean' },
  goalMode: { type: 'boolean' },
  fastMode: { type: 'boolean' },
  thinkingLevel: thinking,
} as const;
export const workspaceMessageBody = object(workspaceMessageFields, ['message']);
export const deferredMessageBody = object({ ...workspaceMessageFields, provider: agent, chatId: uuid, generateName: { type: 'boolean' } }, ['message', 'provider']);
export const workspaceMessageAnswer = object({ messageId: uuid, queued: { type: 'boolean' }, position: { type: 'integer' } }, ['messageId', 'queued', 'position']);
export const deferredMessageAnswer = object({ status: { const: 'waking' }, chatId: uuid, messageId: uuid }, ['status', 'chatId', 'messageId']);

export const replicaListItemSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'status', 'source', 'created_at', 'last_activity_at', 'repositories', 'pull_requests'],
  properties: {
    id: uuid,
    name: { type: 'string' },
    status: { enum: ['preparing', 'active', 'sleeping', 'archived', 'error'] },
    source: { type: 'string' },
    created_at: dateTime,
    last_activity_at: { type: ['string', 'null'], format: 'date-time' },
    repositories: { type: 'array', items: object({ id: uuid, name: { type: 'string' }, url: { type: 'string' } }) },
    pull_requests: { type: 'array', items: object({ repository: { type: 'string' }, number: { type: 'integer' }, url: { type: 'string' } }) },
  },
};

export const replicaIdParams = object({ id: uuid }, ['id']);
export const workspaceIdParams = object({ workspaceId: uuid }, ['workspaceId']);
export const workspaceChatParams = object({ workspaceId: uuid, chatId: uuid }, ['workspaceId', 'chatId']);
/** The deferred message's path: the same shape as `workspaceIdParams`, declared on its own. */
export const deferredMessageParams = object({ workspaceId: uuid }, ['workspaceId']);

export const createReplicaAnswer = object({ replica: replicaListItemSchema }, ['replica']);

export const replicaPage: JsonSchema = {
  type: 'object',
  required: ['replicas', 'total', 'page', 'limit', 'total_pages'],
  properties: { replicas: { type: 'array', items: replicaListItemSchema }, total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, total_pages: { type: 'integer' } },
};

export const getReplicaQuery = object({ include: { type: 'string', pattern: '^(environment|diffs)(,(environment|diffs))*$' } });
export const replicaDetailsAnswer = object({ replica: { type: 'object' } }, ['replica']);

export const wakeAnswer = object({ success: { const: true }, waking: { type: 'boolean' } });

export const sendMessageAnswer = object({ status: { enum: ['sent', 'queued', 'waking'] }, message_id: uuid, position: { type: ['integer', 'null'] }, chat_id: uuid });

export const listReplicasQuery = object({
  page: pageParam,
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  user_id: uuid,
  source: { enum: ['api', 'dashboard', 'automation', 'github', 'gitlab', 'slack', 'linear'] },
  status: { enum: ['preparing', 'active', 'sleeping', 'archived', 'error'] },
});

/** `POST /v1/replica`. */
export type CreateReplicaInput = BodyOf<typeof createReplicaBody>;
/** `POST /v1/replica/{id}/messages`. */
export type SendMessageInput = BodyOf<typeof sendMessageBody>;
/** `POST /v1/workspaces/{workspaceId}/chats/{chatId}/messages` (`submittedAt` is accepted and not used). */
export type WorkspaceMessageInput = BodyOf<typeof workspaceMessageBody>;
/** `POST /v1/workspaces/{workspaceId}/messages/deferred`. */
export type DeferredMessageInput = BodyOf<typeof deferredMessageBody>;
/** A message's images, as the bodies take them (inline base64 or a URL). */
export type MessageImage = NonNullable<SendMessageInput['images']>[number];
export type ListReplicasQuery = QueryOf<typeof listReplicasQuery>;
