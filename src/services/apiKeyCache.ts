/**
 * Verified API keys kept in memory, so that a request's key costs no PostgreSQL round trip.
 * Entries are found by the key's SHA-256 hash (the secret itself is never kept) and hold only
 * what authentication answers: the key's id, kind, organization, user and role.
 *
 * A key stops working everywhere within a second of its revocation: the process that revokes
 * forgets it before it answers, and tells every API process on a bus (Redis pub/sub with
 * REDIS_URL, else PostgreSQL NOTIFY; in-process with the embedded database). Three rules keep a
 * stale entry from outliving that:
 * - only keys that exist are kept (an unknown key is looked up every time, so a key minted a
 *   moment ago always works, and a flood of made-up keys cannot push real ones out);
 * - a lookup that was in flight while a change arrived is not kept (it may predate the change);
 * - the cache is trusted only while this process hears its own heartbeat on the bus: if the
 *   bus goes quiet (a dropped connection), it is emptied and bypassed until the bus is back.
 * Each entry also expires after `ttlMs`, so a change made behind the service's back (an
 * UPDATE in psql) is noticed within that time.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Config } from '../config';
import type { ActiveKey } from '../db/identityRepository';
import type { EventBus } from '../events/bus';
import { createRedisBus } from '../events/redisBus';
import type { Logger } from '../logger';

export const API_KEYS_CHANNEL = 'api_keys_changed';

/** What changed: one key, every key of a user (removed, role changed), or of an organization. */
export type KeyChange = { keyId: string } | { userId: string } | { organizationId: string };

export interface ApiKeyCache {
  /** The key with this hash when this process holds it and may trust it; no I/O. */
  peek(hash: string): ActiveKey | undefined;
  /** The held key, or `load()`'s answer, kept when it exists and nothing changed meanwhile. */
  lookup(hash: string, load: () => Promise<ActiveKey | null>): Promise<ActiveKey | null>;
  /** Forgets matching keys in this process, then tells the others. */
  announce(change: KeyChange): Promise<void>;
  close(): Promise<void>;
}

export interface ApiKeyCacheOptions {
  bus: EventBus;
  ttlMs: number;
  maxEntries: number;
  logger: Logger;
  /** How often this process pings itself on the bus (default 500 ms); four missed pings stop the cache. */
  heartbeatMs?: number;
}

type Message = { ping: string } | KeyChange;

const matches = (key: ActiveKey, change: KeyChange) =>
  'keyId' in change ? key.keyId === change.keyId : 'userId' in change ? key.userId === change.userId : key.organizationId === change.organizationId;

export function createApiKeyCache(options: ApiKeyCacheOptions): ApiKeyCache {
  const { bus, logger } = options;
  const heartbeatMs = options.heartbeatMs ?? 500;
  const keys = new LRUCache<string, ActiveKey>({ max: options.maxEntries, ttl: options.ttlMs });
  const self = randomUUID();
  /** Bumped by every change and by every loss of trust: a lookup started before it is not kept. */
  let generation = 0;
  let heardAt = Number.NEGATIVE_INFINITY;
  let closed = false;

  const forgetAll = () => {
    generation++;
    keys.clear();
  };
  const forget = (change: KeyChange) => {
    generation++;
    for (const [hash, key] of keys.entries()) if (matches(key, change)) keys.delete(hash);
  };
  const trusted = () => {
    if (performance.now() - heardAt <= heartbeatMs * 4) return true;
    if (keys.size > 0) forgetAll();
    return false;
  };

  const onMessage = (raw: string) => {
    let message: Message;
    try {
      message = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if ('ping' in message) {
      if (message.ping === self) heardAt = performance.now();
    } else forget(message);
  };
  const subscription = bus.subscribe(API_KEYS_CHANNEL, onMessage).catch((err: Error) => {
    logger.error('API key cache: cannot listen for key changes; every request reads the database', { err });
    return null;
  });
  let lastWarning = 0;
  const heartbeat = setInterval(() => {
    bus.publish(API_KEYS_CHANNEL, JSON.stringify({ ping: self })).catch((err: Error) => {
      if (Date.now() - lastWarning < 30_000) return;
      lastWarning = Date.now();
      logger.warn('API key cache: the bus does not take messages; keys are read from the database until it does', { err });
    });
  }, heartbeatMs);
  heartbeat.unref();

  return {
    peek(hash) {
      return trusted() ? keys.get(hash) : undefined;
    },

    async lookup(hash, load) {
      const held = trusted() ? keys.get(hash) : undefined;
      if (held) return held;
      const started = generation;
      const key = await load();
      if (key && started === generation && !closed && trusted()) keys.set(hash, key);
      return key;
    },

    async announce(change) {
      forget(change);
      try {
        await bus.publish(API_KEYS_CHANNEL, JSON.stringify(change));
      } catch (err) {
        // Other processes still drop the key when their entry expires (ttlMs), or at once if
        // the same outage also silences their heartbeat.
        logger.error('API key cache: could not announce a key change to the other API processes', { err: err as Error, ...change });
      }
    },

    async close() {
      closed = true;
      clearInterval(heartbeat);
      forgetAll();
      const unsubscribe = await subscription;
      await unsubscribe?.().catch(() => undefined);
    },
  };
}

/**
 * The cache the configuration asks for: none with `HANGAR_API_KEY_CACHE_SECONDS=0`; its news on
 * Redis pub/sub with REDIS_URL, else on `bus` (PostgreSQL NOTIFY, or in-process when embedded).
 */
export function openApiKeyCache(config: Pick<Config, 'apiKeyCache' | 'redisUrl' | 'redisPrefix'>, bus: EventBus, logger: Logger): ApiKeyCache | undefined {
  if (config.apiKeyCache.ttlMs === 0) return undefined;
  const log = logger.child({ component: 'api-key-cache' });
  const redisBus = config.redisUrl ? createRedisBus({ url: config.redisUrl, prefix: config.redisPrefix, logger: log }) : null;
  const cache = createApiKeyCache({ bus: redisBus ?? bus, ttlMs: config.apiKeyCache.ttlMs, maxEntries: config.apiKeyCache.maxEntries, logger: log });
  return {
    ...cache,
    async close() {
      await cache.close();
      await redisBus?.close();
    },
  };
}
