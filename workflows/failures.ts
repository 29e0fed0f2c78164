/** Reading failures that reach a workflow. */
import { TimeoutType } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, TimeoutFailure } from '@temporalio/workflow';

/** The message of the failure at the bottom of an activity's or child's failure chain. */
export function failureMessage(err: unknown): string {
  let e: unknown = err;
  while ((e instanceof ActivityFailure || e instanceof ChildWorkflowFailure) && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message || 'the activity failed';
  return String(e);
}

/**
 * Whether an activity failed because no worker of its host picked it up in time (its
 * schedule-to-start timeout, which Temporal does not retry): the host is taken as lost
 * (`hostLostMessage` in workspacePlacement.ts says so).
 */
export function isHostLost(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START;
}
