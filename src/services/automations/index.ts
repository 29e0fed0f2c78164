/**
 * Automations: create, list, read, patch and delete, with every rule of the spec. Org vs
 * personal: an org key manages org automations and gets 403 on personal ones; a personal
 * key manages org automations and its own personal ones; anyone else's is 404.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentId } from '../../agents/catalog';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories, Transaction } from '../../db';
import type { AutomationRow, AutomationWrite, AutomationsRepository } from '../../db/automationsRepository';
import type { Actor } from '../../domain/actor';
import { hashWebhookToken } from '../../domain/automations/events';
import { checkCrossFieldRules, cronMirror, normaliseConfig, normaliseTriggers } from '../../domain/automations/rules';
import { forbidden, notFound } from '../../domain/errors';
import { automationRuns } from '../../metrics';
import type { WorkflowControl } from '../../temporal/workflowControl';
import type { EnvironmentReferenceCheck } from '../environments';
import type { GithubPullRequestReader } from '../../integrations/github/pulls';
import { createPullRequestContext, type ManualPullRequest } from './pullRequestContext';
import { createAutomationReferenceChecks } from './references';
import { serializeAutomation, serializeExecution, webhookTokenField } from './serialize';
import type { CreateAutomationInput, ListAutomationsQuery, UpdateAutomationInput } from './types';

export type { AutomationRow } from '../../db/automationsRepository';
export type { AutomationScope, CreateAutomationInput, ListAutomationsQuery, UpdateAutomationInput } from './types';
export { serializeExecution } from './serialize';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const WEBHOOK_TOKEN_PREFIX = 'hgr_whk_';

/** Environment delete answers 409 while an automation references the environment. */
export const automationEnvironmentReferenceCheck =
  (automations: AutomationsRepository): EnvironmentReferenceCheck =>
  async (environmentId, trx) => {
    const n = await automations.countByEnvironment(environmentId, trx);
    return n > 0 ? `${n} automation(s) use this environment; move or delete them first` : null;
  };

export function createAutomationsService(deps: {
  repos: Pick<Repositories, 'transact' | 'automations' | 'automationExecutions' | 'automationInbox' | 'environments' | 'codeRepositories'>;
  secretBox: SecretBox;
  isModelAllowed(organizationId: string, agent: AgentId, model: string): Promise<boolean>;
  /** Starts `run/{executionId}` workflows (manual triggers). */
  temporal: Pick<WorkflowControl, 'startAutomationRun' | 'automationChanged' | 'startAutomationCleanup'>;
  /** How long a manual trigger waits for its run to record the workspace id. */
  triggerWaitMs?: number;
  /** Told after every committed create, update and delete (event routing caches listen). */
  onChanged?: () => Promise<void>;
  /** Reads a pull request from GitHub for a manual trigger's `pr`. */
  pullRequests: GithubPullRequestReader;
}) {
  const { secretBox } = deps;
  const { automations: repo, automationExecutions: executions } = deps.repos;
  const references = createAutomationReferenceChecks({
    environments: deps.repos.environments,
    repositories: deps.repos.codeRepositories,
    isModelAllowed: deps.isModelAllowed,
  });

  const pullRequestContext = createPullRequestContext({ repositories: deps.repos.codeRepositories, pullRequests: deps.pullRequests });

  const serialize = (row: AutomationRow) => serializeAutomation(row, secretBox);

  /**
   * Another organization's or another user's automation is 404; an org key on a personal one
   * is 403. With `lockIn`, the row is locked for update in that transaction.
   */
  async function access(actor: Actor, id: string, lockIn?: Transaction): Promise<AutomationRow> {
    const row = lockIn ? await repo.lock(actor.organizationId, id, lockIn) : await repo.find(actor.organizationId, id);
    if (!row) throw notFound('Automation');
    if (row.user_id !== null) {
      if (actor.keyKind === 'org') throw forbidden('Organization API keys cannot access personal automations', 'use the owner\'s personal API key');
      if (row.user_id !== actor.userId) throw notFound('Automation');
    }
    return row;
  }

  function webhookToken(automationId: string): { hash: string; sealed: string } {
    const token = WEBHOOK_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { hash: hashWebhookToken(token), sealed: secretBox.seal(token, webhookTokenField(automationId)) };
  }

  /**
   * Validates `input` against `current` (null on create) and returns the columns to write:
   * only the fields sent, plus what they imply (cron mirror, webhook token). `id` is the
   * automation's (chosen before the insert on create: the token is sealed for it).
   */
  async function prepare(
    actor: Actor,
    id: string,
    input: UpdateAutomationInput,
    current: AutomationRow | null,
    ownerId: string | null,
    trx: Transaction,
  ): Promise<AutomationWrite> {
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
    if (has('environment_id')) await references.environment(actor, input.environment_id!, ownerId, trx);
    if (input.triggers) await references.repositories(actor, triggers, trx);

    // Cron columns mirror the trigger; the next fire is recomputed on every write.
    Object.assign(write, cronMirror(triggers));
    // The webhook token exists exactly while there is a custom trigger: removing the trigger
    // revokes it, adding one issues a fresh one.
    const hasCustom = triggers.some((t) => t.type === 'custom');
    if (hasCustom && !current?.webhook_token_hash) {
      const token = webhookToken(id);
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
      await references.model(actor, input, null);
      const row = await deps.repos.transact(async (trx) => {
        const { scope: _scope, ...fields } = input;
        const id = randomUUID();
        const write = await prepare(actor, id, fields, null, ownerId, trx);
        return repo.insert(
          {
            ...write,
            id,
            organization_id: actor.organizationId,
            user_id: ownerId,
            created_by: actor.userId,
            config: write.config ?? normaliseConfig(undefined),
          },
          trx,
        );
      });
      await deps.onChanged?.();
      await deps.temporal.automationChanged(row.id, row.organization_id, { names: { automationName: row.name } });
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
      await references.model(actor, input, await access(actor, id));
      const row = await deps.repos.transact(async (trx) => {
        const current = await access(actor, id, trx);
        const write = await prepare(actor, current.id, input, current, current.user_id, trx);
        return repo.update(current.id, write, trx);
      });
      await deps.onChanged?.();
      // The schedule loop re-reads the automation at once (a new time, enabled, disabled).
      await deps.temporal.automationChanged(row.id, row.organization_id, { names: { automationName: row.name } });
      return serialize(row);
    },

    /**
     * Manual fire (interop §10.5): records a `pending` execution with the payload and the
     * automation's config snapshot, starts `run/{executionId}`, then waits up to
     * `triggerWaitMs` (15 s) for the run to record its workspace — `workspace_id` is null if
     * it has not yet. Same access rules as reading the automation. A disabled automation can
     * still be fired by hand (`enabled` gates only the automatic triggers). With `pr`, the run
     * is the pull request's, as if its event had arrived: the pull request is read from GitHub
     * and the execution is recorded as that pull request's event (`pullRequestContext.ts`).
     */
    async trigger(actor: Actor, id: string, payload: Record<string, unknown> | undefined, pr?: ManualPullRequest) {
      const row = await access(actor, id);
      const executionId = randomUUID();
      const context = pr ? await pullRequestContext.resolve(row, pr, payload) : null;
      const pending = {
        id: executionId,
        automationId: row.id,
        organizationId: row.organization_id,
        payload: context?.payload ?? payload ?? {},
        config: normaliseConfig(row.config, null),
      };
      await deps.repos.transact(async (trx) => {
        await executions.insertPending(pending, trx);
        if (context) await deps.repos.automationInbox.recordEvent({ automationId: row.id, debounceKey: context.key, executionId, payload: context.payload }, trx);
      });
      try {
        await deps.temporal.startAutomationRun(
          { executionId, automationId: row.id, organizationId: row.organization_id },
          { trigger: 'manual', names: { automationName: row.name } },
        );
      } catch (err) {
        await executions.failToStart(executionId, `the run could not be started: ${(err as Error).message}`);
        automationRuns.inc({ result: 'failed' });
        throw err;
      }
      const deadline = Date.now() + (deps.triggerWaitMs ?? 15_000);
      for (;;) {
        const exec = await executions.find(executionId);
        if (exec?.workspace_id || !exec || exec.status === 'failed' || Date.now() >= deadline) {
          return { execution_id: executionId, workspace_id: exec?.workspace_id ?? null };
        }
        await sleep(200);
      }
    },

    /** Run history, newest first (interop §10.6). */
    async listExecutions(actor: Actor, id: string, query: { page: number; limit: number }) {
      const row = await access(actor, id);
      const { rows, total } = await executions.listForAutomation(row.id, row.organization_id, { limit: query.limit, offset: (query.page - 1) * query.limit });
      return { rows: rows.map(serializeExecution), total };
    },

    /**
     * Deletes the automation row — from then on it is gone from every read and no trigger can
     * record anything for it — and starts `cleanup/automation/{id}`, which stops its
     * workflows and deletes its history in batches. The cleanup is started inside the
     * transaction, so a failed start leaves the automation untouched (the client sees the
     * error and may retry); the workflow itself waits for the commit.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      await deps.repos.transact(async (trx) => {
        const found = await access(actor, id, trx);
        await repo.delete(found.id, trx);
        await deps.temporal.startAutomationCleanup({ automationId: found.id, organizationId: found.organization_id }, { names: { automationName: found.name } });
      });
      await deps.onChanged?.();
    },
  };
}

export type AutomationsService = ReturnType<typeof createAutomationsService>;
