/** Bearer-key authentication: a key's hash identifies the actor it acts as. */
import { generateApiKey, hashApiKey, type ApiKeyKind } from '../crypto/apiKeys';
import type { Repositories } from '../db';
import type { ApiKeyRow } from '../db/identityRepository';
import type { Transaction } from '../db/transaction';
import type { Actor } from '../domain/actor';
import { unauthenticated } from '../domain/errors';

const TOUCH_INTERVAL_MS = 60_000;

export function createIdentityService(repos: Pick<Repositories, 'identity'>) {
  const repo = repos.identity;
  return {
    async authenticate(authorization: string | undefined): Promise<Actor> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match) throw unauthenticated(authorization ? 'expected "Authorization: Bearer <API key>"' : 'no Authorization header');
      const key = await repo.findActiveKeyByHash(hashApiKey(match[1]!));
      if (!key) throw unauthenticated('the API key is unknown or revoked');
      if (!key.lastUsedAt || Date.now() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
        // Best effort: a failed touch must not fail the request.
        repo.touchApiKey(key.keyId).catch(() => undefined);
      }
      return {
        organizationId: key.organizationId,
        userId: key.userId,
        keyKind: key.kind,
        keyId: key.keyId,
        isAdmin: key.kind === 'org' || key.role === 'admin',
      };
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
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
