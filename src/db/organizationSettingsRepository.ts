import type { Knex } from 'knex';
import type { AgentId } from '../agents/catalog';

export interface OrganizationSettingsRow {
  organization_id: string;
  default_coding_agent: AgentId;
  /** Only agents with a default; clearing one removes its key. */
  default_models: Partial<Record<AgentId, string>>;
  default_environment_id: string | null;
  /** Code-hosting threads (migration 022): the auto-responder allowlist and the CI-failure response. */
  auto_responder_logins: string[];
  auto_responder_repository_ids: string[];
  ci_failure_response: boolean;
  updated_at: Date;
}

export interface OrganizationSettingsPatch {
  default_coding_agent?: AgentId;
  /** Merged into the stored map; a null value removes that agent's default. */
  default_models?: Partial<Record<AgentId, string | null>>;
  default_environment_id?: string | null;
  /** Replace the list. */
  auto_responder_logins?: string[];
  auto_responder_repository_ids?: string[];
  ci_failure_response?: boolean;
}

export function createOrganizationSettingsRepository(db: Knex) {
  return {
    async find(organizationId: string, trx: Knex = db): Promise<OrganizationSettingsRow | null> {
      return (await trx('organization_settings').where({ organization_id: organizationId }).first()) ?? null;
    },

    /** Creates the row on first write; merges `default_models` atomically so concurrent patches of different agents both land. */
    async upsert(organizationId: string, patch: OrganizationSettingsPatch, trx: Knex = db): Promise<OrganizationSettingsRow> {
      const models = JSON.stringify(patch.default_models ?? {});
      const insert: Record<string, unknown> = {
        organization_id: organizationId,
        default_models: trx.raw('jsonb_strip_nulls(?::jsonb)', [models]),
      };
      const update: Record<string, unknown> = { updated_at: trx.fn.now() };
      if (patch.default_coding_agent !== undefined) {
        insert.default_coding_agent = patch.default_coding_agent;
        update.default_coding_agent = patch.default_coding_agent;
      }
      if (patch.default_models !== undefined) {
        update.default_models = trx.raw('jsonb_strip_nulls(organization_settings.default_models || ?::jsonb)', [models]);
      }
      if (patch.default_environment_id !== undefined) {
        insert.default_environment_id = patch.default_environment_id;
        update.default_environment_id = patch.default_environment_id;
      }
      for (const key of ['auto_responder_logins', 'auto_responder_repository_ids'] as const) {
        if (patch[key] !== undefined) insert[key] = update[key] = JSON.stringify(patch[key]);
      }
      if (patch.ci_failure_response !== undefined) insert.ci_failure_response = update.ci_failure_response = patch.ci_failure_response;
      const [row] = await trx('organization_settings').insert(insert).onConflict('organization_id').merge(update).returning('*');
      return row;
    },

    async isDefaultEnvironment(environmentId: string, trx: Knex = db): Promise<boolean> {
      return (await trx('organization_settings').where({ default_environment_id: environmentId }).first('organization_id')) !== undefined;
    },
  };
}

export type OrganizationSettingsRepository = ReturnType<typeof createOrganizationSettingsRepository>;
