/** Reading failures that reach a workflow. */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';

/** The message of the failure at the bottom of an activity's or child's failure chain. */
export function failureMessage(err: unknown): string {
  let e: unknown = err;
  while ((e instanceof ActivityFailure || e instanceof ChildWorkflowFailure) && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message || 'the activity failed';
  return String(e);
}
