/** Opens the presence store the configuration asks for: Redis with REDIS_URL, else this process's memory. */
import type { Logger } from '../logger';
import { createMemoryPresenceStore } from './memoryStore';
import { createRedisPresenceStore } from './redisStore';
import type { PresenceStore } from './store';

export type { HeartbeatResult, PresenceInput, PresenceStore } from './store';
export { createMemoryPresenceStore, createRedisPresenceStore };

export function openPresenceStore(config: { redisUrl: string | undefined; redisPrefix: string; presenceTtlMs: number }, logger: Logger): PresenceStore {
  if (!config.redisUrl) return createMemoryPresenceStore({ ttlMs: config.presenceTtlMs });
  return createRedisPresenceStore({ url: config.redisUrl, prefix: config.redisPrefix, ttlMs: config.presenceTtlMs, logger: logger.child({ component: 'presence' }) });
}
