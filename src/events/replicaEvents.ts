/**
 * The replica events stream: every event is a row first (so a client reconnecting with
 * Last-Event-ID misses nothing) and a NOTIFY second (so every API process hears of it at once).
 * The notification carries only the new row's id; readers fetch rows after the last id
 * they sent, which keeps delivery ordered even when notifications bunch up.
 */
import type { Knex } from 'knex';
import type { EventBus } from './bus';

export interface ReplicaEvent {
  id: string;
  ts: string;
  type: string;
  payload: unknown;
}

export const replicaChannel = (replicaId: string) => `replica_${replicaId.replace(/-/g, '')}`;

export interface ReplicaEventEmitter {
  emit(replicaId: string, type: string, payload: unknown, trx?: Knex): Promise<ReplicaEvent>;
}

export function createReplicaEventEmitter(db: Knex, bus: EventBus): ReplicaEventEmitter {
  return {
    async emit(replicaId, type, payload, trx) {
      const [row] = await (trx ?? db)('replica_events').insert({ replica_id: replicaId, type, payload: JSON.stringify(payload) }).returning(['id', 'ts']);
      const event = { id: String(row.id), ts: new Date(row.ts).toISOString(), type, payload };
      // Inside a transaction the row is not visible until commit; notify after it.
      const notify = () => bus.publish(replicaChannel(replicaId), event.id).catch(() => undefined);
      if (trx && 'executionPromise' in trx) void (trx as Knex.Transaction).executionPromise.then(notify, () => undefined);
      else await notify();
      return event;
    },
  };
}

/** A `replica_events` row as the stream sends it. */
export function toReplicaEvent(r: { id: string | number; ts: Date; type: string; payload: unknown }): ReplicaEvent {
  return { id: String(r.id), ts: new Date(r.ts).toISOString(), type: r.type, payload: r.payload };
}

export async function readReplicaEvents(db: Knex, replicaId: string, afterId: string | null, limit = 500): Promise<ReplicaEvent[]> {
  const rows = await db('replica_events')
    .where({ replica_id: replicaId })
    .modify((q) => {
      if (afterId) q.where('id', '>', afterId);
    })
    .orderBy('id')
    .limit(limit)
    .select('id', 'ts', 'type', 'payload');
  return rows.map(toReplicaEvent);
}
