/**
 * The per-chat queue (interop §4.10): messages with status `queued`, in `queue_position`
 * order; the running message is not part of it. Edits lock the chat row so two edits of one
 * chat apply one after the other; the worker claiming the head concurrently is harmless, since
 * every edit touches only rows that are still `queued`. Each edit emits `chat.updated`.
 */
import type { Repositories, Transaction } from '../../db';
import type { QueuedRow } from '../../db/replicaMessagesRepository';
import type { Actor } from '../../domain/actor';
import { notFound } from '../../domain/errors';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import { accessChat, accessReplica } from './access';
import { engineChatSummary } from './serialize';

export interface QueueView {
  chatId: string;
  processing: boolean;
  queue: ReturnType<typeof serializeQueued>[];
}

function serializeQueued(row: QueuedRow) {
  return {
    id: row.id,
    message: row.content,
    queuedAt: row.created_at.toISOString(),
    ...(row.sender_user_id ? { senderUserId: row.sender_user_id } : {}),
    ...(row.sender_email ? { senderEmail: row.sender_email } : {}),
  };
}

/**
 * The position that puts a message at `index` of `others` (the queue without it): halfway
 * between its new neighbours, or null when doubles can no longer tell them apart.
 */
export function positionBetween(others: readonly number[], index: number): number | null {
  const at = Math.min(Math.max(index, 0), others.length);
  const before = at > 0 ? others[at - 1]! : null;
  const after = at < others.length ? others[at]! : null;
  if (before === null && after === null) return 0;
  if (before === null) return after! - 1;
  if (after === null) return before + 1;
  const middle = before + (after - before) / 2;
  return middle > before && middle < after ? middle : null;
}

export function createQueueService(deps: { repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats' | 'replicaMessages'>; events: ReplicaEventEmitter }) {
  const { repos, events } = deps;
  const { replicas, replicaChats, replicaMessages } = repos;

  /** Runs an edit with the chat locked, then answers the queue as it is after the edit. */
  async function edit(actor: Actor, replicaId: string, chatId: string, change: (trx: Transaction, replicaId: string) => Promise<void>): Promise<QueueView['queue']> {
    const replica = await accessReplica(replicas, actor, replicaId);
    return repos.transact(async (trx) => {
      await accessChat(replicaChats, replica.id, chatId, { forUpdate: true }, trx);
      await change(trx, replica.id);
      await replicaChats.touch(replica.id, chatId, trx);
      const chat = await replicaChats.findWithLastMessage(replica.id, chatId, trx);
      await events.emit(replica.id, 'chat.updated', { chat: chat ? engineChatSummary(chat) : null }, trx);
      return (await replicaMessages.queued(replica.id, chatId, trx)).map(serializeQueued);
    });
  }

  return {
    async get(actor: Actor, replicaId: string, chatId: string): Promise<QueueView> {
      const replica = await accessReplica(replicas, actor, replicaId);
      const chat = await accessChat(replicaChats, replica.id, chatId);
      return { chatId: chat.id, processing: chat.processing, queue: (await replicaMessages.queued(replica.id, chat.id)).map(serializeQueued) };
    },

    clear: (actor: Actor, replicaId: string, chatId: string) =>
      edit(actor, replicaId, chatId, async (trx, id) => {
        await replicaMessages.deleteQueued(id, chatId, undefined, trx);
      }),

    remove: (actor: Actor, replicaId: string, chatId: string, messageId: string) =>
      edit(actor, replicaId, chatId, async (trx, id) => {
        if ((await replicaMessages.deleteQueued(id, chatId, messageId, trx)) === 0) throw notFound('Queued message');
      }),

    reorder: (actor: Actor, replicaId: string, chatId: string, input: { messageId: string; position: number }) =>
      edit(actor, replicaId, chatId, async (trx, id) => {
        const rows = await replicaMessages.queued(id, chatId, trx);
        const from = rows.findIndex((r) => r.id === input.messageId);
        if (from === -1) throw notFound('Queued message');
        const others = rows.filter((r) => r.id !== input.messageId);
        const position = positionBetween(
          others.map((r) => r.queue_position),
          input.position,
        );
        if (position !== null) {
          await replicaMessages.setQueuePosition(id, input.messageId, position, trx);
          return;
        }
        // Neighbours too close to split: renumber the whole queue, keeping it after anything
        // already running or done (new messages are appended after the chat's highest position).
        const ordered = [...others];
        ordered.splice(Math.min(input.position, others.length), 0, rows[from]!);
        const base = Math.floor(rows[0]!.queue_position);
        for (const [i, row] of ordered.entries()) await replicaMessages.setQueuePosition(id, row.id, base + i, trx);
      }),
  };
}

export type QueueService = ReturnType<typeof createQueueService>;
