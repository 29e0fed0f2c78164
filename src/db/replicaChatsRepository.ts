/**
 * The `replica_chats` table: a workspace's chats, each running one agent turn at a time. A chat
 * id is unique within its workspace only (clients may choose it), so every lookup names both.
 */
import type { Knex } from 'knex';

export interface ChatRow {
  id: string;
  replica_id: string;
  provider: string;
  title: string;
  parent_chat_id: string | null;
  processing: boolean;
  /** The agent's own session id, resumed by the chat's next turn. */
  agent_session_id?: string | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** Only where the query joined it (workspace lists, events). */
  last_message_text?: string | null;
}

export interface NewChat {
  id: string;
  replica_id: string;
  provider: string;
  title?: string;
  parent_chat_id?: string | null;
  created_at?: string;
}

const OLDEST_FIRST = [{ column: 'created_at' }, { column: 'id' }];

export function createReplicaChatsRepository(db: Knex) {
  const live = (replicaId: string, trx: Knex) => trx<ChatRow>('replica_chats').where({ replica_id: replicaId }).whereNull('deleted_at');

  /** Live chats of a replica with the text of each one's latest message. */
  const withLastMessage = (replicaId: string, trx: Knex) =>
    trx('replica_chats as c')
      .where('c.replica_id', replicaId)
      .whereNull('c.deleted_at')
      .select(
        'c.*',
        trx.raw('(SELECT m.content FROM replica_messages m WHERE m.replica_id = c.replica_id AND m.chat_id = c.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1) AS last_message_text'),
      )
      .orderBy([{ column: 'c.created_at' }, { column: 'c.id' }]);

  return {
    async list(replicaId: string, trx: Knex = db): Promise<ChatRow[]> {
      return (await live(replicaId, trx).orderBy(OLDEST_FIRST)) as ChatRow[];
    },

    async listWithLastMessage(replicaId: string, trx: Knex = db): Promise<ChatRow[]> {
      return (await withLastMessage(replicaId, trx)) as ChatRow[];
    },

    /** One live chat with its latest message text (as the events stream shows it). */
    async findWithLastMessage(replicaId: string, chatId: string, trx: Knex = db): Promise<ChatRow | null> {
      return ((await withLastMessage(replicaId, trx).where('c.id', chatId).first()) as ChatRow | undefined) ?? null;
    },

    /** The most recently deleted chats of the replica, newest deletion first. */
    async deleted(replicaId: string, limit: number, trx: Knex = db): Promise<ChatRow[]> {
      return trx('replica_chats').where({ replica_id: replicaId }).whereNotNull('deleted_at').orderBy('deleted_at', 'desc').limit(limit);
    },

    /**
     * A live chat of the replica; `forUpdate` (in a transaction) serialises edits of one chat,
     * with `FOR NO KEY UPDATE` so messages can still be inserted into it meanwhile.
     */
    async find(replicaId: string, chatId: string, options: { forUpdate?: boolean } = {}, trx: Knex = db): Promise<ChatRow | null> {
      const query = live(replicaId, trx).where({ id: chatId }).first();
      if (options.forUpdate) void query.forNoKeyUpdate();
      return ((await query) as ChatRow | undefined) ?? null;
    },

    /** A chat by id, deleted or not (a turn may end after its chat was deleted). */
    async findById(replicaId: string, chatId: string, trx: Knex = db): Promise<ChatRow | null> {
      return ((await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).first()) as ChatRow | undefined) ?? null;
    },

    /** The live chat updated most recently. */
    async latest(replicaId: string, trx: Knex = db): Promise<ChatRow | null> {
      const row = await live(replicaId, trx)
        .orderBy([
          { column: 'updated_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .first();
      return (row as ChatRow | undefined) ?? null;
    },

    async insert(chat: NewChat, trx: Knex = db): Promise<ChatRow> {
      const [row] = await trx('replica_chats').insert(chat).returning('*');
      return row as ChatRow;
    },

    /** Soft-deletes the chat; its queued messages will never run, so they go. */
    async markDeleted(replicaId: string, chatId: string, trx: Knex = db): Promise<void> {
      await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
      await trx('replica_messages').where({ replica_id: replicaId, chat_id: chatId, status: 'queued' }).delete();
    },

    async touch(replicaId: string, chatId: string, trx: Knex = db): Promise<void> {
      await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).update({ updated_at: trx.fn.now() });
    },

    /** A turn ended: the chat is free, and remembers the agent session its next turn resumes. */
    async release(replicaId: string, chatId: string, agentSessionId?: string, trx: Knex = db): Promise<void> {
      await trx('replica_chats')
        .where({ replica_id: replicaId, id: chatId })
        .update({ processing: false, updated_at: trx.fn.now(), ...(agentSessionId ? { agent_session_id: agentSessionId } : {}) });
    },

    /** Nothing was left to run: the chat is free, its recency unchanged. */
    async clearProcessing(replicaId: string, chatId: string, trx: Knex = db): Promise<void> {
      await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).update({ processing: false });
    },
  };
}

export type ReplicaChatsRepository = ReturnType<typeof createReplicaChatsRepository>;
