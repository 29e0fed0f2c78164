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
  /** The key that created or revoked this one; null when the operator CLI did it. */
  created_by_key_id: string | null;
  revoked_by_key_id: string | null;
}

/** What a key list shows: never the hash. */
export type ApiKeySummary = Pick<ApiKeyRow, 'id' | 'name' | 'display_prefix' | 'created_at' | 'last_used_at'>;

/** Whose keys: the organization's own (org keys), or one user's personal keys. */
export type ApiKeyOwner = { organizationId: string; kind: 'org' } | { organizationId: string; kind: 'personal'; userId: string };

function ownedBy(query: Knex.QueryBuilder, owner: ApiKeyOwner): Knex.QueryBuilder {
  query.where({ organization_id: owner.organizationId, kind: owner.kind });
  return owner.kind === 'org' ? query.whereNull('user_id') : query.where('user_id', owner.userId);
}

export interface ActiveKey {
  keyId: string;
  kind: ApiKeyKind;
  organizationId: string;
  userId: string | null;
  role: 'admin' | 'member' | null;
  lastUsedAt: Date | null;
}

/** Inserts one row under a fresh id and answers it as stored. */
async function insertRow<Row>(trx: Knex, table: string, values: Record<string, unknown>): Promise<Row> {
  const [row] = await trx(table).insert({ id: randomUUID(), ...values }).returning('*');
  return row;
}

export function createIdentityRepository(db: Knex) {
  return {
    async insertOrganization(name: string, trx: Knex = db): Promise<OrganizationRow> {
      return insertRow(trx, 'organizations', { name });
    },

    /** The deployment's only organization, or null when it has none or several. */
    async soleOrganization(trx: Knex = db): Promise<string | null> {
      const rows: Array<{ id: string }> = await trx('organizations').limit(2).select('id');
      return rows.length === 1 ? rows[0]!.id : null;
    },

    async findOrganization(id: string, trx: Knex = db): Promise<OrganizationRow | null> {
      return (await trx('organizations').where({ id }).first()) ?? null;
    },

    async insertUser(
      user: { organizationId: string; email: string; displayName: string; role: 'admin' | 'member' },
      trx: Knex = db,
    ): Promise<UserRow> {
      return insertRow(trx, 'users', {
        organization_id: user.organizationId,
        email: user.email,
        display_name: user.displayName,
        role: user.role,
      });
    },

    async findUser(organizationId: string, id: string, trx: Knex = db): Promise<UserRow | null> {
      return (await trx('users').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    /** A member by email, compared without case (the email they sign in with is their verified one). */
    async findUserByEmail(organizationId: string, email: string, trx: Knex = db): Promise<UserRow | null> {
      return (await trx('users').where({ organization_id: organizationId }).whereRaw('lower(email) = lower(?)', [email.trim()]).first()) ?? null;
    },

    async insertApiKey(
      key: {
        organizationId: string;
        userId: string | null;
        kind: ApiKeyKind;
        name: string;
        hash: string;
        displayPrefix: string;
        createdByKeyId?: string | null;
      },
      trx: Knex = db,
    ): Promise<ApiKeyRow> {
      return insertRow(trx, 'api_keys', {
        organization_id: key.organizationId,
        user_id: key.userId,
        kind: key.kind,
        name: key.name,
        key_hash: key.hash,
        display_prefix: key.displayPrefix,
        ...(key.createdByKeyId ? { created_by_key_id: key.createdByKeyId } : {}),
      });
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

    async updateUserProfile(
      organizationId: string,
      id: string,
      patch: { displayName?: string; avatarUrl?: string | null },
      trx: Knex = db,
    ): Promise<UserRow | null> {
      const changes: Record<string, string | null> = {};
      if (patch.displayName !== undefined) changes.display_name = patch.displayName;
      if (patch.avatarUrl !== undefined) changes.avatar_url = patch.avatarUrl;
      if (Object.keys(changes).length === 0) return (await trx('users').where({ organization_id: organizationId, id }).first()) ?? null;
      const [row] = await trx('users').where({ organization_id: organizationId, id }).update(changes).returning('*');
      return row ?? null;
    },

    /** Unrevoked keys of one owner, newest first. */
    async listActiveApiKeys(
      owner: ApiKeyOwner,
      paging: { limit: number; offset: number },
      trx: Knex = db,
    ): Promise<{ rows: ApiKeySummary[]; total: number }> {
      const base = () => ownedBy(trx('api_keys'), owner).whereNull('revoked_at');
      const [{ count }] = await base().count({ count: '*' });
      const rows = await base()
        .select('id', 'name', 'display_prefix', 'created_at', 'last_used_at')
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'asc' }])
        .limit(paging.limit)
        .offset(paging.offset);
      return { rows, total: Number(count) };
    },

    /** Revokes one unrevoked key of this owner; false when there is none (missing, revoked, not theirs). */
    async revokeApiKey(owner: ApiKeyOwner, id: string, revokedByKeyId: string | null, trx: Knex = db): Promise<boolean> {
      const revoked = await ownedBy(trx('api_keys'), owner)
        .where({ id })
        .whereNull('revoked_at')
        .update({ revoked_at: trx.fn.now(), revoked_by_key_id: revokedByKeyId })
        .returning('id');
      return revoked.length > 0;
    },
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
