/**
 * How far the events table can be read without losing a row for good.
 *
 * `replica_events.id` comes from one sequence, but rows become visible in commit order, not
 * id order: two emitters can take ids 10 and 11 and commit 11 first. A reader that moved its
 * cursor to 11 would never see 10. So readers only read up to a watermark below which every
 * id is either visible or will never be: the watermark walks the ids in order and stops at
 * a missing one until that id appears, or until every transaction that was running when the
 * hole was seen has ended (then the id belonged to a rolled-back or deleted row).
 *
 * Why that is enough: a hole at id g seen next to a visible id v > g was allocated before v
 * committed, hence before the snapshot that saw v; so its holder was running in that snapshot
 * (`pg_snapshot_xip`) or has finished. `minGapAgeMs` covers the microseconds between an
 * INSERT taking its id and getting a transaction id; `maxGapWaitMs` bounds the wait behind a
 * transaction that never ends. One watermark serves every stream of a process, and costs one
 * indexed query per round whatever the number of listeners.
 */
import type { ReplicaEventsRepository } from '../../db/replicaEventsRepository';

export interface EventWatermark {
  /** The last settled id (0 before the first round). */
  current(): bigint;
  /**
   * Runs a round (joining one in flight, then running again) and returns the watermark; the
   * first call waits until the process has a watermark at all.
   */
  advance(): Promise<bigint>;
  /** Called whenever the watermark moves, including moves made by the hole re-check timer. */
  onAdvance(listener: () => void): () => void;
  close(): void;
}

export interface WatermarkOptions {
  /** How often a pending hole is looked at again. */
  recheckMs?: number;
  minGapAgeMs?: number;
  maxGapWaitMs?: number;
  batchSize?: number;
}

interface Pending {
  /** First missing id (or, while booting, the candidate watermark). */
  at: bigint;
  snapshot: string;
  since: number;
}

export function createEventWatermark(events: ReplicaEventsRepository, options: WatermarkOptions = {}): EventWatermark {
  const recheckMs = options.recheckMs ?? 25;
  const minGapAgeMs = options.minGapAgeMs ?? 100;
  const maxGapWaitMs = options.maxGapWaitMs ?? 10_000;
  const batchSize = options.batchSize ?? 2000;

  let settled: bigint | null = null;
  let boot: Pending | null = null;
  let gap: Pending | null = null;
  let running: Promise<void> | null = null;
  let rerun = false;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const listeners = new Set<() => void>();

  async function settles(pending: Pending): Promise<boolean> {
    const age = Date.now() - pending.since;
    if (age >= maxGapWaitMs) return true;
    return age >= minGapAgeMs && (await events.snapshotSettled(pending.snapshot));
  }

  async function round(): Promise<boolean> {
    let moved = false;
    if (settled === null) {
      if (!boot) {
        const { snapshot, maxId } = await events.snapshotWithMaxId();
        boot = { at: maxId, snapshot, since: Date.now() };
      }
      // Nothing can be read before the first watermark, so the first round waits for it.
      while (!(await settles(boot))) await new Promise((resolve) => setTimeout(resolve, recheckMs));
      settled = boot.at;
      boot = null;
      moved = true;
    }
    for (;;) {
      const { snapshot, ids } = await events.snapshotWithIdsAfter(settled, batchSize);
      let blocked = false;
      for (const id of ids) {
        const next: bigint = settled + 1n;
        if (id !== next) {
          if (!gap || gap.at !== next) gap = { at: next, snapshot, since: Date.now() };
          if (!(await settles(gap))) {
            blocked = true;
            break;
          }
        }
        gap = null;
        settled = id;
        moved = true;
      }
      if (blocked || ids.length < batchSize) return moved;
    }
  }

  function schedule() {
    if (timer || closed || listeners.size === 0 || (!gap && settled !== null)) return;
    timer = setTimeout(() => {
      timer = null;
      advance().catch(() => undefined);
    }, recheckMs);
    timer.unref();
  }

  function advance(): Promise<bigint> {
    if (running) {
      rerun = true;
    } else {
      running = (async () => {
        try {
          do {
            rerun = false;
            if (await round()) for (const listener of [...listeners]) listener();
          } while (rerun && !closed);
        } finally {
          running = null;
          schedule();
        }
      })();
    }
    return running.then(() => settled ?? 0n);
  }

  return {
    current: () => settled ?? 0n,
    advance,
    onAdvance(listener) {
      listeners.add(listener);
      schedule();
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      listeners.clear();
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
