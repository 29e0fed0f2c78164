/**
 * The I/O of an automation run (`run/{executionId}`): record the execution's progress, write
 * its workspace's record, finish the record and apply the circuit breaker. Each is idempotent
 * by execution id, so a retried activity repeats no side effect (the run's workspace id is
 * derived from the execution id, so even a worker killed between writing the workspace and
 * recording it gets the same workspace back). The run never calls the API.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { AGENTS, type AgentId, type ThinkingLevel } from '../src/agents/catalog';
import type { SecretBox } from '../src/crypto/secretBox';
import type { Repositories } from '../src/db';
import type { Actor } from '../src/domain/actor';
import { isModelAllowed, resolveAgentAndModel } from '../src/domain/agentPolicy';
import { checkEnvironmentAccess } from '../src/domain/environments';
import { DomainError, invalid } from '../src/domain/errors';
import { checkModes, hashEngineSecret, messageAndModes, newReplicaEvents, newReplicaRecord } from '../src/domain/replicas';
import type { ReplicaEventEmitter } from '../src/events/replicaEvents';
import type { Logger } from '../src/logger';
import type { ExecutionRow, ExecutionStatus } from '../src/db/automationExecutionsRepository';
import type { AutomationRow } from '../src/db/automationsRepository';
import { normaliseConfig } from '../src/domain/automations/rules';
import { runPrompt, runWorkspaceId } from '../src/domain/automations/run';
import type { LifecyclePolicy, RunWorkspace } from '../workflows/shared';

export interface AutomationRunActivityDeps {
  repos: Pick<Repositories, 'replicas' | 'environments' | 'codeRepositories' | 'organizationSettings' | 'modelCatalog' | 'automationExecutions' | 'automations'>;
  secretBox: SecretBox;
  events: ReplicaEventEmitter;
  /** The workspace timings a run's workspace gets (its automation may set the inactivity one). */
  timings: { idleMs: number; archiveAfterMs: number; historyLimit: number };
  logger: Logger;
}

export function createAutomationRunActivities(deps: AutomationRunActivityDeps) {
  const { replicas, environments, codeRepositories: repositories, organizationSettings: settings, modelCatalog: models, automationExecutions: executions, automations } = deps.repos;

  /** The API's rules for a new workspace, applied to the automation's settings as they are now. */
  async function writeRunWorkspace(exec: ExecutionRow, automation: AutomationRow, replicaId: string) {
    const actor: Actor = {
      organizationId: automation.organization_id,
      userId: automation.user_id,
      keyKind: automation.user_id ? 'personal' : 'org',
      keyId: `automation:${automation.id}`,
      isAdmin: false,
    };
    const config = normaliseConfig(automation.config, null);
    try {
      const { message, flags } = messageAndModes({
        message: runPrompt(automation.prompt, exec.trigger_payload),
        plan_mode: automation.plan_mode,
        goal_mode: automation.goal_mode ?? undefined,
        fast_mode: automation.fast_mode ?? undefined,
      });
      const requested = { agent: (automation.agent_provider ?? null) as AgentId | null, model: automation.model ?? null };
      const { agent, model } = resolveAgentAndModel(await settings.find(actor.organizationId), requested);
      const thinkingLevel = (automation.thinking_level ?? undefined) as ThinkingLevel | undefined;
      checkModes(agent, { ...flags, thinking_level: thinkingLevel });
      const source = AGENTS[agent].modelSource;
      if (requested.model && !isModelAllowed(agent, requested.model, source ? await models.isEnabled(actor.organizationId, source, requested.model) : null)) {
        throw invalid('Invalid body', `body.model: ${requested.model} is not enabled for ${agent} in this organization`);
      }
      const env = checkEnvironmentAccess(actor, await environments.find(actor.organizationId, automation.environment_id));
      const engineSecret = randomBytes(32).toString('base64url');
      const fresh = {
        ids: { replicaId, chatId: randomUUID(), messageId: randomUUID() },
        actor,
        source: 'automation',
        environmentId: env.id,
        name: automation.name,
        message,
        flags,
        agent,
        model,
        thinkingLevel,
        size: automation.workspace_size as 'small' | 'large',
        lifecyclePolicy: automation.workspace_lifecycle_policy,
        // The workspace snapshots the automation's config (pr_followups default false).
        config: { capabilities: config.capabilities, preferences: config.preferences },
        engineSecret: { sealed: deps.secretBox.seal(engineSecret), hash: hashEngineSecret(engineSecret) },
        repositories: await repositories.boundTo(actor.organizationId, env),
      };
      const row = await replicas.insertWithFirstMessage(newReplicaRecord(fresh));
      for (const [type, payload] of newReplicaEvents(fresh)) await deps.events.emit(row.id, type, payload);
      return row;
    } catch (err) {
      // Invalid settings (a model no longer enabled, an environment gone) will not heal on retry.
      if (err instanceof DomainError && err.kind !== 'unavailable' && err.kind !== 'internal') {
        throw ApplicationFailure.nonRetryable(err.details ? `${err.message}: ${err.details}` : err.message, 'InvalidInput');
      }
      throw err;
    }
  }

  async function execution(executionId: string): Promise<ExecutionRow> {
    const row = await executions.find(executionId);
    if (!row) throw ApplicationFailure.nonRetryable(`execution ${executionId} not found`, 'ExecutionGone');
    return row;
  }

  return {
    /** Moves a not-yet-finished execution to `status`. */
    async markExecution(executionId: string, status: ExecutionStatus): Promise<void> {
      await executions.mark(executionId, status);
    },

    /** The run's first step: moves the execution to `creating` (gone: deleted with its automation). */
    async beginExecution(executionId: string): Promise<void> {
      if (!(await executions.begin(executionId))) throw ApplicationFailure.nonRetryable(`execution ${executionId} not found`, 'ExecutionGone');
    },

    /**
     * Writes the run's workspace record as the automation's owner (its user for a personal
     * automation, else the organization) with the automation's settings, checked as the API
     * checks a new workspace, stores its id on the execution and marks it `running`. The
     * workflow then starts the workspace. The workspace id is derived from the execution, so a
     * retry (even after a worker died between writing the record and the execution) finds the
     * same workspace and never writes a second one.
     */
    async createRunWorkspace(executionId: string): Promise<RunWorkspace> {
      const exec = await execution(executionId);
      const automation = await automations.findById(exec.automation_id);
      if (!automation) throw ApplicationFailure.nonRetryable('the automation was deleted', 'AutomationGone');
      const replicaId = runWorkspaceId(executionId);
      const row = (await replicas.find(replicaId)) ?? (await writeRunWorkspace(exec, automation, replicaId));
      const first = await replicas.firstMessage(row.id);
      if (!first) throw ApplicationFailure.nonRetryable('the run workspace has no message', 'InvalidInput');
      await executions.setWorkspace(executionId, row.id);
      return {
        workspace: {
          replicaId: row.id,
          organizationId: row.organization_id,
          lifecyclePolicy: row.lifecycle_policy as LifecyclePolicy,
          idleMs: automation.workspace_auto_stop_minutes ? automation.workspace_auto_stop_minutes * 60_000 : deps.timings.idleMs,
          archiveAfterMs: deps.timings.archiveAfterMs,
          historyLimit: deps.timings.historyLimit,
          hasWebhook: !!row.webhook_url,
        },
        ...first,
      };
    },

    /** Finishes a not-yet-finished execution, applying the circuit breaker. Idempotent. */
    async finishExecution(executionId: string, ok: boolean, error: string | null): Promise<void> {
      const { disabledAutomationId } = await executions.finish(executionId, ok, error);
      if (disabledAutomationId) deps.logger.warn('automation disabled by the circuit breaker', { automationId: disabledAutomationId, executionId });
    },
  };
}

export type AutomationRunActivities = ReturnType<typeof createAutomationRunActivities>;
