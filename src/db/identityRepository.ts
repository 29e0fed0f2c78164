import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ApiKeyKind } from '../crypto/apiKeys';

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface UserRow {
  id: string;
  organization_id: string;
  email: string;
  display_name: string;
  avatar_url: string | null;
  role: 'admin' | 'member';
  created_at: Date;
}

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  kind: ApiKeyKind;
  name: string;
  display_prefix: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface ActiveKey {
  keyId: string;
  kind: ApiKeyKind;
  organizationId: string;
  userId: string | null;
  role: 'admin' | 'member' | null;
  lastUsedAt: Date | null;
}

export function createIdentityRepository(db: Knex) {
  return {
    async insertOrganization(name: string, trx: Knex = db): Promise<OrganizationRow> {
      const [row] = await trx('organizations').insert({ id: randomUUID(), name }).returning('*');
      return row;
    },

    async findOrganization(id: string, trx: Knex = db): Promise<OrganizationRow | null> {
      return (await trx('organizations').where({ id }).first()) ?? null;
    },

    async insertUser(
      user: { organizationId: string; email: string; displayName: string; role: 'admin' | 'member' },
      trx: Knex = db,
    ): Promise<UserRow> {
      const [row] = await trx('users')
        .insert({
          id: randomUUID(),
          organization_id: user.organizationId,
          email: user.email,
          display_name: user.displayName,
          role: user.role,
        })
        .returning('*');
      return row;
    },

    async findUser(organizationId: string, id: string, trx: Knex = db): Promise<UserRow | null> {
      return (await trx('users').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    async insertApiKey(
      key: { organizationId: string; userId: string | null; kind: ApiKeyKind; name: string; hash: string; displayPrefix: string },
      trx: Knex = db,
    ): Promise<ApiKeyRow> {
      const [row] = await trx('api_keys')
        .insert({
          id: randomUUID(),
          organization_id: key.organizationId,
          user_id: key.userId,
          kind: key.kind,
          name: key.name,
          key_hash: key.hash,
          display_prefix: key.displayPrefix,
        })
        .returning('*');
      return row;
    },

    /** One indexed lookup per request: the key, its organization and the owner's role. */
    async findActiveKeyByHash(hash: string, trx: Knex = db): Promise<ActiveKey | null> {
      const row = await trx('api_keys as k')
        .leftJoin('users as u', 'u.id', 'k.user_id')
        .where('k.key_hash', hash)
        .whereNull('k.revoked_at')
        .first('k.id', 'k.kind', 'k.organization_id', 'k.user_id', 'k.last_used_at', 'u.role');
      if (!row) return null;
      return {
        keyId: row.id,
        kind: row.kind,
        organizationId: row.organization_id,
        userId: row.user_id,
        role: row.role ?? null,
        lastUsedAt: row.last_used_at,
      };
    },

    async touchApiKey(id: string, trx: Knex = db): Promise<void> {
      await trx('api_keys').where({ id }).update({ last_used_at: trx.fn.now() });
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
