/** Opens the bucket store the configuration asks for: Redis with REDIS_URL (every API process), else this process's memory. */
import type { Logger } from '../logger';
import { createRedisBucketStore } from './redisBuckets';
import { createMemoryBucketStore, type BucketStore } from './tokenBucket';

export { clientAddress } from './clientAddress';
export type { BucketPolicy, BucketStore, Verdict } from './tokenBucket';
export { createMemoryBucketStore, createRedisBucketStore };

export function openBucketStore(config: { redisUrl: string | undefined; redisPrefix: string }, logger: Logger): BucketStore {
  if (!config.redisUrl) return createMemoryBucketStore();
  return createRedisBucketStore({ url: config.redisUrl, prefix: config.redisPrefix, logger: logger.child({ component: 'rate-limits' }) });
}
