/** The `replicas` table: a workspace's record, who may see it, its status and its container key. */
import type { Knex } from 'knex';
import type { ThinkingLevel } from '../agents/catalog';
import type { Actor } from '../domain/actor';
import type { NewReplicaRecord } from '../domain/replicas';
import { closeActiveInterval, recordStatusChange, recordWorkspaceCreated } from './analyticsRepository';

export type ReplicaStatus = 'preparing' | 'active' | 'sleeping' | 'archived' | 'error';

/** A workspace's record. */
export interface ReplicaRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  environment_id: string | null;
  name: string;
  status: ReplicaStatus;
  source: string;
  coding_agent: string;
  agent_models: Record<string, string>;
  thinking_level: ThinkingLevel | null;
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
  /** The slugs of the skills written into the workspace, recorded when provisioning ends; null before. */
  skills_installed?: string[] | null;
  /** The container's IP on its Docker network while it runs (previews forward there); null when stopped. */
  container_address?: string | null;
  /** The worker host holding its container (placement); null before it is placed, or for a workspace from before hosts. */
  host_id?: string | null;
  repositories: Array<{ id: string; name: string; url: string; default_branch: string }>;
  last_activity_at: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  deleted_at: Date | null;
}

export interface ReplicaListQuery {
  page: number;
  limit: number;
  user_id?: string;
  source?: string;
  status?: string;
}

export function createReplicasRepository(db: Knex) {
  /**
   * What an actor may see: its organization's live replicas; a personal replica (created with
   * a personal key) only by its owner and by org keys.
   */
  const visible = (actor: Actor, trx: Knex) =>
    trx<ReplicaRow>('replicas')
      .where({ organization_id: actor.organizationId })
      .whereNull('deleted_at')
      .where((q) => {
        if (actor.keyKind !== 'org') q.whereNull('user_id').orWhere('user_id', actor.userId);
      });

  return {
    async find(id: string, trx: Knex = db): Promise<ReplicaRow | null> {
      return ((await trx('replicas').where({ id }).first()) as ReplicaRow | undefined) ?? null;
    },

    /**
     * Whether a replica's record puts `agent` to work: its own agent, a chat of that agent
     * that is not deleted, or a message for that agent still queued or running (a message
     * may ask for another agent than its chat's). What the AI gateway lets the workspace use.
     */
    async usesAgent(row: Pick<ReplicaRow, 'id' | 'coding_agent'>, agent: string, trx: Knex = db): Promise<boolean> {
      if (row.coding_agent === agent) return true;
      const chats = trx('replica_chats').where({ replica_id: row.id, provider: agent }).whereNull('deleted_at').select(trx.raw('1'));
      const messages = trx('replica_messages').where({ replica_id: row.id, coding_agent: agent }).whereIn('status', ['queued', 'running']).select(trx.raw('1'));
      const found = await trx.select(trx.raw('exists(?) or exists(?) as uses', [chats, messages])).first();
      return Boolean((found as { uses: unknown } | undefined)?.uses);
    },

    /** A replica that is not deleted. */
    async findLive(id: string, trx: Knex = db): Promise<ReplicaRow | null> {
      return ((await trx('replicas').where({ id }).whereNull('deleted_at').first()) as ReplicaRow | undefined) ?? null;
    },

    async findVisible(actor: Actor, id: string, trx: Knex = db): Promise<ReplicaRow | null> {
      return ((await visible(actor, trx).where({ id }).first()) as ReplicaRow | undefined) ?? null;
    },

    /** A page of visible replicas: archived ones by last activity, others newest first. */
    async listVisible(actor: Actor, q: ReplicaListQuery, trx: Knex = db): Promise<{ rows: ReplicaRow[]; total: number }> {
      const base = () =>
        visible(actor, trx).modify((b) => {
          if (q.user_id) b.where('user_id', q.user_id);
          if (q.source) b.where('source', q.source);
          if (q.status) b.where('status', q.status);
        });
      const [{ count }] = await base().count({ count: '*' });
      const orderBy = q.status === 'archived' ? 'coalesce(last_activity_at, created_at) desc, id' : 'created_at desc, id';
      const rows = (await base().orderByRaw(orderBy).limit(q.limit).offset((q.page - 1) * q.limit)) as ReplicaRow[];
      return { rows, total: Number(count) };
    },

    /** The replica, its first chat and its first queued message, in one transaction. */
    async insertWithFirstMessage(record: NewReplicaRecord, trx?: Knex.Transaction): Promise<ReplicaRow> {
      const insert = async (t: Knex.Transaction) => {
        const [replica] = (await t('replicas').insert({ ...record.replica, last_activity_at: t.fn.now() }).returning('*')) as ReplicaRow[];
        await t('replica_chats').insert(record.chat);
        await t('replica_messages').insert(record.message);
        await recordWorkspaceCreated(t, { replicaId: replica!.id, organizationId: replica!.organization_id, source: replica!.source, createdAt: replica!.created_at });
        return replica!;
      };
      return trx ? insert(trx) : db.transaction(insert);
    },

    /** The first chat and message of a workspace (an automation run's prompt). */
    async firstMessage(replicaId: string, trx: Knex = db): Promise<{ chatId: string; messageId: string } | null> {
      const row = await trx('replica_messages').where({ replica_id: replicaId }).orderBy([{ column: 'created_at' }, { column: 'queue_position' }]).first('id', 'chat_id');
      return row ? { chatId: row.chat_id, messageId: row.id } : null;
    },

    /**
     * Locks the row until the transaction ends: edits of one replica's chats go one at a time.
     * `FOR NO KEY UPDATE`, not `FOR UPDATE`: rows that reference the replica (events, messages)
     * may still be inserted meanwhile, or a queue edit holding its chat and emitting an event
     * and a send holding the replica and inserting into that chat deadlock.
     */
    async lock(id: string, trx: Knex.Transaction): Promise<Pick<ReplicaRow, 'id' | 'status'> | null> {
      return (await trx('replicas').where({ id }).forNoKeyUpdate().first('id', 'status')) ?? null;
    },

    /** Something happened in the workspace now; `agentModels` records a model a message chose. */
    async touch(id: string, changes: { agentModels?: Record<string, string> } = {}, trx: Knex = db): Promise<void> {
      await trx('replicas')
        .where({ id })
        .update({ last_activity_at: trx.fn.now(), ...(changes.agentModels ? { agent_models: JSON.stringify(changes.agentModels) } : {}) });
    },

    /** Gone from every read at once; the row itself goes when the workspace is torn down. */
    async markDeleted(id: string, trx: Knex = db): Promise<void> {
      await trx('replicas').where({ id }).update({ deleted_at: trx.fn.now() });
    },

    /** Removes the record; a workspace still counted as active stops being billed with it. */
    async delete(id: string, trx?: Knex.Transaction): Promise<void> {
      const remove = async (t: Knex.Transaction) => {
        await closeActiveInterval(t, id);
        await t('replicas').where({ id }).delete();
      };
      await (trx ? remove(trx) : db.transaction(remove));
    },

    /** The new status; an error's message is kept in `config.provisioning_error`. False when the replica is gone. */
    async setStatus(id: string, status: ReplicaStatus, error?: string): Promise<boolean> {
      return db.transaction(async (trx) => {
        const row = (await trx('replicas').where({ id }).forUpdate().first('config')) as Pick<ReplicaRow, 'config'> | undefined;
        if (!row) return false;
        const config = error ? { ...row.config, provisioning_error: { message: error } } : row.config;
        await trx('replicas')
          .where({ id })
          .update({
            status,
            config: JSON.stringify(config),
            updated_at: trx.fn.now(),
            ...(status === 'archived' ? { archived_at: trx.fn.now() } : {}),
            ...(status === 'active' ? { last_activity_at: trx.fn.now() } : {}),
          });
        await recordStatusChange(trx, id, status);
        return true;
      });
    },

    /** What the last provisioning wrote into the workspace's skills directories. */
    async setSkillsInstalled(id: string, slugs: string[], trx: Knex = db): Promise<void> {
      await trx('replicas').where({ id }).update({ skills_installed: JSON.stringify(slugs) });
    },

    /** The replica now runs in a claimed warm-pool entry's container. */
    async setWorkspaceKey(id: string, key: string, trx: Knex = db): Promise<void> {
      await trx('replicas').where({ id }).update({ workspace_key: key });
    },

    /** The active workspaces placed on a worker host, with the key their container is named by. */
    async activeOnHost(hostId: string, trx: Knex = db): Promise<{ id: string; workspace_key: string | null }[]> {
      return trx('replicas').where({ host_id: hostId, status: 'active' }).whereNull('deleted_at').select('id', 'workspace_key');
    },

    /** Where the running container answers on its Docker network (null: not running). */
    async setContainerAddress(id: string, address: string | null, trx: Knex = db): Promise<void> {
      await trx('replicas').where({ id }).update({ container_address: address });
    },
  };
}

export type ReplicasRepository = ReturnType<typeof createReplicasRepository>;
