/**
 * Token buckets: a bucket holds up to `burst` tokens and gains `perSecond` of them each second;
 * a request takes one (or more), and is refused while the bucket holds too few. The arithmetic
 * is here once; the stores keep the state (this process's memory, or Redis for every process).
 */
import { LRUCache } from 'lru-cache';

export interface BucketPolicy {
  burst: number;
  perSecond: number;
}

export interface Verdict {
  allowed: boolean;
  /** Whole tokens left after this request (0 also for a bucket in debt). */
  remaining: number;
  /** When refused: milliseconds until the bucket holds what was asked. 0 when allowed. */
  retryAfterMs: number;
  /** Milliseconds until the bucket holds one more whole token than `remaining` (0 when it is full). */
  nextTokenMs: number;
}

export interface BucketStore {
  /** Takes `cost` tokens when the bucket holds that many; refuses (and takes nothing) otherwise. */
  take(bucket: string, policy: BucketPolicy, cost: number): Promise<Verdict>;
  /**
   * Takes `cost` tokens and never refuses: the price of something that already happened. The
   * bucket may go into debt (down to minus its burst), which the next requests wait out.
   */
  drain(bucket: string, policy: BucketPolicy, cost: number): Promise<Verdict>;
  /** Milliseconds until the bucket holds a token, when this process already knows it is empty; else 0. No I/O. */
  emptyFor(bucket: string, policy: BucketPolicy): number;
  close(): Promise<void>;
}

export interface BucketState {
  tokens: number;
  /** Milliseconds (any monotonic clock) when `tokens` was last counted. */
  at: number;
}

/** One step of a bucket at `now`: the new state and the verdict. `state` null is a full bucket. */
export function settle(state: BucketState | null, policy: BucketPolicy, cost: number, now: number, mode: 'take' | 'drain'): { state: BucketState; verdict: Verdict } {
  const perMs = policy.perSecond / 1000;
  let tokens = state ? Math.min(policy.burst, state.tokens + Math.max(0, now - state.at) * perMs) : policy.burst;
  let allowed = true;
  let retryAfterMs = 0;
  if (tokens >= cost) tokens -= cost;
  else if (mode === 'drain') tokens = Math.max(-policy.burst, tokens - cost);
  else {
    allowed = false;
    retryAfterMs = Math.ceil((cost - tokens) / perMs);
  }
  const remaining = Math.max(0, Math.floor(tokens));
  const nextTokenMs = remaining >= policy.burst ? 0 : Math.max(1, Math.ceil((remaining + 1 - tokens) / perMs));
  return { state: { tokens, at: now }, verdict: { allowed, remaining, retryAfterMs, nextTokenMs } };
}

/** Milliseconds until an empty bucket is full again: how long its state is worth keeping. */
export const refillMs = (state: BucketState, policy: BucketPolicy) => Math.ceil(((policy.burst - state.tokens) * 1000) / policy.perSecond);

/**
 * Buckets in this process's memory: right for one API process. At most `maxBuckets` are kept;
 * a bucket is forgotten once it would be full again, since a missing bucket is a full one.
 */
export function createMemoryBucketStore(options: { maxBuckets?: number; now?: () => number } = {}): BucketStore {
  const now = options.now ?? (() => performance.now());
  const buckets = new LRUCache<string, BucketState>({ max: options.maxBuckets ?? 100_000 });
  const step = (bucket: string, policy: BucketPolicy, cost: number, mode: 'take' | 'drain') => {
    const { state, verdict } = settle(buckets.get(bucket) ?? null, policy, cost, now(), mode);
    const ttl = refillMs(state, policy);
    if (ttl > 0) buckets.set(bucket, state, { ttl });
    else buckets.delete(bucket);
    return verdict;
  };
  return {
    take: async (bucket, policy, cost) => step(bucket, policy, cost, 'take'),
    drain: async (bucket, policy, cost) => step(bucket, policy, cost, 'drain'),
    emptyFor(bucket, policy) {
      const state = buckets.get(bucket);
      if (!state) return 0;
      const tokens = state.tokens + (now() - state.at) * (policy.perSecond / 1000);
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * 1000) / policy.perSecond);
    },
    async close() {
      buckets.clear();
    },
  };
}
