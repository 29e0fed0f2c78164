/**
 * `cleanup/automation/{id}`: started by DELETE, inside its transaction. Waits until the
 * delete has committed (and ends if it never does), stops the automation's workflows, then
 * deletes its history in batches.
 */
import { cleanupChecks, cleanups } from './activities';
import type { AutomationCleanupInput, AutomationCleanupResult } from './shared';

export async function automationCleanupWorkflow(input: AutomationCleanupInput): Promise<AutomationCleanupResult | null> {
  if (!(await cleanupChecks.confirmAutomationDeleted({ automationId: input.automationId }))) return null;
  const workflowsStopped = await cleanups.stopAutomationWorkflows({ automationId: input.automationId });
  const executionsDeleted = await cleanups.deleteAutomationHistory({ automationId: input.automationId });
  return { executionsDeleted, workflowsStopped };
}
