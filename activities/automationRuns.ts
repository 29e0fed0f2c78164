/**
 * The I/O of an automation run (`run/{executionId}`): record the execution's progress, write
 * its workspace's record, finish the record and apply the circuit breaker. Each is idempotent
 * by execution id, so a retried activity repeats no side effect (the run's workspace id is
 * derived from the execution id, so even a worker killed between writing the workspace and
 * recording it gets the same workspace back). The run never calls the API.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { AgentId, ThinkingLevel } from '../src/agents/catalog';
import type { Repositories } from '../src/db';
import type { Actor } from '../src/domain/actor';
import { groupsKey } from '../src/domain/automations/events';
import type { Logger } from '../src/logger';
import { automationRuns } from '../src/metrics';
import type { ExecutionRow, ExecutionStatus } from '../src/db/automationExecutionsRepository';
import type { AutomationRow } from '../src/db/automationsRepository';
import { normaliseConfig } from '../src/domain/automations/rules';
import { groupedMessageId, runPrompt, runWorkspaceId } from '../src/domain/automations/run';
import type { RunWorkspace } from '../workflows/shared';
import type { WorkspaceRecords } from '../src/worker/workspaceRecords';
import { DomainError } from '../src/domain/errors';

/** What a run's continuation asks of an agent whose turn was cut short with its workspace. */
export const CONTINUE_PROMPT =
  "Your previous turn was cut short before it finished: the workspace's container stopped while you worked. Continue the task from where you stopped; check what is already done before doing it again.";

export interface AutomationRunActivityDeps {
  repos: Pick<Repositories, 'replicas' | 'replicaMessages' | 'automationExecutions' | 'automations'>;
  /** Writes the run's workspace (its timings are the workspace defaults; the automation may set the inactivity one). */
  records: WorkspaceRecords;
  logger: Logger;
}

export function createAutomationRunActivities(deps: AutomationRunActivityDeps) {
  const { replicas, automationExecutions: executions, automations } = deps.repos;
  const { records } = deps;

  /** The run's workspace, written as the automation's owner with its settings as they are now. */
  async function writeRunWorkspace(exec: ExecutionRow, automation: AutomationRow, replicaId: string) {
    const actor: Actor = {
      organizationId: automation.organization_id,
      userId: automation.user_id,
      keyKind: automation.user_id ? 'personal' : 'org',
      keyId: `automation:${automation.id}`,
      isAdmin: false,
    };
    const config = normaliseConfig(automation.config, null);
    return records.create({
      replicaId,
      actor,
      source: 'automation',
      environmentId: automation.environment_id,
      name: automation.name,
      prompt: runPrompt(automation.prompt, exec.trigger_payload),
      agent: (automation.agent_provider ?? null) as AgentId | null,
      model: automation.model ?? null,
      thinkingLevel: (automation.thinking_level ?? null) as ThinkingLevel | null,
      modes: { plan_mode: automation.plan_mode, goal_mode: automation.goal_mode ?? undefined, fast_mode: automation.fast_mode ?? undefined },
      size: automation.workspace_size as 'small' | 'large',
      lifecyclePolicy: automation.workspace_lifecycle_policy,
      // The workspace snapshots the automation's config (pr_followups default false).
      config: { capabilities: config.capabilities, preferences: config.preferences },
    });
  }

  const idleMsOf = (automation: AutomationRow) => (automation.workspace_auto_stop_minutes ? automation.workspace_auto_stop_minutes * 60_000 : null);

  /**
   * Where a grouped event goes (`group_pr_events`, `group_thread_replies`): the live workspace of
   * an earlier run of this automation for the same key. A retried call finds the one it chose.
   */
  async function groupTarget(exec: ExecutionRow, automation: AutomationRow, ownWorkspaceId: string): Promise<string | null> {
    if (exec.workspace_id) return exec.workspace_id === ownWorkspaceId ? null : exec.workspace_id;
    const key = await executions.debounceKeyOf(exec.id);
    if (!key || !groupsKey(automation.triggers, key, (exec.trigger_payload as { event?: unknown } | null)?.event)) return null;
    return executions.groupTarget(automation.id, exec.id, key);
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
      const grouped = await groupTarget(exec, automation, replicaId);
      if (grouped) {
        const row = await replicas.find(grouped);
        const first = row ? await replicas.firstMessage(row.id) : null;
        if (!row || !first) throw ApplicationFailure.nonRetryable('the grouped workspace is gone', 'InvalidInput');
        await executions.setWorkspace(executionId, row.id);
        return { workspace: records.workflowInput(row, idleMsOf(automation)), chatId: first.chatId, messageId: groupedMessageId(executionId), grouped: true };
      }
      const row = (await replicas.find(replicaId)) ?? (await writeRunWorkspace(exec, automation, replicaId));
      const first = await replicas.firstMessage(row.id);
      if (!first) throw ApplicationFailure.nonRetryable('the run workspace has no message', 'InvalidInput');
      await executions.setWorkspace(executionId, row.id);
      return { workspace: records.workflowInput(row, idleMsOf(automation)), ...first };
    },

    /**
     * A grouped run's prompt, queued in the earlier run's workspace (its first chat) once the run
     * has asked that workspace to report the turn. Idempotent: the message id derives from the execution.
     */
    async queueGroupedPrompt(executionId: string): Promise<void> {
      const exec = await execution(executionId);
      const automation = await automations.findById(exec.automation_id);
      const row = exec.workspace_id ? await replicas.find(exec.workspace_id) : null;
      if (!automation || !row) throw ApplicationFailure.nonRetryable('the grouped workspace or its automation is gone', 'InvalidInput');
      const first = await replicas.firstMessage(row.id);
      await records.followUp(row, {
        chatId: first?.chatId ?? null,
        messageId: groupedMessageId(executionId),
        text: runPrompt(automation.prompt, exec.trigger_payload),
        senderUserId: automation.user_id,
      });
    },

    /**
     * One more turn for a run whose turn was cut short with its workspace, its agent's session
     * kept on the chat (docs/decisions/workspaces.md, "A turn outlives its worker"): a message in
     * the cut turn's chat asks the agent to continue. Null when the workspace cannot take a
     * message now (gone, or in error). Idempotent: the message id is the run workflow's.
     */
    async continueCutTurn(input: { executionId: string; cutMessageId: string; messageId: string }): Promise<{ chatId: string; messageId: string } | null> {
      const exec = await execution(input.executionId);
      const automation = await automations.findById(exec.automation_id);
      const row = exec.workspace_id ? await replicas.find(exec.workspace_id) : null;
      if (!automation || !row) return null;
      const cut = await deps.repos.replicaMessages.findById(row.id, input.cutMessageId);
      try {
        return await records.followUp(row, { chatId: cut?.chat_id ?? null, messageId: input.messageId, text: CONTINUE_PROMPT, senderUserId: automation.user_id });
      } catch (err) {
        if (err instanceof DomainError) return null;
        throw err;
      }
    },

    /**
     * Finishes a not-yet-finished execution, applying the circuit breaker (which an
     * `interrupted` turn, cut short rather than failed by the agent, does not count toward). Idempotent.
     */
    async finishExecution(executionId: string, ok: boolean, error: string | null, interrupted = false): Promise<void> {
      const { finished, disabledAutomationId } = await executions.finish(executionId, ok, error, undefined, { interrupted });
      if (finished) automationRuns.inc({ result: ok ? 'completed' : 'failed' });
      if (disabledAutomationId) deps.logger.warn('automation disabled by the circuit breaker', { automationId: disabledAutomationId, executionId });
    },
  };
}

export type AutomationRunActivities = ReturnType<typeof createAutomationRunActivities>;
