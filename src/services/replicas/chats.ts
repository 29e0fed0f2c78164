/**
 * Chats of a replica: list (a read of a sleeping or archived workspace wakes it), create
 * (emits `chat.created` echoing the client's `clientRequestId`) and soft delete (emits
 * `chat.deleted`; messages still queued in the chat will never run, so they are dropped).
 */
import { randomUUID } from 'node:crypto';
import type { Repositories } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import type { ChatRow } from '../../db/replicaChatsRepository';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { conflict, notFound } from '../../domain/errors';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { CreateChatInput } from '../../schemas/replicaChats';
import { accessChat, accessReplica } from './access';
import { engineChatSummary } from './serialize';

/** The body's own type, derived from its schema (src/schemas/replicaChats.ts). */
export type { CreateChatInput };

const DELETED_CHATS_SHOWN = 100;

export function createChatsService(deps: {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats'>;
  events: ReplicaEventEmitter;
  wakeIfAsleep: (row: ReplicaRow) => Promise<boolean>;
}) {
  const { repos, events } = deps;
  const { replicas, replicaChats } = repos;

  return {
    async list(actor: Actor, replicaId: string): Promise<{ chats: ChatRow[]; waking: boolean }> {
      const replica = await accessReplica(replicas, actor, replicaId);
      const chats = await replicaChats.list(replica.id);
      return { chats, waking: await deps.wakeIfAsleep(replica) };
    },

    /** The workspace-scoped list works in any state and does not wake (interop §4.9). */
    async listForWorkspace(actor: Actor, replicaId: string): Promise<{ chats: ChatRow[]; deletedChats: ChatRow[] }> {
      const replica = await accessReplica(replicas, actor, replicaId);
      const chats = await replicaChats.listWithLastMessage(replica.id);
      return { chats, deletedChats: await replicaChats.deleted(replica.id, DELETED_CHATS_SHOWN) };
    },

    async create(actor: Actor, replicaId: string, input: CreateChatInput): Promise<ChatRow> {
      const replica = await accessReplica(replicas, actor, replicaId);
      if (replica.status === 'archived' || replica.status === 'error') {
        throw conflict(`Cannot create a chat in a workspace that is ${replica.status}`);
      }
      try {
        return await repos.transact(async (trx) => {
          if (input.parentChatId && !(await replicaChats.find(replica.id, input.parentChatId, {}, trx))) throw notFound('Parent chat');
          const row = await replicaChats.insert(
            {
              id: input.id ?? randomUUID(),
              replica_id: replica.id,
              provider: input.provider,
              parent_chat_id: input.parentChatId ?? null,
              ...(input.title !== undefined ? { title: input.title } : {}),
              ...(input.createdAt !== undefined ? { created_at: input.createdAt } : {}),
            },
            trx,
          );
          const echo = input.clientRequestId !== undefined ? { clientRequestId: input.clientRequestId } : {};
          await events.emit(replica.id, 'chat.created', { chat: engineChatSummary(row), ...echo }, trx);
          return row;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('A chat with this id already exists');
        throw err;
      }
    },

    async remove(actor: Actor, replicaId: string, chatId: string): Promise<void> {
      const replica = await accessReplica(replicas, actor, replicaId);
      await repos.transact(async (trx) => {
        await accessChat(replicaChats, replica.id, chatId, { forUpdate: true }, trx);
        await replicaChats.markDeleted(replica.id, chatId, trx);
        await events.emit(replica.id, 'chat.deleted', { chatId }, trx);
      });
    },
  };
}

export type ChatsService = ReturnType<typeof createChatsService>;
