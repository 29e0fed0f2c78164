/**
 * Skills registries of environments (`environment_skills_registries`): a lookup by id always
 * carries the organization and environment, so another environment's row is not found.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface SkillsRegistryRow {
  id: string;
  organization_id: string;
  environment_id: string;
  name: string;
  url: string;
  repository_full_name: string;
  default_branch: string;
  created_at: Date;
  updated_at: Date;
}

export type NewSkillsRegistry = Omit<SkillsRegistryRow, 'id' | 'created_at' | 'updated_at'>;

const TABLE = 'environment_skills_registries';
const COLUMNS = ['id', 'organization_id', 'environment_id', 'name', 'url', 'repository_full_name', 'default_branch', 'created_at', 'updated_at'];

export function createSkillsRegistriesRepository(db: Knex) {
  return {
    async list(environmentId: string, trx: Knex = db): Promise<SkillsRegistryRow[]> {
      return trx(TABLE).where({ environment_id: environmentId }).orderBy(['created_at', 'id']).select(COLUMNS);
    },

    /** The registries of these environments (a workspace's layers), oldest first within each. */
    async ofEnvironments(environmentIds: string[], trx: Knex = db): Promise<SkillsRegistryRow[]> {
      if (environmentIds.length === 0) return [];
      return trx(TABLE).whereIn('environment_id', environmentIds).orderBy(['environment_id', 'created_at', 'id']).select(COLUMNS);
    },

    /** Throws the unique violation when the environment already has the repository. */
    async insert(row: NewSkillsRegistry, trx: Knex = db): Promise<SkillsRegistryRow> {
      const [inserted] = await trx(TABLE)
        .insert({ id: randomUUID(), ...row, repository_key: row.repository_full_name.toLowerCase() })
        .returning(COLUMNS);
      return inserted as SkillsRegistryRow;
    },

    async delete(organizationId: string, environmentId: string, id: string, trx: Knex = db): Promise<boolean> {
      return (await trx(TABLE).where({ organization_id: organizationId, environment_id: environmentId, id }).delete()) > 0;
    },
  };
}

export type SkillsRegistriesRepository = ReturnType<typeof createSkillsRegistriesRepository>;
