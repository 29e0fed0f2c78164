/**
 * The replica events stream: every event is a row first (so a client reconnecting with
 * Last-Event-ID misses nothing) and a NOTIFY second (so every API process hears of it at once).
 * The notification carries only the new row's id; readers fetch rows after the last id
 * they sent, which keeps delivery ordered even when notifications bunch up.
 */
import type { ReplicaEvent, ReplicaEventsRepository } from '../db/replicaEventsRepository';
import { afterCommit, type Transaction } from '../db/transaction';
import type { EventBus } from './bus';

export type { ReplicaEvent };

export const replicaChannel = (replicaId: string) => `replica_${replicaId.replace(/-/g, '')}`;

export interface ReplicaEventEmitter {
  emit(replicaId: string, type: string, payload: unknown, trx?: Transaction): Promise<ReplicaEvent>;
}

export function createReplicaEventEmitter(events: ReplicaEventsRepository, bus: EventBus): ReplicaEventEmitter {
  return {
    async emit(replicaId, type, payload, trx) {
      const event = await events.append(replicaId, type, payload, trx);
      const notify = () => bus.publish(replicaChannel(replicaId), event.id).catch(() => undefined);
      // Inside a transaction the row is not visible until commit; notify after it.
      if (trx) afterCommit(trx, notify);
      else await notify();
      return event;
    },
  };
}
