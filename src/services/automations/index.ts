/**
 * Automations: create, list, read, patch and delete, with every rule of the spec. Org vs
 * personal: an org key manages org automations and gets 403 on personal ones; a personal
 * key manages org automations and its own personal ones; anyone else's is 404.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { AgentId, ThinkingLevel } from '../../agents/catalog';
import type { SecretBox } from '../../crypto/secretBox';
import { badRequest, forbidden, HttpError, notFound } from '../../errors';
import type { EnvironmentReferenceCheck } from '../environments';
import type { TemporalGateway } from '../../temporal/gateway';
import type { Actor } from '../identity';
import { createAutomationsRepository, type AutomationRow, type AutomationWrite, type AutomationsRepository } from './repository';
import { checkCrossFieldRules, cronMirror, normaliseConfig, normaliseTriggers, type ConfigInput, type Trigger } from './rules';

export type { AutomationRow } from './repository';

export interface UpdateAutomationInput {
  name?: string;
  description?: string | null;
  triggers?: Array<{ type: string; config?: Record<string, unknown> }>;
  prompt?: string;
  debounce_seconds?: number | null;
  vcs_check_names?: string[];
  environment_id?: string;
  enabled?: boolean;
  workspace_lifecycle_policy?: string;
  workspace_auto_stop_minutes?: number | null;
  workspace_size?: string;
  config?: ConfigInput;
  agent_provider?: AgentId | null;
  model?: string | null;
  thinking_level?: ThinkingLevel | null;
  plan_mode?: boolean;
  goal_mode?: boolean | null;
  fast_mode?: boolean | null;
}

export interface CreateAutomationInput extends UpdateAutomationInput {
  name: string;
  prompt: string;
  environment_id: string;
  triggers: Array<{ type: string; config?: Record<string, unknown> }>;
  scope?: 'org' | 'user';
}

export interface ExecutionRow {
  id: string;
  automation_id: string;
  organization_id: string;
  workspace_id: string | null;
  triggered_at: Date;
  trigger_payload: Record<string, unknown>;
  status: 'pending' | 'creating' | 'running' | 'completed' | 'failed';
  config: Record<string, unknown>;
  error: string | null;
  completed_at: Date | null;
}

export function serializeExecution(row: ExecutionRow) {
  return {
    id: row.id,
    automation_id: row.automation_id,
    organization_id: row.organization_id,
    workspace_id: row.workspace_id,
    triggered_at: row.triggered_at.toISOString(),
    trigger_payload: row.trigger_payload ?? {},
    status: row.status,
    config: row.config ?? {},
    error: row.error,
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type AutomationScope = 'org' | 'user' | 'all';

export interface ListAutomationsQuery {
  page: number;
  limit: number;
  enabled?: boolean;
  search?: string;
  trigger_type: string;
  scope: AutomationScope;
}

const WEBHOOK_TOKEN_PREFIX = 'hgr_whk_';

export const hashWebhookToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Environment delete answers 409 while an automation references the environment. */
export const automationEnvironmentReferenceCheck: EnvironmentReferenceCheck = async (environmentId, trx) => {
  const n = await createAutomationsRepository(trx).countByEnvironment(environmentId, trx);
  return n > 0 ? `${n} automation(s) use this environment; move or delete them first` : null;
};

export function createAutomationsService(deps: {
  db: Knex;
  secretBox: SecretBox;
  isModelAllowed(organizationId: string, agent: AgentId, model: string): Promise<boolean>;
  /** Starts `run/{executionId}` workflows (manual triggers). */
  temporal: Pick<TemporalGateway, 'startAutomationRun' | 'automationChanged' | 'startAutomationCleanup'>;
  repo?: AutomationsRepository;
  /** How long a manual trigger waits for its run to record the workspace id. */
  triggerWaitMs?: number;
  /** Told after every committed create, update and delete (event routing caches listen). */
  onChanged?: () => Promise<void>;
}) {
  const { db, secretBox } = deps;
  const repo = deps.repo ?? createAutomationsRepository(db);

  function serialize(row: AutomationRow) {
    const hasCustom = row.triggers.some((t) => t.type === 'custom');
    return {
      id: row.id,
      organization_id: row.organization_id,
      name: row.name,
      description: row.description,
      triggers: row.triggers,
      prompt: row.prompt,
      debounce_seconds: row.debounce_seconds,
      vcs_check_names: row.vcs_check_names,
      environment_id: row.environment_id,
      enabled: row.enabled,
      webhook_token: hasCustom && row.webhook_token_sealed ? secretBox.open(row.webhook_token_sealed) : null,
      cron_expression: row.cron_expression,
      cron_timezone: row.cron_timezone,
      cron_next_fire_at: row.cron_next_fire_at ? row.cron_next_fire_at.toISOString() : null,
      user_id: row.user_id,
      created_by: row.created_by,
      workspace_auto_stop_minutes: row.workspace_auto_stop_minutes,
      config: normaliseConfig(row.config, row.config?.provisioning_error ?? null),
      model: row.model,
      plan_mode: row.plan_mode,
      goal_mode: row.goal_mode,
      fast_mode: row.fast_mode,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      workspace_lifecycle_policy: row.workspace_lifecycle_policy,
      workspace_size: row.workspace_size,
      agent_provider: row.agent_provider,
      thinking_level: row.thinking_level,
    };
  }

  /** Another organization's or another user's automation is 404; an org key on a personal one is 403. */
  async function access(actor: Actor, id: string, trx: Knex = db, lock = false): Promise<AutomationRow> {
    const row = lock ? await repo.lock(actor.organizationId, id, trx) : await repo.find(actor.organizationId, id, trx);
    if (!row) throw notFound('Automation');
    if (row.user_id !== null) {
      if (actor.keyKind === 'org') throw forbidden('Organization API keys cannot access personal automations', 'use the owner\'s personal API key');
      if (row.user_id !== actor.userId) throw notFound('Automation');
    }
    return row;
  }

  /**
   * The environment must be the organization's. A personal environment serves only a
   * personal automation of its owner: someone else's is 404, one's own on an org automation 400.
   */
  async function checkEnvironment(actor: Actor, environmentId: string, ownerId: string | null, trx: Knex) {
    const env = await trx('environments').where({ organization_id: actor.organizationId, id: environmentId }).first('id', 'user_id');
    if (!env) throw new HttpError(404, 'Environment not found', `body.environment_id: ${environmentId} is not an environment of this organization`);
    if (env.user_id === null) return;
    if (env.user_id !== actor.userId) throw new HttpError(404, 'Environment not found', `body.environment_id: ${environmentId} is not an environment of this organization`);
    if (ownerId === null) {
      throw badRequest('Invalid body', 'body.environment_id: a personal environment can only be used by a personal automation (scope user) of its owner');
    }
  }

  /** Every repository a code-hosting trigger names must be the organization's. */
  async function checkRepositories(actor: Actor, triggers: Trigger[], trx: Knex) {
    for (const [i, t] of triggers.entries()) {
      if (t.type !== 'github' && t.type !== 'gitlab') continue;
      if (t.config.repository_ids.length === 0) continue;
      const found: string[] = await trx('repositories')
        .where({ organization_id: actor.organizationId })
        .whereIn('id', t.config.repository_ids)
        .pluck('id');
      const missing = t.config.repository_ids.find((id) => !found.includes(id));
      if (missing) throw new HttpError(404, 'Repository not found', `body.triggers.${i}.config.repository_ids: ${missing} is not a repository of this organization`);
    }
  }

  /**
   * A model override must be enabled for its agent (agent_3's catalog). Checked only when the
   * request sends `model` or `agent_provider`, and outside the write transaction (the catalog
   * reads on its own connection).
   */
  async function checkModel(actor: Actor, input: UpdateAutomationInput, current: AutomationRow | null) {
    if (input.model === undefined && input.agent_provider === undefined) return;
    const model = input.model !== undefined ? input.model : current?.model ?? null;
    const agent = input.agent_provider !== undefined ? input.agent_provider : current?.agent_provider ?? null;
    if (!model || !agent) return;
    if (!(await deps.isModelAllowed(actor.organizationId, agent, model))) {
      throw badRequest('Invalid body', `body.model: ${model} is not enabled for ${agent} in this organization`);
    }
  }

  function webhookToken(): { hash: string; sealed: string } {
    const token = WEBHOOK_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { hash: hashWebhookToken(token), sealed: secretBox.seal(token) };
  }

  /**
   * Validates `input` against `current` (null on create) and returns the columns to write:
   * only the fields sent, plus what they imply (cron mirror, webhook token).
   */
  async function prepare(actor: Actor, input: UpdateAutomationInput, current: AutomationRow | null, ownerId: string | null, trx: Knex): Promise<AutomationWrite> {
    const write: AutomationWrite = {};
    const has = (k: keyof UpdateAutomationInput) => input[k] !== undefined;
    for (const k of [
      'name', 'description', 'prompt', 'debounce_seconds', 'vcs_check_names', 'environment_id', 'enabled',
      'workspace_lifecycle_policy', 'workspace_auto_stop_minutes', 'workspace_size', 'agent_provider', 'model',
      'thinking_level', 'plan_mode', 'goal_mode', 'fast_mode',
    ] as const) {
      if (has(k)) (write as Record<string, unknown>)[k] = input[k];
    }
    let triggers = current?.triggers ?? [];
    if (input.triggers) {
      triggers = normaliseTriggers(input.triggers);
      write.triggers = triggers;
    }
    if (has('config')) write.config = normaliseConfig(input.config, current?.config?.provisioning_error ?? null);

    const merged = {
      triggers,
      vcs_check_names: input.vcs_check_names ?? current?.vcs_check_names ?? [],
      agent_provider: has('agent_provider') ? input.agent_provider! : current?.agent_provider ?? null,
      model: has('model') ? input.model! : current?.model ?? null,
      thinking_level: has('thinking_level') ? input.thinking_level! : current?.thinking_level ?? null,
      plan_mode: input.plan_mode ?? current?.plan_mode ?? false,
      goal_mode: has('goal_mode') ? input.goal_mode! : current?.goal_mode ?? null,
      fast_mode: has('fast_mode') ? input.fast_mode! : current?.fast_mode ?? null,
    };
    checkCrossFieldRules(merged);
    if (has('environment_id')) await checkEnvironment(actor, input.environment_id!, ownerId, trx);
    if (input.triggers) await checkRepositories(actor, triggers, trx);

    // Cron columns mirror the trigger; the next fire is recomputed on every write.
    Object.assign(write, cronMirror(triggers));
    // The webhook token exists exactly while there is a custom trigger: removing the trigger
    // revokes it, adding one issues a fresh one.
    const hasCustom = triggers.some((t) => t.type === 'custom');
    if (hasCustom && !current?.webhook_token_hash) {
      const token = webhookToken();
      write.webhook_token_hash = token.hash;
      write.webhook_token_sealed = token.sealed;
    } else if (!hasCustom && current?.webhook_token_hash) {
      write.webhook_token_hash = null;
      write.webhook_token_sealed = null;
    }
    return write;
  }

  return {
    serialize,
    access,

    async create(actor: Actor, input: CreateAutomationInput) {
      const personal = input.scope === 'user';
      if (personal && !actor.userId) {
        throw forbidden('Organization API keys cannot create personal automations', 'use a personal API key for scope=user');
      }
      const ownerId = personal ? actor.userId : null;
      await checkModel(actor, input, null);
      const row = await db.transaction(async (trx) => {
        const { scope: _scope, ...fields } = input;
        const write = await prepare(actor, fields, null, ownerId, trx);
        return repo.insert(
          {
            ...write,
            id: randomUUID(),
            organization_id: actor.organizationId,
            user_id: ownerId,
            created_by: actor.userId,
            config: write.config ?? normaliseConfig(undefined),
          },
          trx,
        );
      });
      await deps.onChanged?.();
      await deps.temporal.automationChanged(row.id, row.organization_id);
      return serialize(row);
    },

    async list(actor: Actor, query: ListAutomationsQuery) {
      if (query.scope === 'user' && actor.keyKind === 'org') {
        throw forbidden('Organization API keys have no personal automations', 'use a personal API key for scope=user');
      }
      const search = query.search?.trim();
      const { rows, total } = await repo.list({
        organizationId: actor.organizationId,
        org: query.scope !== 'user',
        personalUserId: query.scope === 'org' ? null : actor.userId,
        enabled: query.enabled,
        search: search || undefined,
        triggerType: query.trigger_type,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { rows: rows.map(serialize), total };
    },

    get: async (actor: Actor, id: string) => serialize(await access(actor, id)),

    async update(actor: Actor, id: string, input: UpdateAutomationInput) {
      await checkModel(actor, input, await access(actor, id));
      const row = await db.transaction(async (trx) => {
        const current = await access(actor, id, trx, true);
        const write = await prepare(actor, input, current, current.user_id, trx);
        return repo.update(current.id, write, trx);
      });
      await deps.onChanged?.();
      // The schedule loop re-reads the automation at once (a new time, enabled, disabled).
      await deps.temporal.automationChanged(row.id, row.organization_id);
      return serialize(row);
    },

    /**
     * Manual fire (interop §10.5): records a `pending` execution with the payload and the
     * automation's config snapshot, starts `run/{executionId}`, then waits up to
     * `triggerWaitMs` (15 s) for the run to record its workspace — `workspace_id` is null if
     * it has not yet. Same access rules as reading the automation. A disabled automation can
     * still be fired by hand (`enabled` gates only the automatic triggers).
     */
    async trigger(actor: Actor, id: string, payload: Record<string, unknown> | undefined) {
      const row = await access(actor, id);
      const executionId = randomUUID();
      await db('automation_executions').insert({
        id: executionId,
        automation_id: row.id,
        organization_id: row.organization_id,
        trigger_payload: JSON.stringify(payload ?? {}),
        status: 'pending',
        config: JSON.stringify(normaliseConfig(row.config, null)),
      });
      try {
        await deps.temporal.startAutomationRun({ executionId, automationId: row.id, organizationId: row.organization_id });
      } catch (err) {
        await db('automation_executions')
          .where({ id: executionId })
          .update({ status: 'failed', error: `the run could not be started: ${(err as Error).message}`, completed_at: db.fn.now() });
        throw err;
      }
      const deadline = Date.now() + (deps.triggerWaitMs ?? 15_000);
      for (;;) {
        const exec = await db('automation_executions').where({ id: executionId }).first('workspace_id', 'status');
        if (exec?.workspace_id || !exec || exec.status === 'failed' || Date.now() >= deadline) {
          return { execution_id: executionId, workspace_id: (exec?.workspace_id as string | null) ?? null };
        }
        await sleep(200);
      }
    },

    /** Run history, newest first (interop §10.6). */
    async listExecutions(actor: Actor, id: string, query: { page: number; limit: number }) {
      const row = await access(actor, id);
      const base = db('automation_executions').where({ automation_id: row.id, organization_id: row.organization_id });
      const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
      const rows: ExecutionRow[] = await base
        .clone()
        .orderBy([{ column: 'triggered_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(query.limit)
        .offset((query.page - 1) * query.limit);
      return { rows: rows.map(serializeExecution), total: Number(count) };
    },

    /**
     * Deletes the automation row — from then on it is gone from every read and no trigger can
     * record anything for it — and starts `cleanup/automation/{id}`, which stops its
     * workflows and deletes its history in batches. The cleanup is started inside the
     * transaction, so a failed start leaves the automation untouched (the client sees the
     * error and may retry); the workflow itself waits for the commit.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (trx) => {
        const found = await access(actor, id, trx, true);
        await repo.delete(found.id, trx);
        await deps.temporal.startAutomationCleanup({ automationId: found.id, organizationId: found.organization_id });
      });
      await deps.onChanged?.();
    },
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
