/** What one client may take of an API process: event streams, request rates, and the API key cache. */
import type { BucketPolicy } from '../limits/tokenBucket';
import { ConfigError, decimal, flag, integer, section, type Reader } from './schema';

/** docs/decisions/workspaces.md, "Event stream caps and backpressure". */
export interface StreamLimits {
  /** `HANGAR_STREAMS_PER_KEY` (default 100): open streams of one API key, per API process. */
  perKey: number;
  /** `HANGAR_STREAMS_PER_ORGANIZATION` (default 500): open streams of one organization's keys, per API process. */
  perOrganization: number;
  /** `HANGAR_STREAMS_PER_PROCESS` (default 2000): open streams of one API process. */
  perProcess: number;
  /** `HANGAR_STREAM_BUFFER_KB` (default 256): unsent bytes a stream may hold for a client that does not read. */
  bufferBytes: number;
}

export interface RateLimitSettings {
  /** Per API key, and per workspace for its engine-secret and AI gateway calls (`HANGAR_RATE_LIMIT_KEY_BURST`, `…_KEY_PER_SECOND`). */
  key: BucketPolicy;
  /** Per client address, for requests without a credential (webhooks, signed links, docs) and failed authentications (`…_IP_BURST`, `…_IP_PER_SECOND`). */
  ip: BucketPolicy;
  /** Tokens a failed authentication (any 401) takes from its address's bucket (`HANGAR_RATE_LIMIT_FAILED_AUTH_COST`). */
  failedAuthCost: number;
  /** Proxies of the operator's in front of the API that append to X-Forwarded-For (`HANGAR_RATE_LIMIT_PROXY_HOPS`, default 0). */
  proxyHops: number;
}

const STREAMS = 'event streams (every `text/event-stream` operation) one API process holds open at once';
const CAP = "; past a cap 429 with `Retry-After` (docs/decisions/workspaces.md, \"Event stream caps and backpressure\")";

const variables = {
  HANGAR_STREAMS_PER_KEY: integer({ default: 100, min: 1, max: 1_000_000, description: `${STREAMS} for one API key${CAP}` }),
  HANGAR_STREAMS_PER_ORGANIZATION: integer({ default: 500, min: 1, max: 1_000_000, description: `${STREAMS} for one organization's keys${CAP}` }),
  HANGAR_STREAMS_PER_PROCESS: integer({ default: 2000, min: 1, max: 1_000_000, description: `${STREAMS} in all${CAP}` }),
  HANGAR_STREAM_BUFFER_KB: integer({
    default: 256,
    min: 16,
    max: 65_536,
    description: 'what an event stream may hold for a client that does not read before it ends with an `overflow` event (the client reconnects)',
  }),
  HANGAR_RATE_LIMIT: flag({
    default: true,
    yes: ['on', 'true', '1'],
    no: ['off', 'false', '0'],
    normalize: true,
    description: '`off` switches every request limit off (see "Rate limits")',
  }),
  HANGAR_RATE_LIMIT_KEY_BURST: integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    description:
      'token bucket per API key (and per workspace, for calls with its engine secret or AI gateway key once that credential has proved itself to the process): requests at once',
  }),
  HANGAR_RATE_LIMIT_KEY_PER_SECOND: decimal({ default: 100, min: 0.001, max: 1_000_000, description: "tokens a key's bucket regains a second (decimals allowed)" }),
  HANGAR_RATE_LIMIT_IP_BURST: integer({
    default: 1000,
    min: 1,
    max: 1_000_000,
    description:
      'token bucket per client address (IPv6: per /64) for requests without a verified credential (webhooks, signed links, the API description, a workspace credential not proved yet) and failed authentications: requests at once',
  }),
  HANGAR_RATE_LIMIT_IP_PER_SECOND: decimal({ default: 50, min: 0.001, max: 1_000_000, description: "tokens an address's bucket regains a second (decimals allowed)" }),
  HANGAR_RATE_LIMIT_FAILED_AUTH_COST: integer({
    default: 10,
    min: 1,
    max: 1_000_000,
    description: 'tokens a failed authentication (any 401) takes from its address, which may go into debt; at most the IP burst',
  }),
  HANGAR_RATE_LIMIT_PROXY_HOPS: integer({
    default: 0,
    min: 0,
    max: 10,
    description:
      "reverse proxies of yours in front of the API that append to `X-Forwarded-For`; 0 uses the connection's address, as anything further left in the header was written by the client",
  }),
  HANGAR_API_KEY_CACHE_SECONDS: integer({
    default: 60,
    min: 0,
    max: 86_400,
    description:
      'how long verified API keys are kept in memory, by hash; revocations through the API reach every process at once, so the lifetime only bounds changes made in the database by hand. 0: every request reads PostgreSQL',
  }),
  HANGAR_API_KEY_CACHE_SIZE: integer({ default: 10_000, min: 1, max: 10_000_000, description: 'verified API keys kept in memory at most' }),
};

export const limits = section('Streams, rate limits and the API key cache', variables, {}, (read) => ({
  /** Event streams an API process holds open at once, and what it buffers for a client that reads slowly. */
  streams: streamLimits(read),
  /** Token-bucket request limits per API key and per client address; null with `HANGAR_RATE_LIMIT=off`. */
  rateLimit: rateLimitSettings(read),
  /**
   * Verified API keys kept in memory (`HANGAR_API_KEY_CACHE_SECONDS`, default 60, 0: none) and how
   * many (`HANGAR_API_KEY_CACHE_SIZE`, default 10,000). Revocations reach every process at once;
   * the lifetime bounds only changes made behind the API's back (SQL by hand).
   */
  apiKeyCache: { ttlMs: read.get('HANGAR_API_KEY_CACHE_SECONDS') * 1000, maxEntries: read.get('HANGAR_API_KEY_CACHE_SIZE') },
}));

function streamLimits(read: Reader<typeof variables>): StreamLimits {
  return {
    perKey: read.get('HANGAR_STREAMS_PER_KEY'),
    perOrganization: read.get('HANGAR_STREAMS_PER_ORGANIZATION'),
    perProcess: read.get('HANGAR_STREAMS_PER_PROCESS'),
    bufferBytes: read.get('HANGAR_STREAM_BUFFER_KB') * 1024,
  };
}

/**
 * Generous by default: a key may burst 1,000 requests and keep up 100 a second; an address
 * 1,000 and 50 a second, where each failed authentication costs 10 (so about 100 wrong keys
 * in a row, then 5 a second).
 */
function rateLimitSettings(read: Reader<typeof variables>): RateLimitSettings | null {
  if (!read.get('HANGAR_RATE_LIMIT')) return null;
  const ip = { burst: read.get('HANGAR_RATE_LIMIT_IP_BURST'), perSecond: read.get('HANGAR_RATE_LIMIT_IP_PER_SECOND') };
  const failedAuthCost = read.get('HANGAR_RATE_LIMIT_FAILED_AUTH_COST');
  if (failedAuthCost > ip.burst) throw new ConfigError('HANGAR_RATE_LIMIT_FAILED_AUTH_COST must not exceed HANGAR_RATE_LIMIT_IP_BURST');
  return {
    key: { burst: read.get('HANGAR_RATE_LIMIT_KEY_BURST'), perSecond: read.get('HANGAR_RATE_LIMIT_KEY_PER_SECOND') },
    ip,
    failedAuthCost,
    proxyHops: read.get('HANGAR_RATE_LIMIT_PROXY_HOPS'),
  };
}
