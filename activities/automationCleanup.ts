/**
 * What `cleanup/automation/{id}` does after DELETE removed the automation row: stop every
 * workflow still working for it, then delete its run history (executions, inbox events,
 * debounce windows, checks) in batches, heartbeating after each batch so a dead worker's
 * attempt is retried from where the data says it stopped.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Repositories } from '../src/db';
import { HISTORY_TABLE_ORDER } from '../src/db/automationExecutionsRepository';
import type { Logger } from '../src/logger';
import { automationRunWorkflowId, automationWorkflowId, debounceWindowWorkflowId } from '../workflows/shared';

export const CLEANUP_BATCH_SIZE = 5000;

export interface AutomationCleanupDeps {
  repos: Pick<Repositories, 'automations' | 'automationExecutions' | 'automationInbox'>;
  /** Stops a workflow by id; false when it was not running. */
  workflows: { terminateWorkflow(workflowId: string, reason: string): Promise<boolean> };
  logger: Logger;
}

export function createAutomationCleanupActivities(deps: AutomationCleanupDeps) {
  const { automations, automationExecutions: executions, automationInbox: inbox } = deps.repos;
  const reason = 'the automation was deleted';

  return {
    /** Retried until the DELETE that started this workflow has committed; false if it never did. */
    async confirmAutomationDeleted({ automationId }: { automationId: string }): Promise<boolean> {
      if (!(await automations.findById(automationId))) return true;
      if (Context.current().info.attempt < 5) throw ApplicationFailure.retryable('the automation is still there', 'AutomationStillPresent');
      return false;
    },

    /** Terminates the schedule loop, open debounce windows and unfinished runs. */
    async stopAutomationWorkflows({ automationId }: { automationId: string }): Promise<number> {
      const ids = [automationWorkflowId(automationId)];
      for (const w of await inbox.openWindowsOf(automationId)) ids.push(debounceWindowWorkflowId(automationId, w.debounceKey, w.windowNo));
      for (const id of await executions.unfinishedIds(automationId)) ids.push(automationRunWorkflowId(id));
      let stopped = 0;
      for (const id of ids) {
        if (await deps.workflows.terminateWorkflow(id, reason)) stopped++;
        Context.current().heartbeat();
      }
      return stopped;
    },

    /** Deletes the automation's history in batches; returns the executions deleted. */
    async deleteAutomationHistory({ automationId }: { automationId: string }): Promise<number> {
      const ctx = Context.current();
      let deleted = 0;
      for (const table of HISTORY_TABLE_ORDER) {
        for (;;) {
          const n = await executions.deleteHistoryBatch(automationId, table, CLEANUP_BATCH_SIZE);
          if (table === 'automation_executions') deleted += n;
          ctx.heartbeat({ table, executions: deleted });
          if (n < CLEANUP_BATCH_SIZE) break;
        }
      }
      deps.logger.info('automation history deleted', { automationId, executions: deleted });
      return deleted;
    },
  };
}

export type AutomationCleanupActivities = ReturnType<typeof createAutomationCleanupActivities>;
