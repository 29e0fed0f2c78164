/**
 * A small pool of started, idle, single-use sandbox containers. A run claims one (or, when
 * none is idle, the next one being started, or else a container of its own), and a
 * replacement is started in the background. Containers are never returned: whatever ran
 * in one is thrown away with it.
 *
 * Starting and removing containers is the expensive part (hundreds of milliseconds of
 * engine work each with a bridge network), so the pool keeps it off a run's critical
 * path: a replacement starts when the run ends or shortly after the claim, whichever
 * comes first, and removals of used containers (whose hook processes the runner already
 * killed) wait while replacements are starting, up to a small backlog.
 */
import type Docker from 'dockerode';
import type { Logger } from '../logger';
import { sandboxWaitDuration, secondsSince } from '../metrics';
import { removeContainer, startSandboxContainer } from './docker';

export interface PoolOptions {
  size: number;
  maxIdleMs: number;
  spec: Docker.ContainerCreateOptions;
  logger: Logger;
}

interface Idle {
  container: Docker.Container;
  readyAt: number;
}

type Waiter = (container: Docker.Container | null) => void;

const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** How long a claim's replacement may wait for the run to end before starting anyway. */
const REFILL_DELAY_MS = 300;
/** Used containers waiting for removal while replacements start; beyond this, remove now. */
const MAX_DEFERRED_REMOVALS = 8;
const REMOVAL_CONCURRENCY = 2;

export class SandboxPool {
  private idle: Idle[] = [];
  private starting = 0;
  private waiters: Waiter[] = [];
  private warmWaiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
  private readonly pending = new Set<Promise<unknown>>();
  private failures = 0;
  private lastError: unknown = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private refillTimer: NodeJS.Timeout | null = null;
  private removalQueue: Array<{ id: string; done: () => void; failed: (err: unknown) => void }> = [];
  private removing = 0;
  private readonly removals = new Set<Promise<void>>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly docker: Docker,
    private readonly options: PoolOptions,
  ) {}

  start(): void {
    if (this.options.size <= 0) return;
    this.sweepTimer = setInterval(() => this.sweep(), Math.max(1_000, this.options.maxIdleMs / 3));
    this.sweepTimer.unref();
    this.fill();
  }

  /**
   * A started container for one run; the caller hands it to `release` (or `remove`) when done.
   * `pooled` says it waited idle, so it may have died meanwhile and another claim is worth it.
   */
  async claim(): Promise<{ container: Docker.Container; pooled: boolean }> {
    const started = performance.now();
    const claimed = await this.claimOne();
    sandboxWaitDuration.observe({ source: claimed.pooled ? 'pool' : 'started' }, secondsSince(started));
    return claimed;
  }

  private async claimOne(): Promise<{ container: Docker.Container; pooled: boolean }> {
    if (this.closed) throw new Error('The sandbox runtime is closed');
    const idle = this.takeIdle();
    if (idle) return { container: idle, pooled: true };
    if (this.starting > this.waiters.length) {
      // A container already on its way is closer to ready than a new one.
      const promised = await new Promise<Docker.Container | null>((resolve) => {
        this.waiters.push(resolve);
        this.fill();
      });
      if (promised) return { container: promised, pooled: false };
      if (this.closed) throw new Error('The sandbox runtime is closed');
    }
    return { container: await this.track(startSandboxContainer(this.docker, this.options.spec)), pooled: false };
  }

  /** A run is over with its container: remove that in the background, start its replacement now. */
  release(id: string): void {
    this.discard(id);
    this.fill();
  }

  /** Removes an unusable or used container in the background. */
  discard(id: string): void {
    this.remove(id, true).catch((err: unknown) => this.options.logger.warn('sandbox removal failed', { container: short(id), err }));
  }

  /** Removes a container; `deferrable` removals yield to containers being started. */
  remove(id: string, deferrable = false): Promise<void> {
    const removed = new Promise<void>((done, failed) => this.removalQueue.push({ id, done, failed }));
    if (!deferrable) this.removalQueue.unshift(this.removalQueue.pop()!);
    this.drainRemovals(!deferrable);
    this.removals.add(removed);
    const untrack = () => this.removals.delete(removed);
    removed.then(untrack, untrack);
    return this.track(removed);
  }

  /**
   * Resolves once the pool is full and no used container is still waiting to be removed;
   * rejects with the error that keeps the pool from filling.
   */
  async warm(): Promise<void> {
    if (this.options.size > 0 && this.idle.length < this.options.size) {
      if (this.lastError && this.starting === 0) throw this.lastError;
      await new Promise<void>((resolve, reject) => this.warmWaiters.push({ resolve, reject }));
    }
    while (this.removals.size) await Promise.allSettled([...this.removals]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of [this.sweepTimer, this.retryTimer, this.refillTimer]) if (timer) clearTimeout(timer);
    for (const waiter of this.waiters.splice(0)) waiter(null);
    for (const w of this.warmWaiters.splice(0)) w.resolve();
    for (const entry of this.idle.splice(0)) this.discard(entry.container.id);
    this.drainRemovals(true);
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private takeIdle(): Docker.Container | null {
    const now = Date.now();
    let fresh: Idle | undefined;
    while ((fresh = this.idle.pop())) {
      if (now - fresh.readyAt <= this.options.maxIdleMs) break;
      this.discard(fresh.container.id);
    }
    if (fresh && !this.refillTimer) {
      this.refillTimer = setTimeout(() => {
        this.refillTimer = null;
        this.fill();
      }, REFILL_DELAY_MS);
      this.refillTimer.unref();
    } else if (!fresh) {
      this.fill();
    }
    return fresh?.container ?? null;
  }

  private sweep(): void {
    const now = Date.now();
    const stale = this.idle.filter((e) => now - e.readyAt > this.options.maxIdleMs);
    this.idle = this.idle.filter((e) => !stale.includes(e));
    for (const entry of stale) this.discard(entry.container.id);
    this.fill();
  }

  private fill(): void {
    if (this.closed || this.retryTimer) return;
    while (this.idle.length + this.starting - this.waiters.length < this.options.size) this.startOne();
  }

  private drainRemovals(now = false): void {
    const mayRemove = () =>
      now || this.closed || this.starting === 0 || this.removalQueue.length > MAX_DEFERRED_REMOVALS;
    while (this.removalQueue.length && this.removing < REMOVAL_CONCURRENCY && mayRemove()) {
      const next = this.removalQueue.shift()!;
      this.removing++;
      removeContainer(this.docker, next.id)
        .then(next.done, next.failed)
        .finally(() => {
          this.removing--;
          this.drainRemovals();
        });
    }
  }

  private startOne(): void {
    this.starting++;
    const started = startSandboxContainer(this.docker, this.options.spec).then(
      (container) => {
        this.starting--;
        this.drainRemovals();
        this.failures = 0;
        this.lastError = null;
        if (this.closed) return this.discard(container.id);
        const waiter = this.waiters.shift();
        if (waiter) return waiter(container);
        this.idle.push({ container, readyAt: Date.now() });
        if (this.idle.length >= this.options.size) for (const w of this.warmWaiters.splice(0)) w.resolve();
      },
      (err: unknown) => {
        this.starting--;
        this.drainRemovals();
        this.failures++;
        this.lastError = err;
        this.waiters.shift()?.(null);
        for (const w of this.warmWaiters.splice(0)) w.reject(err);
        if (this.closed) return;
        const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** (this.failures - 1));
        this.options.logger.warn('sandbox pool could not start a container', { err, retryInMs: delay });
        if (!this.retryTimer) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            this.fill();
          }, delay);
          this.retryTimer.unref();
        }
      },
    );
    void this.track(started);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const untrack = () => this.pending.delete(promise);
    promise.then(untrack, untrack);
    return promise;
  }
}

export const short = (id: string) => id.slice(0, 12);
