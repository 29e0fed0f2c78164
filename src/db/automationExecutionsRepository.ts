/**
 * SQL for automation runs: `automation_executions` and the checks each run reports
 * (`automation_checks`), plus the batched deletion of an automation's whole history.
 */
import type { Knex } from 'knex';
import { CIRCUIT_BREAKER_FAILURES, tripsCircuitBreaker } from '../domain/automations/run';

export type ExecutionStatus = 'pending' | 'creating' | 'running' | 'completed' | 'failed';

export interface ExecutionRow {
  id: string;
  automation_id: string;
  organization_id: string;
  workspace_id: string | null;
  triggered_at: Date;
  trigger_payload: Record<string, unknown>;
  status: ExecutionStatus;
  config: Record<string, unknown>;
  error: string | null;
  completed_at: Date | null;
}

/** A run about to be started: its trigger payload and the automation's config, snapshotted. */
export interface PendingExecution {
  id: string;
  automationId: string;
  organizationId: string;
  payload: unknown;
  config: unknown;
}

export interface CheckRow {
  execution_id: string;
  name: string;
  automation_id: string;
  provider: string;
  repository: string;
  head_sha: string;
  external_id: string | null;
  status: 'in_progress' | 'completed';
  conclusion: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** The tables holding an automation's history, in the order they are emptied, with their keys. */
const HISTORY_TABLES = {
  automation_checks: ['execution_id', 'name'],
  automation_events: ['id'],
  automation_debounce_windows: ['automation_id', 'debounce_key', 'window_no'],
  automation_executions: ['id'],
} as const;
export type HistoryTable = keyof typeof HISTORY_TABLES;
export const HISTORY_TABLE_ORDER = Object.keys(HISTORY_TABLES) as HistoryTable[];

const FINISHED: ExecutionStatus[] = ['completed', 'failed'];

export function createAutomationExecutionsRepository(db: Knex) {
  return {
    async insertPending(execution: PendingExecution, trx: Knex = db): Promise<void> {
      await trx('automation_executions').insert({
        id: execution.id,
        automation_id: execution.automationId,
        organization_id: execution.organizationId,
        trigger_payload: JSON.stringify(execution.payload),
        status: 'pending',
        config: JSON.stringify(execution.config),
      });
    },

    async find(id: string, trx: Knex = db): Promise<ExecutionRow | null> {
      return (await trx('automation_executions').where({ id }).first()) ?? null;
    },

    /** A page of the automation's run history, newest first. */
    async listForAutomation(
      automationId: string,
      organizationId: string,
      page: { limit: number; offset: number },
      trx: Knex = db,
    ): Promise<{ rows: ExecutionRow[]; total: number }> {
      const base = trx('automation_executions').where({ automation_id: automationId, organization_id: organizationId });
      const [{ count }] = await base.clone().count<{ count: string }[]>({ count: '*' });
      const rows: ExecutionRow[] = await base
        .clone()
        .orderBy([{ column: 'triggered_at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(page.limit)
        .offset(page.offset);
      return { rows, total: Number(count) };
    },

    /** The execution a cron fire recorded for `scheduledAt`, if any (fires are recorded once). */
    async findCronFire(automationId: string, scheduledAt: string, trx: Knex = db): Promise<{ id: string } | null> {
      return (
        (await trx('automation_executions')
          .where({ automation_id: automationId })
          .whereRaw("trigger_payload->>'trigger' = 'cron' and trigger_payload->>'scheduled_at' = ?", [scheduledAt])
          .first('id')) ?? null
      );
    },

    /** Ids of the automation's executions that have not finished. */
    async unfinishedIds(automationId: string, trx: Knex = db): Promise<string[]> {
      return trx('automation_executions').where({ automation_id: automationId }).whereNotIn('status', FINISHED).pluck('id');
    },

    /** Moves a pending execution to `creating`; false when the execution is gone. */
    async begin(id: string, trx: Knex = db): Promise<boolean> {
      const row = await trx('automation_executions').where({ id }).first('status');
      if (!row) return false;
      if (row.status === 'pending') await trx('automation_executions').where({ id, status: 'pending' }).update({ status: 'creating' });
      return true;
    },

    /** Moves a not-yet-finished execution to `status`. */
    async mark(id: string, status: ExecutionStatus, trx: Knex = db): Promise<void> {
      await trx('automation_executions').where({ id }).whereNotIn('status', FINISHED).update({ status });
    },

    /** Records the run's workspace; the run is `running` from then on. */
    async setWorkspace(id: string, workspaceId: string, trx: Knex = db): Promise<void> {
      await trx('automation_executions').where({ id }).update({ workspace_id: workspaceId, status: 'running' });
    },

    /** The debounce key of the event (or window) an execution was recorded for; null for cron and manual fires. */
    async debounceKeyOf(id: string, trx: Knex = db): Promise<string | null> {
      const event = await trx('automation_events').where({ execution_id: id }).first('debounce_key');
      if (event) return event.debounce_key as string;
      const window = await trx('automation_debounce_windows').where({ execution_id: id }).first('debounce_key');
      return window ? (window.debounce_key as string) : null;
    },

    /**
     * The live workspace of the newest earlier execution of this automation for the same key
     * (its event or its window), if any: where a grouped event goes.
     */
    async groupTarget(automationId: string, executionId: string, key: string, trx: Knex = db): Promise<string | null> {
      const row = await trx('automation_executions as e')
        .join('replicas as r', 'r.id', 'e.workspace_id')
        .where('e.automation_id', automationId)
        .whereNot('e.id', executionId)
        .whereNull('r.deleted_at')
        .whereNot('r.status', 'error')
        .where((q) =>
          q
            .whereExists((s) => s.select(trx.raw('1')).from('automation_events as ev').whereRaw('ev.execution_id = e.id').where('ev.debounce_key', key))
            .orWhereExists((s) => s.select(trx.raw('1')).from('automation_debounce_windows as w').whereRaw('w.execution_id = e.id').where('w.debounce_key', key)),
        )
        .orderBy('e.triggered_at', 'desc')
        .first('e.workspace_id');
      return row ? (row.workspace_id as string) : null;
    },

    /** Fails an execution whose run could not even be started (whatever its status). */
    async failToStart(id: string, error: string, trx: Knex = db): Promise<void> {
      await trx('automation_executions').where({ id }).update({ status: 'failed', error, completed_at: trx.fn.now() });
    },

    /**
     * Finishes a not-yet-finished execution and applies the circuit breaker, in one
     * transaction: after CIRCUIT_BREAKER_FAILURES failed executions in a row (by completion
     * time) the automation is disabled. Idempotent: `finished` is false when the execution is
     * gone or was already finished; `disabledAutomationId` names the automation this call disabled.
     * A failure marked `interrupted` (the turn was cut short, not failed by the agent) is recorded
     * as failed but neither trips the breaker nor breaks a streak: the breaker looks past it.
     */
    async finish(
      executionId: string,
      ok: boolean,
      error: string | null,
      outer?: Knex.Transaction,
      options: { interrupted?: boolean } = {},
    ): Promise<{ finished: boolean; disabledAutomationId: string | null }> {
      const interrupted = !ok && options.interrupted === true;
      return (outer ?? db).transaction(async (trx) => {
        const exec = await trx('automation_executions').where({ id: executionId }).first('automation_id');
        if (!exec) return { finished: false, disabledAutomationId: null };
        // Serializes finishes of one automation so the breaker sees a consistent tail.
        const automation = await trx('automations').where({ id: exec.automation_id }).forUpdate().first('id', 'enabled');
        const updated = await trx('automation_executions')
          .where({ id: executionId })
          .whereNotIn('status', FINISHED)
          .update({ status: ok ? 'completed' : 'failed', error: ok ? null : error ?? 'the run failed', interrupted, completed_at: trx.fn.now() });
        if (!updated || ok || interrupted || !automation?.enabled) return { finished: updated > 0, disabledAutomationId: null };
        const recent: string[] = await trx('automation_executions')
          .where({ automation_id: exec.automation_id, interrupted: false })
          .whereIn('status', FINISHED)
          .orderBy('completed_at', 'desc')
          .limit(CIRCUIT_BREAKER_FAILURES)
          .pluck('status');
        if (!tripsCircuitBreaker(recent)) return { finished: true, disabledAutomationId: null };
        await trx('automations').where({ id: exec.automation_id }).update({ enabled: false, updated_at: trx.raw('clock_timestamp()') });
        return { finished: true, disabledAutomationId: exec.automation_id as string };
      });
    },

    async findCheck(executionId: string, name: string, trx: Knex = db): Promise<CheckRow | null> {
      return (await trx('automation_checks').where({ execution_id: executionId, name }).first()) ?? null;
    },

    /** Stores the platform's id of a check; a retry that created the same check again overwrites it. */
    async recordCheck(
      check: Pick<CheckRow, 'execution_id' | 'name' | 'automation_id' | 'provider' | 'repository' | 'head_sha'> & { external_id: string },
      trx: Knex = db,
    ): Promise<void> {
      await trx('automation_checks').insert(check).onConflict(['execution_id', 'name']).merge(['external_id']);
    },

    /** The run's checks that were opened on the platform and not completed yet. */
    async openChecks(executionId: string, trx: Knex = db): Promise<CheckRow[]> {
      return trx('automation_checks').where({ execution_id: executionId, status: 'in_progress' }).whereNotNull('external_id');
    },

    async completeCheck(executionId: string, name: string, conclusion: string, trx: Knex = db): Promise<void> {
      await trx('automation_checks').where({ execution_id: executionId, name }).update({ status: 'completed', conclusion, completed_at: trx.fn.now() });
    },

    /** Deletes up to `limit` rows of the automation's history from `table`; returns how many. */
    async deleteHistoryBatch(automationId: string, table: HistoryTable, limit: number, trx: Knex = db): Promise<number> {
      const keyColumns = [...HISTORY_TABLES[table]];
      const keys = trx(table).select(keyColumns).where('automation_id', automationId).limit(limit);
      return trx(table).whereIn(keyColumns, keys).delete();
    },
  };
}

export type AutomationExecutionsRepository = ReturnType<typeof createAutomationExecutionsRepository>;
