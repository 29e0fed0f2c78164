/**
 * Threads routed to workspaces (`integration_threads`): one Slack thread, Linear issue or
 * GitHub/GitLab issue or pull request ↔ one workspace of one organization. Routing locks the
 * thread's row, so two messages of one thread arriving together cannot make two workspaces.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ThreadBinding, ThreadProvider } from '../integrations/threads/types';

interface Row {
  id: string;
  organization_id: string;
  provider: ThreadProvider;
  connection_id: string | null;
  thread_key: string;
  replica_id: string | null;
  chat_id: string | null;
  user_id: string | null;
  reference: Record<string, unknown>;
  cursor: string | null;
  closed_at: Date | null;
  last_reply_message_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ThreadRecord extends ThreadBinding {
  /** The message whose turn the thread was last answered for. */
  lastReplyMessageId: string | null;
  createdAt: string;
  updatedAt: string;
}

const TABLE = 'integration_threads';

const toBinding = (r: Row): ThreadRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  provider: r.provider,
  connectionId: r.connection_id,
  threadKey: r.thread_key,
  replicaId: r.replica_id,
  chatId: r.chat_id,
  userId: r.user_id,
  reference: r.reference ?? {},
  cursor: r.cursor,
  closedAt: r.closed_at ? r.closed_at.toISOString() : null,
  lastReplyMessageId: r.last_reply_message_id ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export interface ThreadKey {
  organizationId: string;
  provider: ThreadProvider;
  threadKey: string;
}

const where = (k: ThreadKey) => ({ organization_id: k.organizationId, provider: k.provider, thread_key: k.threadKey });

export function createIntegrationThreadsRepository(db: Knex) {
  return {
    async find(key: ThreadKey, trx: Knex = db): Promise<ThreadRecord | null> {
      const row = await trx<Row>(TABLE).where(where(key)).first();
      return row ? toBinding(row) : null;
    },

    async findById(organizationId: string, id: string, trx: Knex = db): Promise<ThreadRecord | null> {
      const row = await trx<Row>(TABLE).where({ organization_id: organizationId, id }).first();
      return row ? toBinding(row) : null;
    },

    /**
     * The thread's row, created empty if new, locked until the transaction ends: the one
     * place where a thread's workspace is decided.
     */
    async lockOrCreate(key: ThreadKey & { connectionId: string | null; reference: Record<string, unknown> }, trx: Knex): Promise<ThreadRecord> {
      await trx(TABLE)
        .insert({ id: randomUUID(), ...where(key), connection_id: key.connectionId, reference: JSON.stringify(key.reference) })
        .onConflict(['organization_id', 'provider', 'thread_key'])
        .ignore();
      const row = await trx<Row>(TABLE).where(where(key)).forUpdate().first();
      return toBinding(row!);
    },

    /** Points the thread at a workspace and chat (a new one, or one attached by hand); reopens a closed thread. */
    async bind(
      id: string,
      binding: { replicaId: string; chatId: string | null; userId?: string | null; reference?: Record<string, unknown>; cursor?: string | null },
      trx: Knex = db,
    ): Promise<ThreadRecord> {
      const changes: Record<string, unknown> = { replica_id: binding.replicaId, chat_id: binding.chatId, closed_at: null, updated_at: trx.fn.now() };
      if (binding.userId !== undefined) changes.user_id = binding.userId;
      if (binding.reference !== undefined) changes.reference = JSON.stringify(binding.reference);
      if (binding.cursor !== undefined) changes.cursor = binding.cursor;
      const [row] = await trx<Row>(TABLE).where({ id }).update(changes).returning('*');
      return toBinding(row as Row);
    },

    /**
     * A thread attached by hand (POST /v1/slack/threads/attach) when it has no row yet; null
     * when it has one (routed, being routed or attached before), which the caller locks and
     * decides about.
     */
    async insertAttached(
      key: ThreadKey & { connectionId: string | null; replicaId: string; chatId: string | null; reference: Record<string, unknown> },
      trx: Knex = db,
    ): Promise<ThreadRecord | null> {
      const [row] = await trx(TABLE)
        .insert({
          id: randomUUID(),
          ...where(key),
          connection_id: key.connectionId,
          replica_id: key.replicaId,
          chat_id: key.chatId,
          reference: JSON.stringify(key.reference),
        })
        .onConflict(['organization_id', 'provider', 'thread_key'])
        .ignore()
        .returning('*');
      return row ? toBinding(row as Row) : null;
    },

    /** The thread's row locked until the transaction ends, or null. */
    async lock(key: ThreadKey, trx: Knex): Promise<ThreadRecord | null> {
      const row = await trx<Row>(TABLE).where(where(key)).forUpdate().first();
      return row ? toBinding(row) : null;
    },

    async setCursor(id: string, cursor: string, trx: Knex = db): Promise<void> {
      await trx(TABLE).where({ id }).update({ cursor, updated_at: trx.fn.now() });
    },

    async markReplied(id: string, messageId: string, trx: Knex = db): Promise<void> {
      await trx(TABLE).where({ id }).update({ last_reply_message_id: messageId });
    },

    async close(id: string, trx: Knex = db): Promise<void> {
      await trx(TABLE).where({ id }).whereNull('closed_at').update({ closed_at: trx.fn.now(), updated_at: trx.fn.now() });
    },

    /** The open threads talking to a workspace (the agent's answers go back to them). */
    async ofReplica(replicaId: string, trx: Knex = db): Promise<ThreadRecord[]> {
      const rows = await trx<Row>(TABLE).where({ replica_id: replicaId }).whereNull('closed_at').orderBy('created_at');
      return rows.map(toBinding);
    },
  };
}

export type IntegrationThreadsRepository = ReturnType<typeof createIntegrationThreadsRepository>;
