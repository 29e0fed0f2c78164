/** The `replicas` table and a new workspace's first rows. */
import type { Knex } from 'knex';
import type { NewReplicaRecord } from '../domain/replicas';

/** A workspace's record. */
export interface ReplicaRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  environment_id: string | null;
  name: string;
  status: 'preparing' | 'active' | 'sleeping' | 'archived' | 'error';
  source: string;
  coding_agent: string;
  agent_models: Record<string, string>;
  thinking_level: string | null;
  plan_mode: boolean;
  goal_mode: boolean;
  fast_mode: boolean;
  size: 'small' | 'large';
  lifecycle_policy: string;
  auto_stop_minutes: number | null;
  config: Record<string, unknown>;
  webhook_url: string | null;
  webhook_secret_sealed: string | null;
  engine_secret_hash: string;
  engine_secret_sealed: string | null;
  /** The container (and volume) suffix: a claimed warm-pool entry's id, or null for the replica's own. */
  workspace_key?: string | null;
  repositories: Array<{ id: string; name: string; url: string; default_branch: string }>;
  last_activity_at: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  deleted_at: Date | null;
}

export function createReplicasRepository(db: Knex) {
  return {
    async find(id: string, trx: Knex = db): Promise<ReplicaRow | null> {
      return ((await trx('replicas').where({ id }).first()) as ReplicaRow | undefined) ?? null;
    },

    /** The replica, its first chat and its first queued message, in one transaction. */
    async insertWithFirstMessage(record: NewReplicaRecord, trx?: Knex.Transaction): Promise<ReplicaRow> {
      const insert = async (t: Knex.Transaction) => {
        const [replica] = await t('replicas').insert({ ...record.replica, last_activity_at: t.fn.now() }).returning('*');
        await t('replica_chats').insert(record.chat);
        await t('replica_messages').insert(record.message);
        return replica as ReplicaRow;
      };
      return trx ? insert(trx) : db.transaction(insert);
    },

    /** The first chat and message of a workspace (an automation run's prompt). */
    async firstMessage(replicaId: string, trx: Knex = db): Promise<{ chatId: string; messageId: string } | null> {
      const row = await trx('replica_messages').where({ replica_id: replicaId }).orderBy([{ column: 'created_at' }, { column: 'queue_position' }]).first('id', 'chat_id');
      return row ? { chatId: row.chat_id, messageId: row.id } : null;
    },
  };
}

export type ReplicasRepository = ReturnType<typeof createReplicasRepository>;
