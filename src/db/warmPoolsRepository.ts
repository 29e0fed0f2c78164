/**
 * Warm pools: one config per environment (`warm_pool_configs`) and its ready workspaces
 * (`warm_pool_workspaces`), built ahead and claimed by new replicas. A config's `generation`
 * moves when its warm hook changes; older entries are stale (still claimable) until replaced.
 */
import type { Knex } from 'knex';

export interface WarmPoolRow {
  id: string;
  organization_id: string;
  environment_id: string;
  enabled: boolean;
  target_size: number;
  generation: number;
  error_count: number;
  next_retry_at: Date | null;
  last_error_at: Date | null;
  last_error_message: string | null;
  updated_at: Date;
}

/** Counts of a pool's entries: `ready_count` is the current generation's ready ones, `stale_count` older ones. */
export interface WarmPoolStats {
  ready_count: number;
  stale_count: number;
  warming_count: number;
}

export type WarmPoolEntryStatus = 'warming' | 'ready' | 'assigned' | 'expired' | 'failed';

export interface WarmPoolWorkspaceRow {
  id: string;
  organization_id: string;
  warm_pool_config_id: string;
  status: WarmPoolEntryStatus;
  generation: number;
  error_message: string | null;
  created_at: Date;
}

export interface NewWarmPoolEntry {
  id: string;
  organization_id: string;
  warm_pool_config_id: string;
  environment_id: string;
  generation: number;
  size: 'small' | 'large';
  repositories: unknown[];
  env_hash: string;
  /** The worker host that builds it (and holds its container). */
  host_id?: string;
}

/** What a replica needs of an entry to use it: same environment build, size and repositories. */
export interface ClaimCriteria {
  environmentId: string;
  size: 'small' | 'large';
  envHash: string;
  repositories: unknown[];
  replicaId: string;
  /** Only entries whose container is on this host (entries from before hosts were recorded have none and match any). */
  hostId?: string;
}

const RECENT_ENTRIES_SHOWN = 10;

export function createWarmPoolsRepository(db: Knex) {
  const entries = (configId: string, trx: Knex) => trx('warm_pool_workspaces').where({ warm_pool_config_id: configId });
  /** Of these entry ids, the ones not warming, ready or assigned (retired, or their row gone). */
  const notKept = async (trx: Knex, ids: string[]): Promise<string[]> => {
    if (ids.length === 0) return [];
    const kept = new Set<string>(await trx('warm_pool_workspaces').whereIn('id', ids).whereIn('status', ['warming', 'ready', 'assigned']).pluck('id'));
    return ids.filter((id) => !kept.has(id));
  };

  return {
    async find(configId: string, trx: Knex = db): Promise<WarmPoolRow | null> {
      return (await trx('warm_pool_configs').where({ id: configId }).first()) ?? null;
    },

    async findInOrganization(organizationId: string, configId: string, trx: Knex = db): Promise<WarmPoolRow | null> {
      return (await trx('warm_pool_configs').where({ id: configId, organization_id: organizationId }).first()) ?? null;
    },

    async findForEnvironment(environmentId: string, options: { enabledOnly?: boolean } = {}, trx: Knex = db): Promise<WarmPoolRow | null> {
      return (await trx('warm_pool_configs').where({ environment_id: environmentId, ...(options.enabledOnly ? { enabled: true } : {}) }).first()) ?? null;
    },

    /** Creates or switches the environment's pool; enabling clears its failure backoff. */
    async setEnabled(pool: { id: string; organizationId: string; environmentId: string; enabled: boolean; targetSize: number }, trx: Knex = db): Promise<WarmPoolRow> {
      const [row] = await trx('warm_pool_configs')
        .insert({ id: pool.id, organization_id: pool.organizationId, environment_id: pool.environmentId, enabled: pool.enabled, target_size: pool.targetSize })
        .onConflict('environment_id')
        .merge({
          enabled: pool.enabled,
          target_size: pool.targetSize,
          updated_at: trx.fn.now(),
          ...(pool.enabled ? { error_count: 0, next_retry_at: null } : {}),
        })
        .returning('*');
      return row as WarmPoolRow;
    },

    /** A new warm hook: the environment's pool moves to a new generation. The pool, or null when it has none. */
    async nextGeneration(environmentId: string, trx: Knex = db): Promise<WarmPoolRow | null> {
      const [row] = await trx('warm_pool_configs')
        .where({ environment_id: environmentId })
        .update({ generation: trx.raw('generation + 1'), updated_at: trx.fn.now() })
        .returning('*');
      return (row as WarmPoolRow | undefined) ?? null;
    },

    async recordSuccess(configId: string, trx: Knex = db): Promise<void> {
      await trx('warm_pool_configs').where({ id: configId }).update({ error_count: 0, next_retry_at: null });
    },

    async recordFailure(configId: string, failure: { errorCount: number; nextRetryAt: Date; message: string }, trx: Knex = db): Promise<void> {
      await trx('warm_pool_configs').where({ id: configId }).update({
        error_count: failure.errorCount,
        next_retry_at: failure.nextRetryAt,
        last_error_at: trx.fn.now(),
        last_error_message: failure.message,
      });
    },

    async stats(pool: WarmPoolRow, trx: Knex = db): Promise<WarmPoolStats> {
      const rows: Array<{ status: string; current: boolean; n: string | number }> = await entries(pool.id, trx)
        .whereIn('status', ['ready', 'warming'])
        .select('status', trx.raw('generation = ? as current', [pool.generation]))
        .count({ n: '*' })
        .groupBy('status', 'current');
      const count = (status: string, current?: boolean) =>
        rows.filter((r) => r.status === status && (current === undefined || r.current === current)).reduce((sum, r) => sum + Number(r.n), 0);
      return { ready_count: count('ready', true), stale_count: count('ready', false), warming_count: count('warming') };
    },

    async recentEntries(configId: string, trx: Knex = db): Promise<WarmPoolWorkspaceRow[]> {
      return entries(configId, trx)
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
        .limit(RECENT_ENTRIES_SHOWN);
    },

    /** Ids of the pool's entries in these states; `belowGeneration` keeps only older generations. */
    async entryIds(configId: string, filter: { statuses: WarmPoolEntryStatus[]; belowGeneration?: number; otherThanHash?: string }, trx: Knex = db): Promise<string[]> {
      return entries(configId, trx)
        .whereIn('status', filter.statuses)
        .modify((q) => {
          if (filter.belowGeneration !== undefined) q.where('generation', '<', filter.belowGeneration);
          if (filter.otherThanHash !== undefined) q.whereNot({ env_hash: filter.otherThanHash });
        })
        .pluck('id');
    },

    /**
     * Ready entries of a generation. With `liveWithinMs`, only those a claim can reach: on a host
     * running and seen within that long, or recorded before hosts were (no host).
     */
    /**
     * Ready or warming entries on hosts not seen for `silentForMs`: a host that is gone. Their
     * containers cannot be claimed or reached until it comes back.
     */
    async entryIdsOnSilentHosts(configId: string, silentForMs: number, trx: Knex = db): Promise<string[]> {
      const seen = trx('worker_hosts').select('id').where('last_seen', '>', trx.raw(`now() - (? * interval '1 millisecond')`, [silentForMs]));
      return entries(configId, trx).whereIn('status', ['ready', 'warming']).whereNotNull('host_id').whereNotIn('host_id', seen).pluck('id');
    },

    /** Ready entries of the generation beyond the `keep` newest, oldest first: a pool above its target. */
    async excessReady(configId: string, generation: number, keep: number, trx: Knex = db): Promise<string[]> {
      return entries(configId, trx)
        .where({ status: 'ready', generation })
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .offset(keep)
        .pluck('id');
    },

    /** The host holding each entry's container (null: recorded before hosts were). */
    async hostsOf(ids: string[], trx: Knex = db): Promise<Map<string, string | null>> {
      if (ids.length === 0) return new Map();
      const rows: Array<{ id: string; host_id: string | null }> = await trx('warm_pool_workspaces').whereIn('id', ids).select('id', 'host_id');
      return new Map(rows.map((r) => [r.id, r.host_id]));
    },

    /** Of these entries (the pool's own), the ones no longer warming, ready or claimed, or whose row is gone: their containers can go. */
    retiredAmong: (ids: string[], trx: Knex = db): Promise<string[]> => notKept(trx, ids),

    /**
     * Of the entries whose containers an engine holds, the retired ones this deployment may
     * remove: retired as above, and of a pool this database knows. An entry of an unknown pool
     * belongs to another deployment sharing the engine.
     */
    async retiredOfKnownPools(entries: Array<{ id: string; configId: string }>, trx: Knex = db): Promise<string[]> {
      if (entries.length === 0) return [];
      const pools = new Set<string>(await trx('warm_pool_configs').whereIn('id', [...new Set(entries.map((e) => e.configId))]).pluck('id'));
      return notKept(trx, entries.filter((e) => pools.has(e.configId)).map((e) => e.id));
    },

    async countReady(configId: string, generation: { current?: number; below?: number; liveWithinMs?: number }, trx: Knex = db): Promise<number> {
      const row = await entries(configId, trx)
        .where({ status: 'ready' })
        .modify((q) => {
          if (generation.current !== undefined) q.where({ generation: generation.current });
          if (generation.below !== undefined) q.where('generation', '<', generation.below);
          if (generation.liveWithinMs !== undefined) {
            const live = trx('worker_hosts')
              .select('id')
              .whereNull('stopped_at')
              .where('last_seen', '>', trx.raw(`now() - (? * interval '1 millisecond')`, [generation.liveWithinMs]));
            q.where((w) => void w.whereNull('host_id').orWhereIn('host_id', live));
          }
        })
        .count({ n: '*' })
        .first();
      return Number(row?.n ?? 0);
    },

    async findEntry(id: string, trx: Knex = db): Promise<(WarmPoolWorkspaceRow & { replica_id: string | null; skills_installed: string[] }) | null> {
      return (await trx('warm_pool_workspaces').where({ id }).first()) ?? null;
    },

    async insertEntry(entry: NewWarmPoolEntry, trx: Knex = db): Promise<void> {
      await trx('warm_pool_workspaces').insert({ ...entry, status: 'warming', repositories: JSON.stringify(entry.repositories) });
    },

    /**
     * A finished build, with its warm hooks' logs and the skills it got; false when the entry
     * was drained meanwhile (it is no longer `warming`).
     */
    async markReady(id: string, built: { hookLogs: unknown[]; skillsInstalled: string[] }, trx: Knex = db): Promise<boolean> {
      const updated = await trx('warm_pool_workspaces')
        .where({ id, status: 'warming' })
        .update({ status: 'ready', hook_logs: JSON.stringify(built.hookLogs), skills_installed: JSON.stringify(built.skillsInstalled), updated_at: trx.fn.now() });
      return updated > 0;
    },

    async retire(ids: string[], status: 'expired' | 'failed', error?: string, trx: Knex = db): Promise<void> {
      if (ids.length === 0) return;
      await trx('warm_pool_workspaces')
        .whereIn('id', ids)
        .update({ status, updated_at: trx.fn.now(), ...(error ? { error_message: error } : {}) });
    },

    /**
     * Takes a ready entry that fits (current generation first, then the oldest) for a replica;
     * entries other claims are taking are skipped, not waited for. The entry's id, the warm
     * hook logs and the skills it kept, or null when none fits. Run it in the transaction that
     * records the claim.
     */
    async claimReady(criteria: ClaimCriteria, trx: Knex.Transaction): Promise<{ id: string; hookLogs: unknown[]; skillsInstalled: string[] } | null> {
      const entry = await trx('warm_pool_workspaces as w')
        .join('warm_pool_configs as c', 'c.id', 'w.warm_pool_config_id')
        .where({ 'w.environment_id': criteria.environmentId, 'w.status': 'ready', 'w.size': criteria.size, 'w.env_hash': criteria.envHash, 'c.enabled': true })
        .whereRaw('w.repositories = ?::jsonb', [JSON.stringify(criteria.repositories)])
        .modify((q) => {
          if (criteria.hostId) void q.where((w) => void w.where('w.host_id', criteria.hostId!).orWhereNull('w.host_id'));
        })
        .orderByRaw('(w.generation = c.generation) desc, w.created_at')
        .forUpdate('w')
        .skipLocked()
        .first('w.id', 'w.hook_logs', 'w.skills_installed');
      if (!entry) return null;
      await trx('warm_pool_workspaces').where({ id: entry.id }).update({ status: 'assigned', replica_id: criteria.replicaId, updated_at: trx.fn.now() });
      return { id: entry.id, hookLogs: entry.hook_logs ?? [], skillsInstalled: entry.skills_installed ?? [] };
    },
  };
}

export type WarmPoolsRepository = ReturnType<typeof createWarmPoolsRepository>;
