/**
 * What `cleanup/automation/{id}` does after DELETE removed the automation row: stop every
 * workflow still working for it, then delete its run history (executions, inbox events,
 * debounce windows, checks) in batches, heartbeating after each batch so a dead worker's
 * attempt is retried from where the data says it stopped.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Logger } from '../src/logger';
import type { TemporalGateway } from '../src/temporal/gateway';
import { automationRunWorkflowId, automationWorkflowId, debounceWindowWorkflowId } from '../workflows/shared';

export const CLEANUP_BATCH_SIZE = 5000;

export interface AutomationCleanupDeps {
  db: Knex;
  temporal: Pick<TemporalGateway, 'terminateWorkflow'>;
  logger: Logger;
}

export function createAutomationCleanupActivities(deps: AutomationCleanupDeps) {
  const { db } = deps;
  const reason = 'the automation was deleted';

  /** Deletes up to CLEANUP_BATCH_SIZE rows of `table` for the automation; returns how many. */
  async function deleteBatch(table: string, column: string, automationId: string, keyColumns: string[]): Promise<number> {
    const keys = db(table).select(keyColumns).where(column, automationId).limit(CLEANUP_BATCH_SIZE);
    return db(table).whereIn(keyColumns, keys).delete();
  }

  return {
    /** Retried until the DELETE that started this workflow has committed; false if it never did. */
    async confirmAutomationDeleted({ automationId }: { automationId: string }): Promise<boolean> {
      const row = await db('automations').where({ id: automationId }).first('id');
      if (!row) return true;
      if (Context.current().info.attempt < 5) throw ApplicationFailure.retryable('the automation is still there', 'AutomationStillPresent');
      return false;
    },

    /** Terminates the schedule loop, open debounce windows and unfinished runs. */
    async stopAutomationWorkflows({ automationId }: { automationId: string }): Promise<number> {
      const ids = [automationWorkflowId(automationId)];
      const windows = await db('automation_debounce_windows').where({ automation_id: automationId, state: 'open' }).select('debounce_key', 'window_no');
      for (const w of windows) ids.push(debounceWindowWorkflowId(automationId, w.debounce_key, w.window_no));
      const runs: string[] = await db('automation_executions')
        .where({ automation_id: automationId })
        .whereNotIn('status', ['completed', 'failed'])
        .pluck('id');
      for (const id of runs) ids.push(automationRunWorkflowId(id));
      let stopped = 0;
      for (const id of ids) {
        if (await deps.temporal.terminateWorkflow(id, reason)) stopped++;
        Context.current().heartbeat();
      }
      return stopped;
    },

    /** Deletes the automation's history in batches; returns the executions deleted. */
    async deleteAutomationHistory({ automationId }: { automationId: string }): Promise<number> {
      const ctx = Context.current();
      let executions = 0;
      const tables: Array<[string, string[]]> = [
        ['automation_checks', ['execution_id', 'name']],
        ['automation_events', ['id']],
        ['automation_debounce_windows', ['automation_id', 'debounce_key', 'window_no']],
        ['automation_executions', ['id']],
      ];
      for (const [table, keyColumns] of tables) {
        for (;;) {
          const n = await deleteBatch(table, 'automation_id', automationId, keyColumns);
          if (table === 'automation_executions') executions += n;
          ctx.heartbeat({ table, executions });
          if (n < CLEANUP_BATCH_SIZE) break;
        }
      }
      deps.logger.info('automation history deleted', { automationId, executions });
      return executions;
    },
  };
}

export type AutomationCleanupActivities = ReturnType<typeof createAutomationCleanupActivities>;
