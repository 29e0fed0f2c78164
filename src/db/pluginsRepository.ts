/**
 * Plugin installs. Every lookup carries its owner (the organization, and the member for a
 * personal install), so another member's or another organization's install is not found. Answers
 * to members are built without the sealed secret; only the code that serves a workspace opens it.
 */
import type { Knex } from 'knex';
import type { Integration, PluginKind } from '../domain/plugins';

export type SecretType = 'api_key' | 'oauth_token';

export interface PluginInstallRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  slug: string;
  name: string;
  kind: PluginKind;
  provides: Integration | null;
  /** The MCP server's config as JSON, sealed (http `{url, headers}`, stdio `{command, args, env}`); null for native plugins. */
  config_sealed: string | null;
  secret_sealed: string | null;
  secret_type: SecretType | null;
  secret_header: string | null;
  enabled: boolean;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The organization's installs (`userId: null`) or one member's own. */
export interface PluginOwner {
  organizationId: string;
  userId: string | null;
}

/** `id` is the caller's: the config and secret are sealed for it before the insert. */
export type PluginInstallWrite = Omit<PluginInstallRow, 'organization_id' | 'user_id' | 'created_at' | 'updated_at'>;
export type PluginInstallPatch = Partial<Pick<PluginInstallRow, 'name' | 'provides' | 'config_sealed' | 'secret_sealed' | 'secret_type' | 'secret_header' | 'enabled'>>;

const TABLE = 'plugin_installs';

function owned(query: Knex.QueryBuilder, owner: PluginOwner): Knex.QueryBuilder {
  query.where('organization_id', owner.organizationId);
  return owner.userId === null ? query.whereNull('user_id') : query.where('user_id', owner.userId);
}

export function createPluginsRepository(db: Knex) {
  return {
    async list(owner: PluginOwner, trx: Knex = db): Promise<PluginInstallRow[]> {
      return owned(trx(TABLE), owner).orderBy([{ column: 'slug' }, { column: 'id' }]).select('*');
    },

    async find(owner: PluginOwner, id: string, trx: Knex = db): Promise<PluginInstallRow | null> {
      return (await owned(trx(TABLE), owner).where({ id }).first()) ?? null;
    },

    /** The install locked until the transaction ends: a PATCH decides against the row it writes. */
    async lock(owner: PluginOwner, id: string, trx: Knex): Promise<PluginInstallRow | null> {
      return (await owned(trx(TABLE), owner).where({ id }).forUpdate().first()) ?? null;
    },

    /** The rows a workspace's plugins are chosen from: the organization's and its owner's (none for an ownerless workspace). */
    async forWorkspace(organizationId: string, ownerUserId: string | null, trx: Knex = db): Promise<PluginInstallRow[]> {
      return trx(TABLE)
        .where({ organization_id: organizationId })
        .where((q) => {
          q.whereNull('user_id');
          if (ownerUserId) q.orWhere('user_id', ownerUserId);
        })
        .orderBy([{ column: 'slug' }, { column: 'id' }])
        .select('*');
    },

    /** Throws the unique violation (`plugin_installs_org_slug_unique` / `_user_slug_unique`) for a slug taken in the scope. */
    async insert(owner: PluginOwner, write: PluginInstallWrite, trx: Knex = db): Promise<PluginInstallRow> {
      const [row] = await trx(TABLE)
        .insert({ organization_id: owner.organizationId, user_id: owner.userId, ...write })
        .returning('*');
      return row as PluginInstallRow;
    },

    async update(owner: PluginOwner, id: string, patch: PluginInstallPatch, trx: Knex = db): Promise<PluginInstallRow | null> {
      const [row] = await owned(trx(TABLE), owner)
        .where({ id })
        .update({ ...patch, updated_at: trx.fn.now() })
        .returning('*');
      return (row as PluginInstallRow | undefined) ?? null;
    },

    async delete(owner: PluginOwner, id: string, trx: Knex = db): Promise<boolean> {
      return (await owned(trx(TABLE), owner).where({ id }).delete()) > 0;
    },
  };
}

export type PluginsRepository = ReturnType<typeof createPluginsRepository>;
