/**
 * Chats of a replica: list (a read of a sleeping or archived workspace wakes it), create
 * (emits `chat.created` echoing the client's `clientRequestId`) and soft delete (emits
 * `chat.deleted`; messages still queued in the chat will never run, so they are dropped).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { conflict, notFound } from '../../domain/errors';
import { isUniqueViolation } from '../../db/errors';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { Actor } from '../../domain/actor';
import { accessReplica, type ReplicaRow } from '../replicas/access';
import { chatsWithLastMessage, engineChatSummary, findChat, type ChatRow } from './chatRows';

export interface CreateChatInput {
  provider: string;
  id?: string;
  title?: string;
  parentChatId?: string | null;
  clientRequestId?: string;
  createdAt?: string;
}

/** Reading these wakes the workspace (interop §4.7). */
export const isAsleep = (row: ReplicaRow) => row.status === 'sleeping' || row.status === 'archived';

const DELETED_CHATS_SHOWN = 100;

export function createChatsService(deps: { db: Knex; events: ReplicaEventEmitter; wake: (replicaId: string) => Promise<void> }) {
  const { db, events, wake } = deps;

  async function wakeIfAsleep(row: ReplicaRow): Promise<boolean> {
    if (!isAsleep(row)) return false;
    await wake(row.id);
    return true;
  }

  return {
    wakeIfAsleep,

    async list(actor: Actor, replicaId: string): Promise<{ chats: ChatRow[]; waking: boolean }> {
      const replica = await accessReplica(db, actor, replicaId);
      const chats = (await db<ChatRow>('replica_chats')
        .where({ replica_id: replica.id })
        .whereNull('deleted_at')
        .orderBy([{ column: 'created_at' }, { column: 'id' }])) as ChatRow[];
      return { chats, waking: await wakeIfAsleep(replica) };
    },

    /** The workspace-scoped list works in any state and does not wake (interop §4.9). */
    async listForWorkspace(actor: Actor, replicaId: string): Promise<{ chats: ChatRow[]; deletedChats: string[] }> {
      const replica = await accessReplica(db, actor, replicaId);
      const chats = (await chatsWithLastMessage(db, replica.id)) as ChatRow[];
      const deleted = await db('replica_chats')
        .where({ replica_id: replica.id })
        .whereNotNull('deleted_at')
        .orderBy('deleted_at', 'desc')
        .limit(DELETED_CHATS_SHOWN)
        .pluck('id');
      return { chats, deletedChats: deleted as string[] };
    },

    async create(actor: Actor, replicaId: string, input: CreateChatInput): Promise<ChatRow> {
      const replica = await accessReplica(db, actor, replicaId);
      if (replica.status === 'archived' || replica.status === 'error') {
        throw conflict(`Cannot create a chat in a workspace that is ${replica.status}`);
      }
      try {
        return await db.transaction(async (trx) => {
          if (input.parentChatId) {
            const parent = await trx('replica_chats').where({ id: input.parentChatId, replica_id: replica.id }).whereNull('deleted_at').first();
            if (!parent) throw notFound('Parent chat');
          }
          const [row] = (await trx('replica_chats')
            .insert({
              id: input.id ?? randomUUID(),
              replica_id: replica.id,
              provider: input.provider,
              parent_chat_id: input.parentChatId ?? null,
              ...(input.title !== undefined ? { title: input.title } : {}),
              ...(input.createdAt !== undefined ? { created_at: input.createdAt } : {}),
            })
            .returning('*')) as ChatRow[];
          await events.emit(
            replica.id,
            'chat.created',
            { chat: engineChatSummary(row!), ...(input.clientRequestId !== undefined ? { clientRequestId: input.clientRequestId } : {}) },
            trx,
          );
          return row!;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('A chat with this id already exists');
        throw err;
      }
    },

    async remove(actor: Actor, replicaId: string, chatId: string): Promise<void> {
      const replica = await accessReplica(db, actor, replicaId);
      await db.transaction(async (trx) => {
        await findChat(trx, replica.id, chatId, { forUpdate: true });
        await trx('replica_chats').where({ id: chatId }).update({ deleted_at: trx.fn.now(), updated_at: trx.fn.now() });
        await trx('replica_messages').where({ chat_id: chatId, status: 'queued' }).delete();
        await events.emit(replica.id, 'chat.deleted', { chatId }, trx);
      });
    },
  };
}

export type ChatsService = ReturnType<typeof createChatsService>;
