import { hookTests } from './activities';
import type { HookTestInput, HookTestResult } from './shared';

/** `start-hook-test/{uuid}`: the hook chain in a fresh sandbox; the API waits for the result. */
export async function hookTestWorkflow(input: HookTestInput): Promise<HookTestResult> {
  return hookTests.runHookTest(input);
}
