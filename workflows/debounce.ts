/**
 * `debounce/{automation}/{key}/{window}`: one debounce window. Events never reach this
 * workflow (they land in the PostgreSQL inbox); it sleeps on a durable timer until the quiet
 * period may be over, asks the close activity, sleeps again while later events keep moving
 * the deadline, and starts exactly one run when the window closes. Its history is a few
 * events per deadline move, whatever the number of events in the window.
 */
import { ParentClosePolicy, continueAsNew, proxyActivities, sleep, startChild, uuid4, workflowInfo } from '@temporalio/workflow';
import type { AutomationEventActivities } from '../activities/automationEvents';
import { automationRunWorkflow } from './run';
import { automationRunWorkflowId, type DebounceCloseResult, type DebounceWindowInput } from './shared';

const { closeDebounceWindow } = proxyActivities<AutomationEventActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

export async function debounceWindowWorkflow(input: DebounceWindowInput): Promise<DebounceCloseResult> {
  // Chosen here so that every retry of the close records the same execution.
  const executionId = uuid4();
  let waitMs = input.debounceSeconds * 1000;
  for (;;) {
    if (waitMs > 0) await sleep(waitMs);
    const result = await closeDebounceWindow({ automationId: input.automationId, debounceKey: input.debounceKey, windowNo: input.windowNo, executionId });
    if (result.state === 'waiting') {
      waitMs = result.remainingMs;
      if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof debounceWindowWorkflow>({ ...input, debounceSeconds: waitMs / 1000 });
      continue;
    }
    if (result.state === 'closed' && result.executionId === executionId) {
      await startChild(automationRunWorkflow, {
        workflowId: automationRunWorkflowId(executionId),
        args: [{ executionId, automationId: input.automationId, organizationId: input.organizationId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    }
    return result;
  }
}
