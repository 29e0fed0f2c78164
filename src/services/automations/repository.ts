/** SQL for automations and their executions. jsonb values are written as JSON text. */
import type { Knex } from 'knex';
import type { AgentId, ThinkingLevel } from '../../agents/catalog';
import type { AutomationConfig, Trigger } from './rules';

export interface AutomationRow {
  id: string;
  organization_id: string;
  user_id: string | null;
  created_by: string | null;
  name: string;
  description: string | null;
  triggers: Trigger[];
  prompt: string;
  debounce_seconds: number | null;
  vcs_check_names: string[];
  environment_id: string;
  enabled: boolean;
  webhook_token_hash: string | null;
  webhook_token_sealed: string | null;
  cron_expression: string | null;
  cron_timezone: string | null;
  cron_next_fire_at: Date | null;
  workspace_lifecycle_policy: string;
  workspace_auto_stop_minutes: number | null;
  workspace_size: string;
  config: AutomationConfig;
  agent_provider: AgentId | null;
  model: string | null;
  thinking_level: ThinkingLevel | null;
  plan_mode: boolean;
  goal_mode: boolean | null;
  fast_mode: boolean | null;
  created_at: Date;
  updated_at: Date;
}

export type AutomationWrite = Partial<Omit<AutomationRow, 'created_at' | 'updated_at'>>;

const JSON_COLUMNS = ['triggers', 'vcs_check_names', 'config'] as const;

function encode(write: AutomationWrite): Record<string, unknown> {
  const out: Record<string, unknown> = { ...write };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
}

export interface ListFilter {
  organizationId: string;
  /** Org automations (user_id null) are included. */
  org: boolean;
  /** Personal automations of this user are included. */
  personalUserId: string | null;
  enabled?: boolean;
  search?: string;
  triggerType?: string;
  limit: number;
  offset: number;
}

export function createAutomationsRepository(db: Knex) {
  return {
    async insert(write: AutomationWrite, trx: Knex = db): Promise<AutomationRow> {
      const [row] = await trx('automations').insert(encode(write)).returning('*');
      return row;
    },

    async update(id: string, write: AutomationWrite, trx: Knex = db): Promise<AutomationRow> {
      const [row] = await trx('automations')
        .where({ id })
        .update({ ...encode(write), updated_at: trx.raw('clock_timestamp()') })
        .returning('*');
      return row;
    },

    async find(organizationId: string, id: string, trx: Knex = db): Promise<AutomationRow | null> {
      return (await trx('automations').where({ organization_id: organizationId, id }).first()) ?? null;
    },

    async lock(organizationId: string, id: string, trx: Knex): Promise<AutomationRow | null> {
      return (await trx('automations').where({ organization_id: organizationId, id }).forUpdate().first()) ?? null;
    },

    /** For the inbound webhook: an equality lookup on the token's hash (unique index). */
    async findByWebhookTokenHash(hash: string, trx: Knex = db): Promise<AutomationRow | null> {
      return (await trx('automations').where({ webhook_token_hash: hash }).first()) ?? null;
    },

    async list(filter: ListFilter): Promise<{ rows: AutomationRow[]; total: number }> {
      const base = db('automations')
        .where({ organization_id: filter.organizationId })
        .where((q) => {
          if (filter.org) q.orWhereNull('user_id');
          if (filter.personalUserId) q.orWhere('user_id', filter.personalUserId);
          if (!filter.org && !filter.personalUserId) q.whereRaw('false');
        });
      if (filter.enabled !== undefined) base.where('enabled', filter.enabled);
      if (filter.search) base.whereRaw("name ILIKE ? ESCAPE '\\'", [`%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
      if (filter.triggerType && filter.triggerType !== 'all') {
        base.whereRaw('triggers @> ?::jsonb', [JSON.stringify([{ type: filter.triggerType }])]);
      }
      const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
      const rows = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit).offset(filter.offset);
      return { rows, total: Number(count) };
    },

    async countByEnvironment(environmentId: string, trx: Knex = db): Promise<number> {
      const [{ count }] = await trx('automations').where({ environment_id: environmentId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },

    /** Deletes the automation row; its history is the cleanup workflow's job. */
    async delete(id: string, trx: Knex): Promise<void> {
      await trx('automations').where({ id }).delete();
    },
  };
}

export type AutomationsRepository = ReturnType<typeof createAutomationsRepository>;
