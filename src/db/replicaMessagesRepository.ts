/**
 * The `replica_messages` table: each chat's queue (status `queued`, in `queue_position` order)
 * and the turns that ran it (`running`, then `completed`, `failed` or `interrupted`). Message and
 * chat ids are unique within their workspace only (clients may choose them), so every lookup
 * names the workspace too.
 */
import type { Knex } from 'knex';
import type { ThinkingLevel } from '../agents/catalog';

export type MessageStatus = 'queued' | 'running' | 'completed' | 'failed' | 'interrupted';

export interface MessageRow {
  id: string;
  replica_id: string;
  chat_id: string;
  content: string;
  status: MessageStatus;
  queue_position: number;
  coding_agent: string;
  model: string | null;
  options: { plan_mode?: boolean; goal_mode?: boolean; fast_mode?: boolean; thinking_level?: ThinkingLevel | null; images?: unknown[] } | null;
  sender_user_id: string | null;
  sender_email: string | null;
  error: string | null;
  /** The process session of a running turn's agent in its container, recorded once it starts. */
  agent_session?: number | null;
  /**
   * How many bytes of a supervised turn's output are recorded (src/sandbox/workspace/turnSupervisor.ts);
   * null for a turn that is not supervised (not started, or from before the supervisor).
   */
  output_offset?: number | string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export type QueuedRow = Pick<MessageRow, 'id' | 'content' | 'queue_position' | 'created_at' | 'sender_user_id' | 'sender_email'>;

export interface NewMessage {
  id: string;
  replica_id: string;
  chat_id: string;
  content: string;
  coding_agent: string;
  model: string | null;
  options: Record<string, unknown>;
  sender_user_id: string | null;
  sender_email: string | null;
}

export interface Sender {
  sender_user_id: string | null;
  sender_email: string | null;
  created_at: Date;
}

export function createReplicaMessagesRepository(db: Knex) {
  const ofChat = (replicaId: string, chatId: string, trx: Knex) => trx('replica_messages').where({ replica_id: replicaId, chat_id: chatId });
  const byId = (replicaId: string, messageId: string, trx: Knex) => trx('replica_messages').where({ replica_id: replicaId, id: messageId });

  return {
    async queued(replicaId: string, chatId: string, trx: Knex = db): Promise<QueuedRow[]> {
      return ofChat(replicaId, chatId, trx)
        .where({ status: 'queued' })
        .orderBy([{ column: 'queue_position' }, { column: 'created_at' }, { column: 'id' }])
        .select('id', 'content', 'queue_position', 'created_at', 'sender_user_id', 'sender_email');
    },

    /**
     * Appends a message at the end of its chat's queue; `ahead` counts the messages queued or
     * running before it. Call it with the replica locked, so two sends keep their order.
     */
    async enqueue(message: NewMessage, trx: Knex): Promise<{ ahead: number }> {
      const ahead = await ofChat(message.replica_id, message.chat_id, trx).whereIn('status', ['queued', 'running']).count({ count: '*' }).first();
      const max = await ofChat(message.replica_id, message.chat_id, trx).max({ max: 'queue_position' }).first();
      await trx('replica_messages').insert({
        ...message,
        status: 'queued',
        queue_position: Number(max?.max ?? 0) + 1,
        options: JSON.stringify(message.options),
      });
      return { ahead: Number(ahead?.count ?? 0) };
    },

    /** Drops one queued message, or all of the chat's when `messageId` is absent; the count dropped. */
    async deleteQueued(replicaId: string, chatId: string, messageId?: string, trx: Knex = db): Promise<number> {
      return ofChat(replicaId, chatId, trx)
        .where({ status: 'queued', ...(messageId ? { id: messageId } : {}) })
        .delete();
    },

    async setQueuePosition(replicaId: string, messageId: string, position: number, trx: Knex = db): Promise<void> {
      await byId(replicaId, messageId, trx).update({ queue_position: position });
    },

    /**
     * The chat's next queued message, now `running` with its chat marked processing; null when
     * nothing is queued. A message another worker is claiming is skipped, not waited for.
     */
    async claimNext(replicaId: string, chatId: string): Promise<MessageRow | null> {
      return db.transaction(async (trx) => {
        const next = (await ofChat(replicaId, chatId, trx).where({ status: 'queued' }).orderBy('queue_position').forUpdate().skipLocked().first()) as MessageRow | undefined;
        if (!next) return null;
        await byId(replicaId, next.id, trx).update({ status: 'running', started_at: trx.fn.now() });
        await trx('replica_chats').where({ replica_id: replicaId, id: chatId }).update({ processing: true, updated_at: trx.fn.now() });
        return next;
      });
    },

    /** The chat's running message (a chat runs one turn at a time). */
    async running(replicaId: string, chatId: string, trx: Knex = db): Promise<MessageRow | null> {
      return ((await ofChat(replicaId, chatId, trx).where({ status: 'running' }).first()) as MessageRow | undefined) ?? null;
    },

    /** Every running message of the replica, whatever its chat. */
    async allRunning(replicaId: string, trx: Knex = db): Promise<MessageRow[]> {
      return (await trx('replica_messages').where({ replica_id: replicaId, status: 'running' }).orderBy('started_at').select('*')) as MessageRow[];
    },

    async findById(replicaId: string, messageId: string, trx: Knex = db): Promise<MessageRow | null> {
      return ((await byId(replicaId, messageId, trx).first()) as MessageRow | undefined) ?? null;
    },

    /** The agent's final text of the turn that ran this message (kept for the threads it answers). */
    async setReply(replicaId: string, messageId: string, text: string, trx: Knex = db): Promise<void> {
      await byId(replicaId, messageId, trx).update({ reply_text: text });
    },

    async reply(
      replicaId: string,
      messageId: string,
      trx: Knex = db,
    ): Promise<{ chat_id: string; status: MessageStatus; reply_text: string | null; error: string | null } | null> {
      return (await byId(replicaId, messageId, trx).first('chat_id', 'status', 'reply_text', 'error')) ?? null;
    },

    async setAgentSession(replicaId: string, messageId: string, sessionId: number, trx: Knex = db): Promise<void> {
      await byId(replicaId, messageId, trx).update({ agent_session: sessionId });
    },

    /**
     * Ends a running message; false when it was not running (another attempt of its turn ended
     * it first), and then nothing changes.
     */
    async finish(replicaId: string, messageId: string, status: Exclude<MessageStatus, 'queued' | 'running'>, error: string | null, trx: Knex = db): Promise<boolean> {
      return (await byId(replicaId, messageId, trx).where({ status: 'running' }).update({ status, completed_at: trx.fn.now(), error })) > 0;
    },

    /**
     * A running turn's agent started under the supervisor with session `sessionId`: its output
     * is recorded from here on (`advanceOutput`). Answers how much of it is recorded already
     * (0 for a turn that just started, more for one a worker takes over), null when the message
     * is no longer running.
     */
    async superviseTurn(replicaId: string, messageId: string, sessionId: number, trx: Knex = db): Promise<number | null> {
      const [row] = (await byId(replicaId, messageId, trx)
        .where({ status: 'running' })
        .update({ agent_session: sessionId, output_offset: trx.raw('COALESCE(output_offset, 0)') })
        .returning('output_offset')) as Array<{ output_offset: number | string }>;
      return row ? Number(row.output_offset) : null;
    },

    /**
     * Records that a running turn's output is recorded up to `to`, where it was at `from`: in the
     * transaction that writes what lies between. False when it was not at `from` (another worker
     * follows the turn now, or it ended): the caller wrote nothing and stops.
     */
    async advanceOutput(replicaId: string, messageId: string, from: number, to: number, trx: Knex = db): Promise<boolean> {
      return (await byId(replicaId, messageId, trx).where({ status: 'running', output_offset: from }).update({ output_offset: to })) > 0;
    },

    /**
     * Who sent the chat's messages: those in `messageIds`, and any recorded between `from` and
     * `to`; messages with neither a sender user nor an email are left out.
     */
    async senders(replicaId: string, chatId: string, window: { from: Date; to: Date; messageIds: string[] }, trx: Knex = db): Promise<Sender[]> {
      return ofChat(replicaId, chatId, trx)
        .where((q) => q.whereNotNull('sender_user_id').orWhereNotNull('sender_email'))
        .where((q) => {
          void q.whereBetween('created_at', [window.from, window.to]);
          if (window.messageIds.length > 0) void q.orWhereIn('id', window.messageIds);
        })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .select('sender_user_id', 'sender_email', 'created_at');
    },
  };
}

export type ReplicaMessagesRepository = ReturnType<typeof createReplicaMessagesRepository>;
