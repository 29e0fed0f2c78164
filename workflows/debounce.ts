/**
 * `debounce/{automation}/{key}/{window}`: one debounce window. Events never reach this
 * workflow (they land in the PostgreSQL inbox); it sleeps on a durable timer until the quiet
 * period may be over, asks the close activity, sleeps again while later events keep moving
 * the deadline, and starts exactly one run when the window closes. Its history is a few
 * events per deadline move, whatever the number of events in the window.
 */
import { continueAsNew, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import { windows } from './activities';
import { startRunChild } from './run';
import type { DebounceCloseResult, DebounceWindowInput } from './shared';

export async function debounceWindowWorkflow(input: DebounceWindowInput): Promise<DebounceCloseResult> {
  // Chosen here so that every retry of the close records the same execution.
  const executionId = uuid4();
  let waitMs = input.debounceSeconds * 1000;
  for (;;) {
    if (waitMs > 0) await sleep(waitMs);
    const result = await windows.closeDebounceWindow({ automationId: input.automationId, debounceKey: input.debounceKey, windowNo: input.windowNo, executionId });
    if (result.state === 'waiting') {
      waitMs = result.remainingMs;
      if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof debounceWindowWorkflow>({ ...input, debounceSeconds: waitMs / 1000 });
      continue;
    }
    if (result.state === 'closed' && result.executionId === executionId) {
      await startRunChild({ executionId, automationId: input.automationId, organizationId: input.organizationId });
    }
    return result;
  }
}
