import { proxyActivities } from '@temporalio/workflow';
import type { HookActivities } from '../activities/hooks';
import type { HookTestInput, HookTestResult } from './shared';

// One attempt plus one retry: a worker that dies mid-test leaves no state behind, so
// running the (unpersisted) script again is safe. The sandbox enforces the 90 s deadline;
// this timeout only bounds a worker that stopped answering.
const { runHookTest } = proxyActivities<HookActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 2 },
});

export async function hookTestWorkflow(input: HookTestInput): Promise<HookTestResult> {
  return runHookTest(input);
}
