/**
 * Organization connections (`connections`) and members' linked identities
 * (`user_connections`). A lookup by id always carries the organization, so another
 * organization's row is not found; deliveries find their connection by (provider, external id),
 * GitLab's by its webhook token's keyed hash. The sealed secrets column is read only by the
 * code that opens it (receivers, adapters, the connections service).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export type ConnectionProvider = 'slack' | 'linear' | 'sentry' | 'gitlab';
export type IdentityProvider = 'slack' | 'linear' | 'github' | 'gitlab';

/** A GitLab connection's webhook token, as the keyed hash it is found by (`src/crypto/lookupHashes.ts`). */
export interface TokenHash {
  webhook_token_hash: string | null;
  webhook_token_key_id: string | null;
}

export interface ConnectionRow {
  id: string;
  organization_id: string;
  provider: ConnectionProvider;
  external_id: string;
  name: string;
  settings: Record<string, unknown>;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A connection with its sealed secrets: only for code that opens them (receivers, adapters). */
export interface SealedConnectionRow extends ConnectionRow {
  secrets_sealed: string;
}

export interface UserConnectionRow {
  id: string;
  organization_id: string;
  user_id: string;
  provider: IdentityProvider;
  external_user_id: string;
  external_name: string | null;
  email: string | null;
  linked_via: 'email' | 'explicit';
  created_at: Date;
}

const TABLE = 'connections';
const COLUMNS = ['id', 'organization_id', 'provider', 'external_id', 'name', 'settings', 'created_by', 'created_at', 'updated_at'];
const SEALED = [...COLUMNS, 'secrets_sealed'];
const USER_TABLE = 'user_connections';
const USER_COLUMNS = ['id', 'organization_id', 'user_id', 'provider', 'external_user_id', 'external_name', 'email', 'linked_via', 'created_at'];

export function createConnectionsRepository(db: Knex) {
  return {
    async list(organizationId: string, trx: Knex = db): Promise<ConnectionRow[]> {
      return trx(TABLE).where({ organization_id: organizationId }).orderBy(['provider', 'created_at']).select(COLUMNS);
    },

    async find(organizationId: string, id: string, trx: Knex = db): Promise<ConnectionRow | null> {
      return (await trx(TABLE).where({ organization_id: organizationId, id }).first(COLUMNS)) ?? null;
    },

    /** The organization's connection to a provider (one per provider). */
    async findByProvider(organizationId: string, provider: ConnectionProvider, trx: Knex = db): Promise<SealedConnectionRow | null> {
      return (await trx(TABLE).where({ organization_id: organizationId, provider }).first(SEALED)) ?? null;
    },

    /** A delivery's connection: Slack team id, Linear organization id, Sentry organization slug. */
    async findByExternalId(provider: ConnectionProvider, externalId: string, trx: Knex = db): Promise<SealedConnectionRow | null> {
      return (await trx(TABLE).where({ provider, external_id: externalId }).first(SEALED)) ?? null;
    },

    /** By id alone: for the worker, which got the id from a row of the same organization. */
    async findSealed(id: string, trx: Knex = db): Promise<SealedConnectionRow | null> {
      return (await trx(TABLE).where({ id }).first(SEALED)) ?? null;
    },

    /**
     * Every connection to a provider, sealed, up to `limit`: for a Slack url_verification, which
     * names no team and is answered only when one of the connected apps signed it.
     */
    async listSealedByProvider(provider: ConnectionProvider, limit: number, trx: Knex = db): Promise<SealedConnectionRow[]> {
      return trx(TABLE).where({ provider }).orderBy('created_at').limit(limit).select(SEALED);
    },

    /**
     * GitLab connections whose webhook token has one of these keyed hashes (one per configured
     * key, each matched only with its own key id): a delivery's candidates, before its body is read.
     */
    async findGitlabByTokenHashes(hashes: Array<{ keyId: string; hash: string }>, trx: Knex = db): Promise<SealedConnectionRow[]> {
      if (hashes.length === 0) return [];
      return trx(TABLE)
        .where({ provider: 'gitlab' })
        .whereIn('webhook_token_hash', hashes.map((h) => h.hash))
        .whereIn(['webhook_token_hash', 'webhook_token_key_id'], hashes.map((h) => [h.hash, h.keyId]))
        .orderBy('created_at')
        .select(SEALED);
    },

    /** Throws the unique violation when the organization has this provider or the external id is taken. */
    /** `id` is the caller's: the secrets are sealed for it before the insert. */
    async insert(row: Omit<SealedConnectionRow, 'created_at' | 'updated_at'> & Partial<TokenHash>, trx: Knex = db): Promise<ConnectionRow> {
      const [inserted] = await trx(TABLE)
        .insert({ ...row, settings: JSON.stringify(row.settings) })
        .returning(COLUMNS);
      return inserted as ConnectionRow;
    },

    async update(
      organizationId: string,
      id: string,
      patch: Partial<Pick<SealedConnectionRow, 'name' | 'settings' | 'secrets_sealed'> & TokenHash>,
      trx: Knex = db,
    ): Promise<ConnectionRow | null> {
      const changes: Record<string, unknown> = { updated_at: trx.fn.now() };
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.settings !== undefined) changes.settings = JSON.stringify(patch.settings);
      if (patch.secrets_sealed !== undefined) changes.secrets_sealed = patch.secrets_sealed;
      if (patch.webhook_token_hash !== undefined) changes.webhook_token_hash = patch.webhook_token_hash;
      if (patch.webhook_token_key_id !== undefined) changes.webhook_token_key_id = patch.webhook_token_key_id;
      const [row] = await trx(TABLE).where({ organization_id: organizationId, id }).update(changes).returning(COLUMNS);
      return (row as ConnectionRow | undefined) ?? null;
    },

    async delete(organizationId: string, id: string, trx: Knex = db): Promise<boolean> {
      return (await trx(TABLE).where({ organization_id: organizationId, id }).delete()) > 0;
    },

    // --- Members' identities ----------------------------------------------------------------

    async listIdentities(organizationId: string, userId: string | null, trx: Knex = db): Promise<UserConnectionRow[]> {
      const q = trx(USER_TABLE).where({ organization_id: organizationId });
      if (userId) q.andWhere({ user_id: userId });
      return q.orderBy(['provider', 'created_at']).select(USER_COLUMNS);
    },

    async findIdentity(organizationId: string, id: string, trx: Knex = db): Promise<UserConnectionRow | null> {
      return (await trx(USER_TABLE).where({ organization_id: organizationId, id }).first(USER_COLUMNS)) ?? null;
    },

    /** Who a provider identity is in this organization. */
    async identityOf(organizationId: string, provider: IdentityProvider, externalUserId: string, trx: Knex = db): Promise<UserConnectionRow | null> {
      return (await trx(USER_TABLE).where({ organization_id: organizationId, provider, external_user_id: externalUserId }).first(USER_COLUMNS)) ?? null;
    },

    /** A member's identity on a provider. */
    async identityFor(organizationId: string, userId: string, provider: IdentityProvider, trx: Knex = db): Promise<UserConnectionRow | null> {
      return (await trx(USER_TABLE).where({ organization_id: organizationId, user_id: userId, provider }).first(USER_COLUMNS)) ?? null;
    },

    /** Throws the unique violation when the identity or the member's provider is linked already. */
    async link(row: Omit<UserConnectionRow, 'id' | 'created_at'>, trx: Knex = db): Promise<UserConnectionRow> {
      const [inserted] = await trx(USER_TABLE).insert({ id: randomUUID(), ...row }).returning(USER_COLUMNS);
      return inserted as UserConnectionRow;
    },

    /** Links by email unless the identity or the member is linked already; returns the link in force. */
    async linkIfAbsent(row: Omit<UserConnectionRow, 'id' | 'created_at'>, trx: Knex = db): Promise<UserConnectionRow | null> {
      await trx(USER_TABLE).insert({ id: randomUUID(), ...row }).onConflict().ignore();
      return (await trx(USER_TABLE).where({ organization_id: row.organization_id, provider: row.provider, external_user_id: row.external_user_id }).first(USER_COLUMNS)) ?? null;
    },

    async unlink(organizationId: string, id: string, userId: string | null, trx: Knex = db): Promise<boolean> {
      const q = trx(USER_TABLE).where({ organization_id: organizationId, id });
      if (userId) q.andWhere({ user_id: userId });
      return (await q.delete()) > 0;
    },
  };
}

export type ConnectionsRepository = ReturnType<typeof createConnectionsRepository>;
