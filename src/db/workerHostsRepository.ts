/**
 * The `worker_hosts` table: the Docker hosts whose workers are running, and placement of new
 * workspaces on them (docs/decisions/hosts.md, "Workspaces pinned to worker hosts").
 */
import type { Knex } from 'knex';

export interface WorkerHostRow {
  id: string;
  task_queue: string;
  capacity: number | null;
  /** Its preview relay's URL (`HANGAR_WORKER_RELAY_URL`); null: none. */
  relay_url: string | null;
  last_seen: Date;
  stopped_at: Date | null;
}

export interface HostLoad {
  id: string;
  taskQueue: string;
  capacity: number | null;
  /** Running workspaces (preparing, active) and unclaimed warm-pool entries (warming, ready). */
  load: number;
  /** Ready warm-pool entries of the environment asked about. */
  warm: number;
}

/** Statuses of a replica whose container runs (or is being made) on its host. */
const RUNNING = ['preparing', 'active'];

/**
 * The host to use among live ones: one with room, preferring one that holds a ready warm entry
 * of the environment (so the claim finds it there), then the least loaded, then by id.
 */
export function chooseHost(hosts: HostLoad[]): HostLoad | null {
  const open = hosts.filter((h) => h.capacity === null || h.load < h.capacity);
  open.sort((a, b) => Number(b.warm > 0) - Number(a.warm > 0) || a.load - b.load || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return open[0] ?? null;
}

export function createWorkerHostsRepository(db: Knex) {
  /** Live hosts, locked for this transaction so that concurrent placements see each other's choices. */
  async function liveHosts(trx: Knex.Transaction, windowMs: number, environmentId: string | null): Promise<HostLoad[]> {
    const rows: WorkerHostRow[] = await trx('worker_hosts')
      .whereNull('stopped_at')
      .where('last_seen', '>', trx.raw(`now() - (? * interval '1 millisecond')`, [windowMs]))
      .orderBy('id')
      .forUpdate()
      .select('*');
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const counts = async (q: Knex.QueryBuilder): Promise<Map<string, number>> => {
      const rows = (await q.groupBy('host_id').select('host_id').count('* as n')) as Array<{ host_id: string; n: string | number }>;
      return new Map(rows.map((r) => [r.host_id, Number(r.n)]));
    };
    const replicas = await counts(trx('replicas').whereIn('host_id', ids).whereIn('status', RUNNING).whereNull('deleted_at'));
    const entries = await counts(trx('warm_pool_workspaces').whereIn('host_id', ids).whereIn('status', ['warming', 'ready']));
    const warm = environmentId ? await counts(trx('warm_pool_workspaces').whereIn('host_id', ids).where({ status: 'ready', environment_id: environmentId })) : new Map<string, number>();
    return rows.map((r) => ({
      id: r.id,
      taskQueue: r.task_queue,
      capacity: r.capacity,
      load: (replicas.get(r.id) ?? 0) + (entries.get(r.id) ?? 0),
      warm: warm.get(r.id) ?? 0,
    }));
  }

  return {
    /** A worker's start and each heartbeat: the host is live, with this queue, limit and preview relay. */
    async heartbeat(host: { id: string; taskQueue: string; capacity: number | null; relayUrl?: string | null }): Promise<void> {
      const fields = { task_queue: host.taskQueue, capacity: host.capacity, relay_url: host.relayUrl ?? null, last_seen: db.fn.now(), stopped_at: null };
      await db('worker_hosts')
        .insert({ id: host.id, ...fields })
        .onConflict('id')
        .merge(fields);
    },

    /** A worker shutting down cleanly: no new workspace goes there (another worker of the host clears it at its next heartbeat). */
    async markStopped(id: string): Promise<void> {
      await db('worker_hosts').where({ id }).update({ stopped_at: db.fn.now() });
    },

    /** How many hosts were seen within `windowMs`, stopped or not: the deployment's hosts. */
    async countRecent(windowMs: number): Promise<number> {
      const row = await db('worker_hosts').where('last_seen', '>', db.raw(`now() - (? * interval '1 millisecond')`, [windowMs])).count<{ count: string }[]>('* as count');
      return Number(row[0]?.count ?? 0);
    },

    async find(id: string): Promise<WorkerHostRow | null> {
      return (await db('worker_hosts').where({ id }).first()) ?? null;
    },

    /** The host when it is running and was seen within `windowMs`. */
    async findLive(id: string, windowMs: number): Promise<WorkerHostRow | null> {
      return (
        (await db('worker_hosts')
          .where({ id })
          .whereNull('stopped_at')
          .where('last_seen', '>', db.raw(`now() - (? * interval '1 millisecond')`, [windowMs]))
          .first()) ?? null
      );
    },

    async list(): Promise<WorkerHostRow[]> {
      return db('worker_hosts').orderBy('id').select('*');
    },

    /**
     * Places a replica: its recorded host when it has one (a retried placement, or a workspace
     * placed before), else the chosen live host, recorded on the row. Null when no live host
     * has room.
     */
    async placeReplica(replicaId: string, options: { windowMs: number; environmentId: string | null }): Promise<{ id: string; taskQueue: string } | null> {
      return db.transaction(async (trx) => {
        const row = await trx('replicas').where({ id: replicaId }).forUpdate().first('host_id');
        if (!row) return null;
        if (row.host_id) {
          const host = await trx('worker_hosts').where({ id: row.host_id }).first('id', 'task_queue');
          if (host) return { id: host.id, taskQueue: host.task_queue };
        }
        const chosen = chooseHost(await liveHosts(trx, options.windowMs, options.environmentId));
        if (!chosen) return null;
        await trx('replicas').where({ id: replicaId }).update({ host_id: chosen.id });
        return { id: chosen.id, taskQueue: chosen.taskQueue };
      });
    },

    /**
     * Moves a replica off a lost host: the chosen live host other than `lostHostId`, recorded on
     * the row. A retry after the move returns the host already chosen. Null when no other live
     * host has room (or the replica is gone).
     */
    async replaceReplica(replicaId: string, options: { lostHostId: string; windowMs: number; environmentId: string | null }): Promise<{ id: string; taskQueue: string } | null> {
      return db.transaction(async (trx) => {
        const row = await trx('replicas').where({ id: replicaId }).whereNull('deleted_at').forUpdate().first('host_id');
        if (!row) return null;
        if (row.host_id && row.host_id !== options.lostHostId) {
          const host = await trx('worker_hosts').where({ id: row.host_id }).first('id', 'task_queue');
          if (host) return { id: host.id, taskQueue: host.task_queue };
        }
        const hosts = (await liveHosts(trx, options.windowMs, options.environmentId)).filter((h) => h.id !== options.lostHostId);
        const chosen = chooseHost(hosts);
        if (!chosen) return null;
        await trx('replicas').where({ id: replicaId }).update({ host_id: chosen.id });
        return { id: chosen.id, taskQueue: chosen.taskQueue };
      });
    },

    /**
     * Of the workspace containers `keys` (replica ids, or warm-pool entry ids a replica claimed)
     * found on `hostId`'s engine, those whose replica now lives on another host.
     */
    async movedAway(hostId: string, keys: string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const rows: Array<{ id: string; workspace_key: string | null }> = await db('replicas')
        .where((q) => q.whereIn('id', keys).orWhereIn('workspace_key', keys))
        .whereNotNull('host_id')
        .whereNot('host_id', hostId)
        .select('id', 'workspace_key');
      return rows.map((r) => r.workspace_key ?? r.id).filter((key) => keys.includes(key));
    },

    /** A host for a new warm-pool entry (the build records the entry's host itself). */
    async placeWarmEntry(options: { windowMs: number }): Promise<{ id: string; taskQueue: string } | null> {
      return db.transaction(async (trx) => {
        const chosen = chooseHost(await liveHosts(trx, options.windowMs, null));
        return chosen ? { id: chosen.id, taskQueue: chosen.taskQueue } : null;
      });
    },
  };
}

export type WorkerHostsRepository = ReturnType<typeof createWorkerHostsRepository>;
