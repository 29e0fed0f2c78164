/**
 * Chat rows and their three public spellings: the replica API's snake_case summary, the
 * workspace API's camelCase `WorkspaceChat`, and the engine's `EngineChatSummary` carried by
 * `chat.*` events (the same fields as `WorkspaceChat`), interop §4.9 and §4.13.
 */
import type { Knex } from 'knex';
import { notFound } from '../../domain/errors';

export interface ChatRow {
  id: string;
  replica_id: string;
  provider: string;
  title: string;
  parent_chat_id: string | null;
  processing: boolean;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** Only where the query joined it (workspace lists, events). */
  last_message_text?: string | null;
}

const LAST_MESSAGE_PREVIEW_CHARS = 200;

export function serializeReplicaChat(row: ChatRow) {
  return {
    id: row.id,
    provider: row.provider,
    title: row.title,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    processing: row.processing,
    parent_chat_id: row.parent_chat_id,
  };
}

export function serializeWorkspaceChat(row: ChatRow) {
  return {
    id: row.id,
    provider: row.provider,
    title: row.title,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    processing: row.processing,
    parentChatId: row.parent_chat_id,
    ...(row.last_message_text ? { lastMessageText: row.last_message_text.slice(0, LAST_MESSAGE_PREVIEW_CHARS) } : {}),
  };
}

export const engineChatSummary = serializeWorkspaceChat;

/** Live chats of a replica with the text of each one's latest message. */
export function chatsWithLastMessage(db: Knex, replicaId: string) {
  return db('replica_chats as c')
    .where('c.replica_id', replicaId)
    .whereNull('c.deleted_at')
    .select(
      'c.*',
      db.raw(
        '(SELECT m.content FROM replica_messages m WHERE m.chat_id = c.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS last_message_text',
      ),
    )
    .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }]);
}

/** A live chat of the replica, or 404; `forUpdate` serialises queue edits on one chat. */
export async function findChat(db: Knex, replicaId: string, chatId: string, options: { forUpdate?: boolean } = {}): Promise<ChatRow> {
  const query = db<ChatRow>('replica_chats').where({ id: chatId, replica_id: replicaId }).whereNull('deleted_at').first();
  if (options.forUpdate) void query.forUpdate();
  const row = (await query) as ChatRow | undefined;
  if (!row) throw notFound('Chat');
  return row;
}

/** The chat as the events stream shows it, with its latest message text. */
export async function loadEngineChat(db: Knex, replicaId: string, chatId: string) {
  const row = (await chatsWithLastMessage(db, replicaId).where('c.id', chatId).first()) as ChatRow | undefined;
  return row ? engineChatSummary(row) : null;
}
