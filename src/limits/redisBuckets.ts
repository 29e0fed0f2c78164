/**
 * Token buckets in Redis, shared by every API process (`REDIS_URL`): each step is one Lua
 * script that refills, takes and stores atomically, on Redis's own clock so that processes on
 * hosts with skewed clocks agree. Keys (`ratelimit:{bucket}`, under `HANGAR_REDIS_PREFIX`)
 * expire once the bucket would be full again.
 *
 * Two things keep a flood off Redis and the request fast:
 * - a bucket this process has seen empty is refused from memory until its next token is due
 *   (no other process can add tokens, so the answer cannot be wrong, only conservative);
 * - when Redis does not answer within `commandTimeoutMs`, this process's own buckets decide
 *   (limits then apply per process) until it is back.
 */
import { Redis, type Result } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger';
import { createMemoryBucketStore, type BucketPolicy, type BucketStore, type Verdict } from './tokenBucket';

/** ARGV: burst, tokens per second, cost, 1 to drain (never refuse; debt down to -burst). Answers {allowed, remaining, retryAfterMs, nextTokenMs}. */
const STEP = `
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = burst
if state[1] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * perMs)
end
local allowed = 1
local retry = 0
if tokens >= cost then
  tokens = tokens - cost
elseif ARGV[4] == '1' then
  tokens = math.max(-burst, tokens - cost)
else
  allowed = 0
  retry = math.ceil((cost - tokens) / perMs)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1000)
local remaining = math.max(0, math.floor(tokens))
local nextToken = 0
if remaining < burst then nextToken = math.max(1, math.ceil((remaining + 1 - tokens) / perMs)) end
return {allowed, remaining, retry, nextToken}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    rateLimitStep(key: string, burst: number, perSecond: number, cost: number, drain: 0 | 1): Result<[number, number, number, number], Context>;
  }
}

export interface RedisBucketOptions {
  url: string;
  /** `HANGAR_REDIS_PREFIX`: every key starts with it. */
  prefix: string;
  logger: Logger;
  /** A step that takes longer falls back to this process's buckets (default 250 ms). */
  commandTimeoutMs?: number;
}

export function createRedisBucketStore(options: RedisBucketOptions): BucketStore {
  const { logger } = options;
  // Fail fast rather than queue: a request waits for Redis at most the command timeout.
  const redis = new Redis(options.url, {
    keyPrefix: options.prefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 5000,
  });
  redis.defineCommand('rateLimitStep', { numberOfKeys: 1, lua: STEP });
  // A process that has just started waits for its first connection (a second at most) rather
  // than hand out fresh buckets of its own to the first requests.
  const connected = new Promise<void>((resolve) => {
    redis.once('ready', resolve);
    setTimeout(resolve, 1000).unref();
  });
  const fallback = createMemoryBucketStore();
  /** Buckets seen without a whole token, each kept until its next token is due. */
  const empty = new LRUCache<string, true>({ max: 100_000 });
  let lastWarning = 0;
  const warn = (msg: string, err: unknown) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    logger.warn(msg, { err: err as Error });
  };
  redis.on('error', (err) => warn('rate limits: Redis connection failed; limits apply per process until it is back', err));

  const remember = (bucket: string, verdict: Verdict) => {
    if (verdict.remaining === 0 && verdict.nextTokenMs > 0) empty.set(bucket, true, { ttl: verdict.nextTokenMs });
  };

  const step = async (bucket: string, policy: BucketPolicy, cost: number, drain: boolean): Promise<Verdict> => {
    let verdict: Verdict;
    try {
      await connected;
      const [allowed, remaining, retryAfterMs, nextTokenMs] = await redis.rateLimitStep(`ratelimit:${bucket}`, policy.burst, policy.perSecond, cost, drain ? 1 : 0);
      verdict = { allowed: allowed === 1, remaining, retryAfterMs, nextTokenMs };
    } catch (err) {
      warn('rate limits: Redis did not answer; this process decides alone', err);
      return drain ? fallback.drain(bucket, policy, cost) : fallback.take(bucket, policy, cost);
    }
    remember(bucket, verdict);
    return verdict;
  };

  const emptyFor = (bucket: string) => Math.ceil(empty.getRemainingTTL(bucket));

  return {
    async take(bucket, policy, cost) {
      const waitMs = emptyFor(bucket);
      if (waitMs > 0) return { allowed: false, remaining: 0, retryAfterMs: waitMs + Math.ceil(((cost - 1) * 1000) / policy.perSecond), nextTokenMs: waitMs };
      return step(bucket, policy, cost, false);
    },
    drain: (bucket, policy, cost) => step(bucket, policy, cost, true),
    emptyFor,
    async close() {
      await fallback.close();
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
