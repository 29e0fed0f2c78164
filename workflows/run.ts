/**
 * `run/{executionId}`: one fire of an automation. The execution row goes pending → creating →
 * running → completed/failed: start a workspace with the automation's settings and its prompt
 * (plus the trigger payload), wait for the agent's first turn, finish the record (circuit
 * breaker included). Any failure ends the execution `failed` with its message; it is never
 * left `running`.
 */
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { AutomationRunActivities } from '../activities/automationRuns';
import type { AutomationRunInput } from './shared';

const short = proxyActivities<AutomationRunActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
});

// Finishing retries until it succeeds: the record must not stay `running`.
const finish = proxyActivities<AutomationRunActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// Creating the workspace talks to the database and Temporal; input errors are non-retryable.
const { startRunWorkspace } = proxyActivities<AutomationRunActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds' },
});

// The agent's turn may take long; the activity heartbeats while it polls.
const { awaitRunTurn } = proxyActivities<AutomationRunActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '2 seconds' },
});

function messageOf(err: unknown): string {
  let e: unknown = err;
  // The activity's own failure sits under the ActivityFailure.
  while (e instanceof ActivityFailure && e.cause) e = e.cause;
  if (e instanceof ApplicationFailure || e instanceof Error) return e.message || 'the run failed';
  return String(e);
}

export async function automationRunWorkflow(input: AutomationRunInput): Promise<{ ok: boolean; error: string | null }> {
  const { executionId } = input;
  let outcome: { ok: boolean; error: string | null };
  try {
    await short.markExecution(executionId, 'creating');
    await startRunWorkspace(executionId);
    outcome = await awaitRunTurn(executionId);
  } catch (err) {
    outcome = { ok: false, error: messageOf(err) };
  }
  await finish.finishExecution(executionId, outcome.ok, outcome.error);
  return outcome;
}
