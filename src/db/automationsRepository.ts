/** SQL for the automations table. jsonb values are written as JSON text. */
import type { Knex } from 'knex';
import type { AgentSettings, AutomationConfig, Trigger } from '../domain/automations/rules';

export interface AutomationRow extends AgentSettings {
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
  created_at: Date;
  updated_at: Date;
}

export type AutomationWrite = Partial<Omit<AutomationRow, 'created_at' | 'updated_at'>>;

/** What the event inbox reads of an automation before it records an event for it. */
export type InboxAutomation = Pick<AutomationRow, 'id' | 'organization_id' | 'name' | 'enabled' | 'debounce_seconds' | 'config'>;

/** A connected repository whose URL may be an event's, with an enabled automation listening for that event (or none). */
export interface EventRoute {
  repository_id: string;
  organization_id: string;
  url: string;
  automation_id: string | null;
  triggers: Trigger[] | null;
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

const JSON_COLUMNS = ['triggers', 'vcs_check_names', 'config'] as const;

function encode(write: AutomationWrite): Record<string, unknown> {
  const out: Record<string, unknown> = { ...write };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
}

/** `value` as a LIKE pattern matching it anywhere, its wildcards escaped. */
const containing = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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

    /** By id alone, for the worker (which acts for whichever organization owns it). */
    async findById(id: string, trx: Knex = db): Promise<AutomationRow | null> {
      return (await trx('automations').where({ id }).first()) ?? null;
    },

    async lock(organizationId: string, id: string, trx: Knex): Promise<AutomationRow | null> {
      return (await trx('automations').where({ organization_id: organizationId, id }).forUpdate().first()) ?? null;
    },

    async lockById(id: string, trx: Knex): Promise<AutomationRow | null> {
      return (await trx('automations').where({ id }).forUpdate().first()) ?? null;
    },

    /**
     * Under a shared lock, so a concurrent DELETE or PATCH waits for the event being recorded
     * and the event sees the automation as it is after them.
     */
    async lockForEvent(id: string, trx: Knex): Promise<InboxAutomation | null> {
      return (await trx('automations').where({ id }).forShare().first('id', 'organization_id', 'name', 'enabled', 'debounce_seconds', 'config')) ?? null;
    },

    /** For the inbound webhook: an equality lookup on the token's hash (unique index). */
    async findByWebhookTokenHash(hash: string, trx: Knex = db): Promise<AutomationRow | null> {
      return (await trx('automations').where({ webhook_token_hash: hash }).first()) ?? null;
    },

    async list(filter: ListFilter, trx: Knex = db): Promise<{ rows: AutomationRow[]; total: number }> {
      const base = trx('automations')
        .where({ organization_id: filter.organizationId })
        .where((q) => {
          if (filter.org) q.orWhereNull('user_id');
          if (filter.personalUserId) q.orWhere('user_id', filter.personalUserId);
          if (!filter.org && !filter.personalUserId) q.whereRaw('false');
        });
      if (filter.enabled !== undefined) base.where('enabled', filter.enabled);
      if (filter.search) base.whereRaw("name ILIKE ? ESCAPE '\\'", [containing(filter.search)]);
      if (filter.triggerType && filter.triggerType !== 'all') {
        base.whereRaw('triggers @> ?::jsonb', [JSON.stringify([{ type: filter.triggerType }])]);
      }
      const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
      const rows = await base.clone().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit).offset(filter.offset);
      return { rows, total: Number(count) };
    },

    /**
     * Connected repositories whose URL contains `repositoryName` (lower case), each with every
     * enabled automation of its organization that has a `provider` trigger for `event`. The
     * caller matches the URL exactly; the LIKE only narrows the scan.
     */
    async eventRoutes(provider: string, event: string, repositoryName: string, trx: Knex = db): Promise<EventRoute[]> {
      const { rows } = (await trx.raw(
        `SELECT r.id AS repository_id, r.organization_id, r.url, a.id AS automation_id, a.triggers
           FROM repositories r
           LEFT JOIN automations a ON a.organization_id = r.organization_id AND a.enabled AND a.triggers @> ?::jsonb
          WHERE lower(r.url) LIKE ? ESCAPE '\\'`,
        [JSON.stringify([{ type: provider, config: { event } }]), containing(repositoryName)],
      )) as { rows: EventRoute[] };
      return rows;
    },

    /** An organization's enabled automations with a `type` trigger for `event` (Sentry: the connection's organization). */
    async withEventTrigger(organizationId: string, type: string, event: string, trx: Knex = db): Promise<Pick<AutomationRow, 'id' | 'triggers'>[]> {
      return trx('automations')
        .where({ organization_id: organizationId, enabled: true })
        .whereRaw('triggers @> ?::jsonb', [JSON.stringify([{ type, config: { event } }])])
        .select('id', 'triggers');
    },

    async countByEnvironment(environmentId: string, trx: Knex = db): Promise<number> {
      const [{ count }] = await trx('automations').where({ environment_id: environmentId }).count<{ count: string }[]>({ count: '*' });
      return Number(count);
    },

    /** Moves the cron loop's next fire without touching `updated_at` (no user edit happened). */
    async setNextFire(id: string, at: Date | null, trx: Knex = db): Promise<void> {
      await trx('automations').where({ id }).update({ cron_next_fire_at: at });
    },

    /** Deletes the automation row; its history is the cleanup workflow's job. */
    async delete(id: string, trx: Knex): Promise<void> {
      await trx('automations').where({ id }).delete();
    },
  };
}

export type AutomationsRepository = ReturnType<typeof createAutomationsRepository>;
