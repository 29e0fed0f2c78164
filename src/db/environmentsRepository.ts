import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { rowKeyOf, SEALED_COLUMNS, sealedField, type SealedField, type SealedTable } from '../crypto/sealedFields';
import { layersOf, type Layer } from '../domain/resolution';

export interface EnvironmentRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  name: string;
  description: string | null;
  is_global: boolean;
  repository_id: string | null;
  repository_set_id: string | null;
  system_prompt: string | null;
  personal_preferences: string | null;
  mobile_testing_enabled: boolean;
  source_environment_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface EnvironmentCounts {
  variable_count: number;
  file_count: number;
  skill_count: number;
  mcp_count: number;
}

export type EnvironmentInsert = Omit<EnvironmentRow, 'id' | 'created_at' | 'updated_at'>;
export type EnvironmentPatch = Partial<
  Pick<EnvironmentRow, 'name' | 'description' | 'repository_id' | 'repository_set_id' | 'system_prompt' | 'personal_preferences' | 'mobile_testing_enabled'>
>;

const GLOBAL_NAME = 'Global';

const COUNT_TABLES: Array<[keyof EnvironmentCounts, string]> = [
  ['variable_count', 'environment_variables'],
  ['file_count', 'environment_files'],
  ['skill_count', 'environment_skills'],
  ['mcp_count', 'environment_mcps'],
];

/**
 * Config tables copied when a team environment is created from another. A sealed column is
 * bound to its row, so its value is re-sealed for the copy's new id rather than copied.
 */
const COPIED_TABLES: Array<{ table: string; columns: string[]; sealed?: SealedTable }> = [
  { table: 'environment_variables', columns: ['key', 'value_sealed', 'personal_override_allowed'], sealed: 'environment_variables' },
  { table: 'environment_files', columns: ['name', 'path', 'content_sealed', 'size_bytes'], sealed: 'environment_files' },
  { table: 'environment_skills', columns: ['name', 'slug', 'source'] },
  { table: 'environment_mcps', columns: ['name', 'transport', 'config_sealed'], sealed: 'environment_mcps' },
];

/** Re-seals a value sealed for `from` so that it opens as `to`. */
export type Resealer = (sealed: string, from: SealedField, to: SealedField) => string;

export function createEnvironmentsRepository(db: Knex) {
  function withCounts(query: Knex.QueryBuilder, trx: Knex) {
    const columns = COUNT_TABLES.map(([alias, table]) =>
      trx(table).count('*').where(`${table}.environment_id`, trx.ref('e.id')).as(alias),
    );
    return query.select('e.*', ...columns);
  }

  function normalise(row: Record<string, unknown>): EnvironmentRow & EnvironmentCounts {
    for (const [alias] of COUNT_TABLES) row[alias] = Number(row[alias] ?? 0);
    return row as unknown as EnvironmentRow & EnvironmentCounts;
  }

  /** The organization's Global environment, or null (without creating it). */
  async function findGlobal(organizationId: string, trx: Knex = db): Promise<EnvironmentRow | null> {
    return (await trx('environments').where({ organization_id: organizationId, is_global: true }).first()) ?? null;
  }

  return {
    async insert(env: EnvironmentInsert, trx: Knex = db): Promise<EnvironmentRow> {
      const [row] = await trx('environments').insert({ id: randomUUID(), ...env }).returning('*');
      return row;
    },

    /** Idempotent under concurrency: the partial unique index keeps one Global per organization. */
    async ensureGlobal(organizationId: string, trx: Knex = db): Promise<EnvironmentRow> {
      const existing = await findGlobal(organizationId, trx);
      if (existing) return existing;
      await trx.raw(
        `INSERT INTO environments (id, organization_id, name, is_global) VALUES (?, ?, ?, true)
         ON CONFLICT (organization_id) WHERE is_global DO NOTHING`,
        [randomUUID(), organizationId, GLOBAL_NAME],
      );
      return (await findGlobal(organizationId, trx))!;
    },

    findGlobal,

    /**
     * The layers a workspace of the environment resolves (src/domain/resolution.ts), bottom
     * first; null when the environment is not the organization's.
     */
    async layers(organizationId: string, id: string, trx: Knex = db): Promise<Array<Layer<EnvironmentRow>> | null> {
      const env: EnvironmentRow | undefined = await trx('environments').where({ organization_id: organizationId, id }).first();
      if (!env) return null;
      if (env.is_global) return layersOf(env, null, null);
      const [global, source] = await Promise.all([
        findGlobal(organizationId, trx),
        env.source_environment_id ? trx('environments').where({ id: env.source_environment_id }).first() : undefined,
      ]);
      return layersOf(env, global, (source as EnvironmentRow | undefined) ?? null);
    },

    async find(organizationId: string, id: string, trx: Knex = db): Promise<EnvironmentRow | null> {
      return (await trx('environments').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    /**
     * An environment a member may pick by name (`[env:name]` in a chat-tool message): a team
     * environment, or that member's own personal one; a personal one wins. Without case.
     */
    async findByName(organizationId: string, name: string, userId: string | null, trx: Knex = db): Promise<EnvironmentRow | null> {
      const rows: EnvironmentRow[] = await trx('environments')
        .where({ organization_id: organizationId })
        .whereRaw('lower(name) = lower(?)', [name.trim()])
        .where((q) => {
          q.whereNull('user_id');
          if (userId) q.orWhere('user_id', userId);
        });
      return rows.find((r) => r.user_id !== null) ?? rows[0] ?? null;
    },

    async findWithCounts(organizationId: string, id: string, trx: Knex = db): Promise<(EnvironmentRow & EnvironmentCounts) | null> {
      const row = await withCounts(trx('environments as e').where({ 'e.organization_id': organizationId, 'e.id': id }), trx).first();
      return row ? normalise(row) : null;
    },

    async list(
      filter: { organizationId: string; team: boolean; personalUserId: string | null; limit: number; offset: number },
      trx: Knex = db,
    ): Promise<{ rows: Array<EnvironmentRow & EnvironmentCounts>; total: number }> {
      const base = () =>
        trx('environments as e')
          .where('e.organization_id', filter.organizationId)
          .where((q) => {
            if (filter.team) q.orWhereNull('e.user_id');
            if (filter.personalUserId) q.orWhere('e.user_id', filter.personalUserId);
          });
      const [{ count }] = await base().count({ count: '*' });
      const rows = await withCounts(base(), trx)
        .orderBy([{ column: 'e.is_global', order: 'desc' }, { column: 'e.created_at', order: 'asc' }, { column: 'e.id' }])
        .limit(filter.limit)
        .offset(filter.offset);
      return { rows: rows.map(normalise), total: Number(count) };
    },

    async update(organizationId: string, id: string, patch: EnvironmentPatch, trx: Knex = db): Promise<EnvironmentRow | null> {
      const [row] = await trx('environments')
        .where({ organization_id: organizationId, id })
        .update({ ...patch, updated_at: trx.fn.now() })
        .returning('*');
      return row ?? null;
    },

    async countInheritors(id: string, trx: Knex = db): Promise<number> {
      const [{ count }] = await trx('environments').where({ source_environment_id: id }).count({ count: '*' });
      return Number(count);
    },

    async delete(organizationId: string, id: string, trx: Knex = db): Promise<boolean> {
      return (await trx('environments').where({ organization_id: organizationId, id }).delete()) > 0;
    },

    /** Locks the row so a concurrent "inherit from" and "delete" cannot both pass their checks. */
    async lock(organizationId: string, id: string, trx: Knex): Promise<EnvironmentRow | null> {
      return (await trx('environments').where({ organization_id: organizationId, id }).forUpdate().first()) ?? null;
    },

    /** FOR SHARE: a concurrent delete of this environment waits until `trx` ends. */
    async lockShared(organizationId: string, id: string, trx: Knex): Promise<Pick<EnvironmentRow, 'id' | 'user_id'> | null> {
      return (await trx('environments').where({ organization_id: organizationId, id }).forShare().first('id', 'user_id')) ?? null;
    },

    /** Copies one environment's variables, files, skills, MCP servers and active hooks to another. */
    async copyConfig(fromId: string, toId: string, reseal: Resealer, trx: Knex = db): Promise<void> {
      for (const { table, columns, sealed } of COPIED_TABLES) {
        if (!sealed) {
          const cols = columns.join(', ');
          await trx.raw(
            `INSERT INTO ${table} (id, organization_id, environment_id, ${cols})
             SELECT gen_random_uuid(), organization_id, ?, ${cols} FROM ${table} WHERE environment_id = ?`,
            [toId, fromId],
          );
          continue;
        }
        const rows: Array<Record<string, unknown>> = await trx(table).where({ environment_id: fromId }).select('id', 'organization_id', ...columns);
        if (rows.length === 0) continue;
        const copies = rows.map((row) => {
          const copy: Record<string, unknown> = { ...row, id: randomUUID(), environment_id: toId };
          for (const column of SEALED_COLUMNS[sealed].columns) {
            const from = sealedField(sealed, column, rowKeyOf(sealed, row));
            copy[column] = reseal(row[column] as string, from, sealedField(sealed, column, rowKeyOf(sealed, copy)));
          }
          return copy;
        });
        await trx(table).insert(copies);
      }
      await trx.raw(
        `INSERT INTO environment_hooks (id, organization_id, environment_id, kind, version, content, is_active)
         SELECT gen_random_uuid(), organization_id, ?, kind, 1, content, true
           FROM environment_hooks WHERE environment_id = ? AND is_active`,
        [toId, fromId],
      );
    },
  };
}

export type EnvironmentsRepository = ReturnType<typeof createEnvironmentsRepository>;
