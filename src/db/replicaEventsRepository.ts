/**
 * The `replica_events` table behind the events stream, and the snapshot reads the stream's
 * watermark (src/services/replicas/eventWatermark.ts) needs to know which ids are settled.
 */
import type { Knex } from 'knex';

export interface ReplicaEvent {
  id: string;
  ts: string;
  type: string;
  payload: unknown;
}

function toReplicaEvent(r: { id: string | number; ts: Date; type: string; payload: unknown }): ReplicaEvent {
  return { id: String(r.id), ts: new Date(r.ts).toISOString(), type: r.type, payload: r.payload };
}

export function createReplicaEventsRepository(db: Knex) {
  return {
    async append(replicaId: string, type: string, payload: unknown, trx: Knex = db): Promise<ReplicaEvent> {
      const [row] = await trx('replica_events').insert({ replica_id: replicaId, type, payload: JSON.stringify(payload) }).returning(['id', 'ts']);
      return { id: String(row.id), ts: new Date(row.ts).toISOString(), type, payload };
    },

    /** Events after `afterId` (exclusive) up to `upTo` (inclusive, when given), oldest first. */
    async read(replicaId: string, range: { afterId: string | null; upTo?: string; limit: number }, trx: Knex = db): Promise<ReplicaEvent[]> {
      const rows = await trx('replica_events')
        .where({ replica_id: replicaId })
        .modify((q) => {
          if (range.afterId) q.where('id', '>', range.afterId);
          if (range.upTo !== undefined) q.where('id', '<=', range.upTo);
        })
        .orderBy('id')
        .limit(range.limit)
        .select('id', 'ts', 'type', 'payload');
      return rows.map(toReplicaEvent);
    },

    /** The current snapshot and the highest event id visible in it. */
    async snapshotWithMaxId(): Promise<{ snapshot: string; maxId: bigint }> {
      const { rows } = await db.raw('SELECT pg_current_snapshot()::text AS snapshot, (SELECT coalesce(max(id), 0) FROM replica_events)::text AS max');
      return { snapshot: rows[0].snapshot, maxId: BigInt(rows[0].max) };
    },

    /** The current snapshot and the visible event ids after `afterId`, in order. */
    async snapshotWithIdsAfter(afterId: bigint, limit: number): Promise<{ snapshot: string; ids: bigint[] }> {
      const { rows } = await db.raw(
        `SELECT pg_current_snapshot()::text AS snapshot,
                ARRAY(SELECT id::text FROM replica_events WHERE id > ? ORDER BY id LIMIT ?) AS ids`,
        [afterId.toString(), limit],
      );
      return { snapshot: rows[0].snapshot, ids: (rows[0].ids as string[]).map((id) => BigInt(id)) };
    },

    /** Whether every transaction that was running in `snapshot` has ended. */
    async snapshotSettled(snapshot: string): Promise<boolean> {
      const { rows } = await db.raw(
        `SELECT coalesce(bool_and(pg_xact_status(x) IS DISTINCT FROM 'in progress'), true) AS done
           FROM pg_snapshot_xip(?::pg_snapshot) AS x`,
        [snapshot],
      );
      return rows[0].done === true;
    },
  };
}

export type ReplicaEventsRepository = ReturnType<typeof createReplicaEventsRepository>;
