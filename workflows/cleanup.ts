/**
 * `cleanup/automation/{id}`: started by DELETE, inside its transaction. Waits until the
 * delete has committed (and ends if it never does), stops the automation's workflows, then
 * deletes its history in batches.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { AutomationCleanupActivities } from '../activities/automationCleanup';
import type { AutomationCleanupInput, AutomationCleanupResult } from './shared';

const { confirmAutomationDeleted } = proxyActivities<AutomationCleanupActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

const { stopAutomationWorkflows, deleteAutomationHistory } = proxyActivities<AutomationCleanupActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export async function automationCleanupWorkflow(input: AutomationCleanupInput): Promise<AutomationCleanupResult | null> {
  if (!(await confirmAutomationDeleted({ automationId: input.automationId }))) return null;
  const workflowsStopped = await stopAutomationWorkflows({ automationId: input.automationId });
  const executionsDeleted = await deleteAutomationHistory({ automationId: input.automationId });
  return { executionsDeleted, workflowsStopped };
}
