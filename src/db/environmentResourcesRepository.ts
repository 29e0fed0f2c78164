/**
 * The four environment sub-resource tables share one shape: rows scoped by organization and
 * environment, addressed by id, with secrets already sealed by the service. A lookup by id
 * always carries the environment, so another environment's row is simply not found.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface Scoped {
  id: string;
  organization_id: string;
  environment_id: string;
  created_at: Date;
}

export interface VariableRow extends Scoped {
  key: string;
  value_sealed: string;
  personal_override_allowed: boolean;
  updated_at: Date;
}

export interface FileRow extends Scoped {
  name: string;
  path: string;
  content_sealed: string;
  size_bytes: number;
  updated_at: Date;
}

export interface SkillRow extends Scoped {
  name: string;
  slug: string;
  source: string;
}

export type McpTransport = 'stdio' | 'http' | 'sse';

export interface McpRow extends Scoped {
  name: string;
  transport: McpTransport;
  config_sealed: string;
  updated_at: Date;
}

/** `id` may be chosen by the caller: a sealed value is bound to its row id before the insert. */
export type Insert<Row> = Omit<Row, 'id' | 'created_at' | 'updated_at'> & { id?: string };
export type Patch<Row> = Partial<Omit<Row, keyof Scoped | 'updated_at'>>;

/**
 * `orderBy` orders one environment's rows; `layerOrderBy` (default the same) orders the rows
 * within each environment when several environments' rows are read for a workspace.
 */
function scopedTable<Row extends Scoped>(db: Knex, table: string, options: { orderBy: string; layerOrderBy?: string; hasUpdatedAt: boolean }) {
  return {
    async list(environmentId: string, trx: Knex = db): Promise<Row[]> {
      return trx(table).where({ environment_id: environmentId }).orderBy([options.orderBy, 'id']);
    },

    /** The rows of all these environments (a workspace's layers), by environment. */
    async ofEnvironments(environmentIds: string[], trx: Knex = db): Promise<Row[]> {
      if (environmentIds.length === 0) return [];
      return trx(table)
        .whereIn('environment_id', environmentIds)
        .orderBy(['environment_id', options.layerOrderBy ?? options.orderBy, 'id']);
    },

    async find(organizationId: string, environmentId: string, id: string, trx: Knex = db): Promise<Row | null> {
      return (await trx(table).where({ organization_id: organizationId, environment_id: environmentId, id }).first()) ?? null;
    },

    async insert(row: Insert<Row>, trx: Knex = db): Promise<Row> {
      const [inserted] = await trx(table).insert({ ...row, id: row.id ?? randomUUID() }).returning('*');
      return inserted;
    },

    async update(organizationId: string, environmentId: string, id: string, patch: Patch<Row>, trx: Knex = db): Promise<Row | null> {
      const changes: Record<string, unknown> = { ...patch };
      if (options.hasUpdatedAt) changes.updated_at = trx.fn.now();
      const [row] = await trx(table)
        .where({ organization_id: organizationId, environment_id: environmentId, id })
        .update(changes)
        .returning('*');
      return row ?? null;
    },

    async delete(organizationId: string, environmentId: string, id: string, trx: Knex = db): Promise<boolean> {
      return (await trx(table).where({ organization_id: organizationId, environment_id: environmentId, id }).delete()) > 0;
    },
  };
}

export type ScopedTable<Row extends Scoped> = ReturnType<typeof scopedTable<Row>>;

export function createEnvironmentResourcesRepository(db: Knex) {
  return {
    variables: {
      ...scopedTable<VariableRow>(db, 'environment_variables', { orderBy: 'key', hasUpdatedAt: true }),

      /** The rows defining `key` in any of `environmentIds` (used for inherited keys). */
      async findByKey(environmentIds: string[], key: string, trx: Knex = db): Promise<VariableRow[]> {
        if (environmentIds.length === 0) return [];
        return trx('environment_variables').whereIn('environment_id', environmentIds).where({ key });
      },
    },
    files: {
      ...scopedTable<FileRow>(db, 'environment_files', { orderBy: 'path', hasUpdatedAt: true }),

      async paths(environmentId: string, trx: Knex = db): Promise<Array<Pick<FileRow, 'id' | 'path'>>> {
        return trx('environment_files').where({ environment_id: environmentId }).select('id', 'path');
      },
    },
    skills: scopedTable<SkillRow>(db, 'environment_skills', { orderBy: 'slug', layerOrderBy: 'name', hasUpdatedAt: false }),
    mcps: scopedTable<McpRow>(db, 'environment_mcps', { orderBy: 'name', hasUpdatedAt: true }),

    /** What these environments give a workspace, by name only: file paths and variable keys. */
    async namesOf(environmentIds: string[], trx: Knex = db): Promise<{ files: string[]; variables: string[] }> {
      const names = (table: string, column: string): Promise<string[]> =>
        environmentIds.length === 0 ? Promise.resolve([]) : trx(table).whereIn('environment_id', environmentIds).distinct(column).orderBy(column).pluck(column);
      const [files, variables] = await Promise.all([names('environment_files', 'path'), names('environment_variables', 'key')]);
      return { files, variables };
    },
  };
}

export type EnvironmentResourcesRepository = ReturnType<typeof createEnvironmentResourcesRepository>;
