/**
 * Schemas of the replica activity operations: chats, queues, history, hook logs and the
 * events stream. Replica-scoped shapes are snake_case, workspace-scoped ones, queue objects
 * and hook log entries camelCase (interop §1.5).
 */
import { AGENT_IDS } from '../agents/catalog';
import { type BodyOf, dateTime, type JsonSchema, nullableUuid, object, type QueryOf, uuid } from './common';

export const HISTORY_DEFAULT_LIMIT = 50;
export const HISTORY_MAX_LIMIT = 500;

export const replicaParams = object({ id: uuid }, ['id']);
export const workspaceParams = object({ workspaceId: uuid }, ['workspaceId']);
export const chatParams = object({ id: uuid, chatId: uuid }, ['id', 'chatId']);
export const queuedMessageParams = object({ id: uuid, chatId: uuid, messageId: uuid }, ['id', 'chatId', 'messageId']);
/** The queue's paths under the workspace spelling (interop §4.10). */
export const workspaceChatParams = object({ workspaceId: uuid, chatId: uuid }, ['workspaceId', 'chatId']);
export const workspaceQueuedMessageParams = object({ workspaceId: uuid, chatId: uuid, messageId: uuid }, ['workspaceId', 'chatId', 'messageId']);

/** A `replica_events` id: what the stream sends as `id:` and takes back as Last-Event-ID. */
export const EVENT_ID_PATTERN = /^\d{1,18}$/;
export const eventsQuery = object({
  after: { type: 'string', pattern: EVENT_ID_PATTERN.source, description: 'Replay events after this id (the `Last-Event-ID` header wins)' },
});

export const historyQuery = object({
  chat_id: uuid,
  limit: { type: 'integer', minimum: 1, maximum: HISTORY_MAX_LIMIT, default: HISTORY_DEFAULT_LIMIT },
  offset: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0, description: 'Events to skip, counted from the newest' },
});

export const createChatBody = object(
  {
    provider: { enum: [...AGENT_IDS] },
    id: uuid,
    title: { type: 'string', minLength: 1, maxLength: 200 },
    parentChatId: nullableUuid,
    clientRequestId: { type: 'string', minLength: 1, maxLength: 200 },
    createdAt: dateTime,
  },
  ['provider'],
);

export const reorderBody = object(
  { messageId: uuid, position: { type: 'integer', minimum: 0, maximum: 1_000_000, description: 'Zero-based; past the end means last' } },
  ['messageId', 'position'],
);

const timestamps = { created_at: dateTime, updated_at: dateTime };
export const replicaChatSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'provider', 'title', 'created_at', 'updated_at', 'processing'],
  properties: { id: uuid, provider: { type: 'string' }, title: { type: 'string' }, ...timestamps, processing: { type: 'boolean' }, parent_chat_id: nullableUuid },
};

export const workspaceChatSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'provider', 'title', 'createdAt', 'updatedAt', 'processing', 'parentChatId'],
  properties: {
    id: uuid,
    provider: { type: 'string' },
    title: { type: 'string' },
    createdAt: dateTime,
    updatedAt: dateTime,
    processing: { type: 'boolean' },
    parentChatId: nullableUuid,
    lastMessageText: { type: 'string' },
  },
};

export const workspaceChatEnvelope = object({ chat: workspaceChatSchema }, ['chat']);

export const chatListSchema: JsonSchema = {
  type: 'object',
  required: ['chats', 'waking'],
  properties: { chats: { type: 'array', items: replicaChatSchema }, waking: { type: 'boolean' } },
};

export const workspaceChatListSchema: JsonSchema = {
  type: 'object',
  required: ['chats'],
  properties: { chats: { type: 'array', items: workspaceChatSchema }, deletedChats: { type: 'array', items: workspaceChatSchema } },
};

const queueItem: JsonSchema = {
  type: 'object',
  required: ['id', 'message', 'queuedAt'],
  properties: { id: uuid, message: { type: 'string' }, queuedAt: dateTime, senderUserId: uuid, senderEmail: { type: 'string' } },
};
export const queueSchema: JsonSchema = {
  type: 'object',
  required: ['chatId', 'processing', 'queue'],
  properties: { chatId: uuid, processing: { type: 'boolean' }, queue: { type: 'array', items: queueItem } },
};
export const queueEditSchema: JsonSchema = {
  type: 'object',
  required: ['success', 'queue'],
  properties: { success: { const: true }, queue: { type: 'array', items: queueItem } },
};

export const historySchema: JsonSchema = {
  type: 'object',
  required: ['thread_id', 'events', 'total', 'has_more', 'coding_agent', 'waking', 'senders'],
  properties: {
    thread_id: nullableUuid,
    events: {
      type: 'array',
      items: { type: 'object', required: ['timestamp', 'type', 'payload'], properties: { timestamp: dateTime, type: { type: 'string' }, payload: {} } },
    },
    total: { type: 'integer' },
    has_more: { type: 'boolean' },
    coding_agent: { type: ['string', 'null'] },
    waking: { type: 'boolean' },
    senders: {
      type: 'array',
      items: {
        type: 'object',
        properties: { senderUserId: nullableUuid, senderEmail: { type: ['string', 'null'] }, recordedAt: dateTime },
      },
    },
  },
};

const hookLogEntry: JsonSchema = {
  type: 'object',
  required: ['hookType', 'hookName', 'output', 'outputTruncated', 'outputTotalChars', 'exitCode', 'timedOut', 'executedAt'],
  properties: {
    hookType: { type: 'string' },
    hookName: { type: 'string' },
    hookScript: { type: 'string', description: 'Warm entries' },
    repoName: { type: ['string', 'null'], description: 'Start entries; deprecated' },
    hookCommands: { type: 'array', items: { type: 'string' }, description: 'Start entries' },
    output: { type: 'string' },
    outputTruncated: { type: 'boolean' },
    outputTotalChars: { type: 'integer' },
    exitCode: { type: ['integer', 'null'] },
    timedOut: { type: 'boolean' },
    executedAt: dateTime,
  },
};
const logs = { type: 'object', required: ['logs'], properties: { logs: { type: 'array', items: hookLogEntry } } };
export const hookLogsSchema: JsonSchema = {
  type: 'object',
  required: ['warm_hooks', 'start_hooks'],
  properties: { warm_hooks: logs, start_hooks: logs },
};

export const slashCommandsSchema: JsonSchema = {
  type: 'object',
  required: ['commands'],
  properties: {
    commands: {
      type: 'array',
      items: {
        type: 'object',
        required: ['command', 'description', 'providers'],
        properties: { command: { type: 'string' }, description: { type: 'string' }, argumentHint: { type: 'string' }, providers: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

export type CreateChatInput = BodyOf<typeof createChatBody>;
export type ReorderQueueInput = BodyOf<typeof reorderBody>;
export type HistoryQuery = QueryOf<typeof historyQuery>;
