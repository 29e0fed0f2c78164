/**
 * Following one replica's events: replay from a cursor, then live. A NOTIFY (carrying the new
 * row's id) only says "look again"; the rows themselves are read from `replica_events` after
 * the last id delivered and up to the process's watermark, so bunched, lost or reordered
 * notifications cannot lose, repeat or reorder an event. `poke()` looks again without a
 * notification (the heartbeat calls it, which also covers a bus reconnect).
 */
import type { ReplicaEventsRepository } from '../../db/replicaEventsRepository';
import type { EventBus } from '../../events/bus';
import { replicaChannel, type ReplicaEvent } from '../../events/replicaEvents';
import type { EventWatermark } from './eventWatermark';

export interface FollowHandle {
  poke(): void;
  stop(): Promise<void>;
}

export interface FollowOptions {
  /** Last id the client has; null starts at the live tail. */
  after: string | null;
  /** Writes a batch; the next batch waits for it (back-pressure). */
  deliver(events: ReplicaEvent[]): Promise<void>;
  onError(err: unknown): void;
}

const BATCH = 500;

export function createReplicaEventFeed(deps: { events: ReplicaEventsRepository; bus: EventBus; watermark: EventWatermark }) {
  const { events, bus, watermark } = deps;

  return {
    async follow(replicaId: string, options: FollowOptions): Promise<FollowHandle> {
      let cursor: bigint | null = options.after === null ? null : BigInt(options.after);
      let notified = 0n;
      let pumping = false;
      let again = false;
      let stopped = false;

      async function pump() {
        do {
          again = false;
          const upTo = watermark.current();
          for (;;) {
            if (stopped || cursor === null) return;
            const batch = await events.read(replicaId, { afterId: cursor.toString(), upTo: upTo.toString(), limit: BATCH });
            if (batch.length === 0) break;
            await options.deliver(batch);
            cursor = BigInt(batch[batch.length - 1]!.id);
            if (batch.length < BATCH) break;
          }
        } while (again && !stopped);
      }

      function kick() {
        if (stopped) return;
        if (pumping) {
          again = true;
          return;
        }
        pumping = true;
        pump()
          .catch((err) => {
            if (!stopped) options.onError(err);
          })
          .finally(() => {
            pumping = false;
          });
      }

      const look = () => {
        watermark.advance().then(kick, (err) => {
          if (!stopped) options.onError(err);
        });
      };

      // Subscribe before the first read, so nothing emitted in between goes unnoticed.
      const unsubscribe = await bus.subscribe(replicaChannel(replicaId), (message) => {
        if (/^\d+$/.test(message) && BigInt(message) > notified) notified = BigInt(message);
        look();
      });
      // A hole resolved by the watermark's own timer moves it without a notification.
      const offAdvance = watermark.onAdvance(() => {
        if (cursor !== null && notified > cursor) kick();
      });
      try {
        const settled = await watermark.advance();
        // Without a cursor the stream starts at the settled tail: every later row is new.
        cursor ??= settled;
      } catch (err) {
        offAdvance();
        await unsubscribe();
        throw err;
      }
      kick();

      return {
        poke: look,
        async stop() {
          if (stopped) return;
          stopped = true;
          offAdvance();
          await unsubscribe();
        },
      };
    },
  };
}

export type ReplicaEventFeed = ReturnType<typeof createReplicaEventFeed>;
