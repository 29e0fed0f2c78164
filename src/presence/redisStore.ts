/**
 * Presence in Redis, shared by every API process (`REDIS_URL`). Keys, under the configured
 * prefix (`HANGAR_REDIS_PREFIX`, applied by ioredis to every key):
 *
 * - `presence:member:{org}:{user}`: the member's entry (JSON), expiring `keepMs` after its
 *   heartbeat: each heartbeat renews it, so a member who stops writing is removed by Redis
 *   itself even if no API process is left to sweep;
 * - `presence:org:{org}`: sorted set user id → deadline, to list an organization without KEYS;
 * - `presence:deadlines`: sorted set `{org}:{user}` → deadline over every organization, which
 *   the sweep reads to find expired members.
 *
 * Readers treat an entry past its deadline as gone, whether or not it is still stored: it stays
 * `keepMs - ttl` longer only so the one process that claims it can announce where it was. Every
 * write is one Lua script, so a heartbeat and a claim of the same member never both win.
 * A single Redis (or a primary with replicas) is assumed, not Cluster: the scripts touch keys
 * of several organizations' slots.
 */
import { Redis, type Result } from 'ioredis';
import type { PresenceEntry } from '../domain/presence';
import type { Logger } from '../logger';
import type { PresenceStore } from './store';

/** Replaces the entry and moves its deadline; answers the entry it replaced (or nil). */
const HEARTBEAT = `
local previous = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return previous`;

/** Removes the member everywhere; answers the entry it removed (or nil). */
const LEAVE = `
local previous = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[2])
return previous`;

/**
 * Claims one expired member: only while its deadline is still at or before `now` (a heartbeat
 * since then moved it), and only once (the ZREM is in the same script). Answers its entry, or nil.
 */
const CLAIM = `
local deadline = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not deadline or tonumber(deadline) > tonumber(ARGV[3]) then return false end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
local entry = redis.call('GET', KEYS[3])
redis.call('DEL', KEYS[3])
return entry`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    presenceHeartbeat(member: string, org: string, deadlines: string, entry: string, deadline: number, keepMs: number, userId: string, slot: string): Result<string | null, Context>;
    presenceLeave(member: string, org: string, deadlines: string, userId: string, slot: string): Result<string | null, Context>;
    presenceClaim(deadlines: string, org: string, member: string, slot: string, userId: string, now: number): Result<string | null, Context>;
  }
}

const DEADLINES = 'presence:deadlines';
const memberKey = (organizationId: string, userId: string) => `presence:member:${organizationId}:${userId}`;
const orgKey = (organizationId: string) => `presence:org:${organizationId}`;
/** The member's name in the deadlines set (ids are UUIDs: no colon inside). */
const slotOf = (organizationId: string, userId: string) => `${organizationId}:${userId}`;

export interface RedisPresenceOptions {
  url: string;
  /** Prepended to every key, so deployments (and test runs) sharing a Redis stay apart. */
  prefix: string;
  ttlMs: number;
  /** How long an expired entry stays readable for the sweep; default the TTL again. */
  lingerMs?: number;
  logger: Logger;
}

export function createRedisPresenceStore(options: RedisPresenceOptions): PresenceStore {
  const { ttlMs, logger } = options;
  const keepMs = ttlMs + (options.lingerMs ?? ttlMs);
  // A request fails after a few reconnect attempts instead of queueing for the whole outage.
  const redis = new Redis(options.url, { keyPrefix: options.prefix, maxRetriesPerRequest: 2, connectTimeout: 5000 });
  let lastWarning = 0;
  redis.on('error', (err: Error) => {
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    logger.warn('presence: Redis connection failed', { err });
  });
  redis.defineCommand('presenceHeartbeat', { numberOfKeys: 3, lua: HEARTBEAT });
  redis.defineCommand('presenceLeave', { numberOfKeys: 3, lua: LEAVE });
  redis.defineCommand('presenceClaim', { numberOfKeys: 3, lua: CLAIM });

  const parse = (raw: string | null): PresenceEntry | null => (raw ? (JSON.parse(raw) as PresenceEntry) : null);

  return {
    async heartbeat(input, now) {
      const entry: PresenceEntry = { ...input, lastSeenAt: now, expiresAt: now + ttlMs };
      const { organizationId: org, userId } = input;
      const previous = await redis.presenceHeartbeat(memberKey(org, userId), orgKey(org), DEADLINES, JSON.stringify(entry), entry.expiresAt, keepMs, userId, slotOf(org, userId));
      return { entry, previous: parse(previous) };
    },
    async leave(organizationId, userId) {
      return parse(await redis.presenceLeave(memberKey(organizationId, userId), orgKey(organizationId), DEADLINES, userId, slotOf(organizationId, userId)));
    },
    async list(organizationId, now) {
      const userIds = await redis.zrangebyscore(orgKey(organizationId), `(${now}`, '+inf');
      if (userIds.length === 0) return [];
      const raw = await redis.mget(userIds.map((userId) => memberKey(organizationId, userId)));
      return raw.map(parse).filter((e): e is PresenceEntry => e !== null && e.expiresAt > now);
    },
    async claimExpired(now, limit) {
      const due = await redis.zrangebyscore(DEADLINES, '-inf', now, 'LIMIT', 0, limit);
      const claimed: PresenceEntry[] = [];
      for (const slot of due) {
        const [organizationId, userId] = slot.split(':') as [string, string];
        const entry = parse(await redis.presenceClaim(DEADLINES, orgKey(organizationId), memberKey(organizationId, userId), slot, userId, now));
        if (entry) claimed.push(entry);
      }
      return claimed;
    },
    async close() {
      // QUIT waits for a connection; while Redis is away there is none to close politely.
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}
