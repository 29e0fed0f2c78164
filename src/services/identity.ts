/**
 * Bearer-key authentication: a key's hash identifies the actor it acts as. With a cache
 * (apiKeyCache.ts, as the API runs) a verified key is answered from memory; every change that
 * can end a key goes through here, so the cache hears of it.
 */
import { generateApiKey, hashApiKey, type ApiKeyKind } from '../crypto/apiKeys';
import type { Repositories } from '../db';
import type { ActiveKey, ApiKeyOwner, ApiKeyRow } from '../db/identityRepository';
import type { Transaction } from '../db/transaction';
import type { Actor } from '../domain/actor';
import { unauthenticated } from '../domain/errors';
import type { ApiKeyCache } from './apiKeyCache';

const TOUCH_INTERVAL_MS = 60_000;

const bearerSecret = (authorization: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

function actorOf(key: ActiveKey): Actor {
  return {
    organizationId: key.organizationId,
    userId: key.userId,
    keyKind: key.kind,
    keyId: key.keyId,
    isAdmin: key.kind === 'org' || key.role === 'admin',
  };
}

export function createIdentityService(repos: Pick<Repositories, 'identity'>, options: { cache?: ApiKeyCache } = {}) {
  const repo = repos.identity;
  const { cache } = options;
  const find = (hash: string) => (cache ? cache.lookup(hash, () => repo.findActiveKeyByHash(hash)) : repo.findActiveKeyByHash(hash));

  return {
    /** `keyHash`, when the caller already has it, is `hashApiKey` of the bearer secret in `authorization`. */
    async authenticate(authorization: string | undefined, keyHash?: string): Promise<Actor> {
      const secret = bearerSecret(authorization);
      if (!secret) throw unauthenticated(authorization ? 'expected "Authorization: Bearer <API key>"' : 'no Authorization header');
      const key = await find(keyHash ?? hashApiKey(secret));
      if (!key) throw unauthenticated('the API key is unknown or revoked');
      if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        // Best effort: a failed touch must not fail the request. A cached key remembers the
        // touch, so each process writes at most once a minute per key.
        key.lastUsedAt = new Date();
        repo.touchApiKey(key.keyId).catch(() => undefined);
      }
      return actorOf(key);
    },

    /** Whether this process holds the key with this hash as verified (no I/O): false when finding out needs the database. */
    holdsKey(keyHash: string): boolean {
      return cache?.peek(keyHash) !== undefined;
    },

    /** Mints a key; its secret appears only in this answer. `createdByKeyId` records the key that asked for it. */
    async createKey(
      input: { organizationId: string; userId: string | null; kind: ApiKeyKind; name: string; createdByKeyId?: string | null },
      trx?: Transaction,
    ): Promise<{ id: string; secret: string; row: ApiKeyRow }> {
      const generated = generateApiKey(input.kind);
      const row = await repo.insertApiKey({ ...input, hash: generated.hash, displayPrefix: generated.displayPrefix }, trx);
      return { id: row.id, secret: generated.secret, row };
    },

    /** Revokes one unrevoked key of this owner; false when there is none. Every API process stops accepting it within a second. */
    async revokeKey(owner: ApiKeyOwner, id: string, revokedByKeyId: string | null): Promise<boolean> {
      const revoked = await repo.revokeApiKey(owner, id, revokedByKeyId);
      if (revoked) await cache?.announce({ keyId: id });
      return revoked;
    },

    async close(): Promise<void> {
      await cache?.close();
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
