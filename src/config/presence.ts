/** Redis, shared by every API process (presence, rate-limit buckets, API key revocations), and presence's lifetime. */
import { ConfigError, custom, integer, section, text } from './schema';

function redisUrl(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') throw new ConfigError(`${name} must be a redis:// or rediss:// URL`);
  return raw;
}

export const presence = section(
  'Redis and presence',
  {
    REDIS_URL: custom({
      type: 'URL',
      accepts: '`redis://` or `rediss://` URL',
      description:
        "the Redis that holds presence and the rate limits' buckets for every API process, and carries API key revocations between them; unset: presence and buckets are kept in the process, which is right only for a single API process (`npm start`), and revocations travel on PostgreSQL NOTIFY",
      parse: redisUrl,
    }),
    HANGAR_REDIS_PREFIX: text({
      default: 'hangar:',
      emptyIsValue: true,
      pattern: /^[A-Za-z0-9_.:-]{1,64}$/,
      expected: '1 to 64 letters, digits, or . _ : -',
      description: 'prefix of every Redis key, so deployments (and test runs) can share one Redis',
    }),
    HANGAR_PRESENCE_TTL_SECONDS: integer({
      default: 30,
      min: 1,
      max: 3600,
      description: 'a member whose heartbeats stop is gone this long after the last one (clients send one every third of it)',
    }),
  },
  {},
  (read) => ({
    /** `REDIS_URL`: presence shared by every API process; unset: kept in this process (one-process `npm start`). */
    redisUrl: read.get('REDIS_URL'),
    /** `HANGAR_REDIS_PREFIX` (default `hangar:`): every Redis key starts with it, so deployments and test runs can share a Redis. */
    redisPrefix: read.get('HANGAR_REDIS_PREFIX'),
    /** `HANGAR_PRESENCE_TTL_SECONDS` (default 30): a member without a heartbeat this long is gone. */
    presenceTtlMs: read.get('HANGAR_PRESENCE_TTL_SECONDS') * 1000,
  }),
);
