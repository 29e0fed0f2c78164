/**
 * Who may see a replica: it must belong to the caller's organization; a personal replica
 * (created with a personal key) is visible to its owner and to org keys. Anything else is
 * 404, never 403, so ids of other organizations' or members' workspaces leak nothing.
 */
import type { Transaction } from '../../db';
import type { ChatRow, ReplicaChatsRepository } from '../../db/replicaChatsRepository';
import type { ReplicaRow, ReplicasRepository } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { notFound } from '../../domain/errors';

export async function accessReplica(replicas: ReplicasRepository, actor: Actor, id: string): Promise<ReplicaRow> {
  const row = await replicas.findVisible(actor, id);
  if (!row) throw notFound('Replica');
  return row;
}

/** Reading a sleeping or archived workspace wakes it (interop §4.7). */
export const isAsleep = (row: Pick<ReplicaRow, 'status'>) => row.status === 'sleeping' || row.status === 'archived';

/** A live chat of the replica, or 404; `forUpdate` (in a transaction) serialises edits of one chat. */
export async function accessChat(chats: ReplicaChatsRepository, replicaId: string, chatId: string, options: { forUpdate?: boolean } = {}, trx?: Transaction): Promise<ChatRow> {
  const row = await chats.find(replicaId, chatId, options, trx);
  if (!row) throw notFound('Chat');
  return row;
}
