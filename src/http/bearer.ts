/**
 * The request's bearer API key, as its SHA-256 hash, worked out once per request: the rate
 * limiter chooses the key's bucket by it and authentication then finds the key by it.
 */
import type { Context } from 'koa';
import { hashApiKey } from '../crypto/apiKeys';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export const bearerSecret = (authorization: string | undefined): string | undefined => BEARER.exec(authorization ?? '')?.[1];

const hashes = new WeakMap<Context, string | null>();

/** The hash of the bearer secret of `Authorization`; null when there is none. */
export function bearerKeyHash(ctx: Context): string | null {
  let hash = hashes.get(ctx);
  if (hash === undefined) {
    const secret = bearerSecret(ctx.get('authorization'));
    hash = secret ? hashApiKey(secret) : null;
    hashes.set(ctx, hash);
  }
  return hash;
}
