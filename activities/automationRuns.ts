/**
 * The I/O of an automation run (`run/{executionId}`): record the execution's progress, start
 * its workspace, watch the agent's first turn, finish the record and apply the circuit
 * breaker. Each is idempotent by execution id, so a retried activity repeats no side effect
 * (the run's workspace id is derived from the execution id, so even a worker killed between
 * creating the workspace and recording it gets the same workspace back).
 */
import { createHash } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import { HttpError } from '../src/errors';
import type { Logger } from '../src/logger';
import type { AutomationRow } from '../src/services/automations';
import { normaliseConfig } from '../src/services/automations/rules';
import type { Actor } from '../src/services/identity';
import type { CreateReplicaInput } from '../src/services/replicas';

/** Five failed executions in a row disable the automation. */
export const CIRCUIT_BREAKER_FAILURES = 5;
const POLL_MS = 1000;

export interface AutomationRunActivityDeps {
  db: Knex;
  /** Creates a replica and starts its workspace workflow (the replicas service's `create`). */
  createReplica(actor: Actor, input: CreateReplicaInput, source: string, options: { replicaId?: string; idleMs?: number }): Promise<{ id: string }>;
  logger: Logger;
}

export type ExecutionStatus = 'pending' | 'creating' | 'running' | 'completed' | 'failed';

interface ExecutionRow {
  id: string;
  automation_id: string;
  organization_id: string;
  workspace_id: string | null;
  trigger_payload: unknown;
  status: ExecutionStatus;
}

/** The automation's prompt, with the trigger payload (when there is one) as JSON under its own heading. */
export function runPrompt(prompt: string, payload: unknown): string {
  const empty = payload === null || payload === undefined || (typeof payload === 'object' && Object.keys(payload as object).length === 0);
  if (empty) return prompt;
  return `${prompt}\n\n## Trigger Payload\n\n\`\`\`json\n${JSON.stringify(payload, null, 2)}\n\`\`\`\n`;
}

/** The workspace id of an execution's run: a UUID derived from the execution id. */
export function runWorkspaceId(executionId: string): string {
  const h = createHash('sha256').update(`hangar:run-workspace:${executionId}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50; // version 5 layout (name-based), with SHA-256 as the hash
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createAutomationRunActivities(deps: AutomationRunActivityDeps) {
  const { db } = deps;

  async function execution(executionId: string): Promise<ExecutionRow> {
    const row = await db('automation_executions').where({ id: executionId }).first();
    if (!row) throw ApplicationFailure.nonRetryable(`execution ${executionId} not found`, 'ExecutionGone');
    return row;
  }

  return {
    /** Moves a not-yet-finished execution to `status`. */
    async markExecution(executionId: string, status: ExecutionStatus): Promise<void> {
      await db('automation_executions').where({ id: executionId }).whereNotIn('status', ['completed', 'failed']).update({ status });
    },

    /** The run's first step: moves the execution to `creating` (gone: deleted with its automation). */
    async beginExecution(executionId: string): Promise<void> {
      const row = await db('automation_executions').where({ id: executionId }).first('status');
      if (!row) throw ApplicationFailure.nonRetryable(`execution ${executionId} not found`, 'ExecutionGone');
      if (row.status === 'pending') await db('automation_executions').where({ id: executionId, status: 'pending' }).update({ status: 'creating' });
    },

    /**
     * Creates the run's workspace as the automation's owner (its user for a personal
     * automation, else the organization), stores its id on the execution and marks it
     * `running`. Returns the workspace id; a retry after success returns the stored one.
     */
    async startRunWorkspace(executionId: string): Promise<string> {
      const exec = await execution(executionId);
      if (exec.workspace_id) return exec.workspace_id;
      const automation: AutomationRow | undefined = await db('automations').where({ id: exec.automation_id }).first();
      if (!automation) throw ApplicationFailure.nonRetryable('the automation was deleted', 'AutomationGone');
      const actor: Actor = {
        organizationId: automation.organization_id,
        userId: automation.user_id,
        keyKind: automation.user_id ? 'personal' : 'org',
        keyId: `automation:${automation.id}`,
        isAdmin: false,
      };
      const config = normaliseConfig(automation.config, null);
      let replica: { id: string };
      try {
        // The workspace id is derived from the execution, so a retry after a worker died
        // between creating the workspace and recording it gets the same workspace back.
        replica = await deps.createReplica(
          actor,
          {
            name: automation.name,
            message: runPrompt(automation.prompt, exec.trigger_payload),
            environment_id: automation.environment_id,
            coding_agent: automation.agent_provider ?? undefined,
            model: automation.model ?? undefined,
            thinking_level: automation.thinking_level ?? undefined,
            plan_mode: automation.plan_mode,
            goal_mode: automation.goal_mode ?? undefined,
            fast_mode: automation.fast_mode ?? undefined,
            size: automation.workspace_size as 'small' | 'large',
            lifecycle_policy: automation.workspace_lifecycle_policy as CreateReplicaInput['lifecycle_policy'],
            // The workspace snapshots the automation's config (pr_followups default false).
            config: { capabilities: config.capabilities, preferences: config.preferences },
          },
          'automation',
          {
            replicaId: runWorkspaceId(executionId),
            idleMs: automation.workspace_auto_stop_minutes ? automation.workspace_auto_stop_minutes * 60_000 : undefined,
          },
        );
      } catch (err) {
        // Invalid settings (a model no longer enabled, an environment gone) will not heal on retry.
        if (err instanceof HttpError && err.status < 500) {
          throw ApplicationFailure.nonRetryable(err.details ? `${err.message}: ${err.details}` : err.message, 'InvalidInput');
        }
        throw err;
      }
      await db('automation_executions').where({ id: executionId }).update({ workspace_id: replica.id, status: 'running' });
      return replica.id;
    },

    /**
     * Waits, heartbeating and polling once a second, until the workspace's first message is
     * finished (or the workspace is in error or deleted).
     */
    async awaitRunTurn(executionId: string): Promise<{ ok: boolean; error: string | null }> {
      const ctx = Context.current();
      const { workspace_id: workspaceId } = await execution(executionId);
      if (!workspaceId) throw ApplicationFailure.nonRetryable('the run has no workspace', 'InvalidInput');
      for (;;) {
        ctx.heartbeat();
        const replica = await db('replicas').where({ id: workspaceId }).first('status', 'deleted_at');
        if (!replica || replica.deleted_at) return { ok: false, error: 'the workspace was deleted before the agent finished' };
        const first = await db('replica_messages').where({ replica_id: workspaceId }).orderBy([{ column: 'created_at' }, { column: 'queue_position' }]).first('status', 'error');
        if (first?.status === 'completed') return { ok: true, error: null };
        if (first?.status === 'failed' || first?.status === 'interrupted') {
          return { ok: false, error: first.error || `the agent's turn ${first.status}` };
        }
        if (replica.status === 'error') return { ok: false, error: 'the workspace failed to start' };
        await Promise.race([sleep(POLL_MS), ctx.cancelled.catch(() => undefined)]);
        if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? new Error('cancelled');
      }
    },

    /**
     * Finishes a not-yet-finished execution; after CIRCUIT_BREAKER_FAILURES failed executions
     * in a row (by completion time) the automation is disabled. Idempotent.
     */
    async finishExecution(executionId: string, ok: boolean, error: string | null): Promise<void> {
      await db.transaction(async (trx) => {
        const exec = await trx('automation_executions').where({ id: executionId }).first('automation_id');
        if (!exec) return;
        // Serializes finishes of one automation so the breaker sees a consistent tail.
        const automation = await trx('automations').where({ id: exec.automation_id }).forUpdate().first('id', 'enabled');
        const updated = await trx('automation_executions')
          .where({ id: executionId })
          .whereNotIn('status', ['completed', 'failed'])
          .update({ status: ok ? 'completed' : 'failed', error: ok ? null : error ?? 'the run failed', completed_at: trx.fn.now() });
        if (!updated || ok || !automation?.enabled) return;
        const recent: string[] = await trx('automation_executions')
          .where({ automation_id: exec.automation_id })
          .whereIn('status', ['completed', 'failed'])
          .orderBy('completed_at', 'desc')
          .limit(CIRCUIT_BREAKER_FAILURES)
          .pluck('status');
        if (recent.length === CIRCUIT_BREAKER_FAILURES && recent.every((s) => s === 'failed')) {
          await trx('automations').where({ id: exec.automation_id }).update({ enabled: false, updated_at: trx.raw('clock_timestamp()') });
          deps.logger.warn('automation disabled by the circuit breaker', { automationId: exec.automation_id, executionId });
        }
      });
    },
  };
}

export type AutomationRunActivities = ReturnType<typeof createAutomationRunActivities>;
