/** Start-hook tests and warm pools of an environment (workflows/shared.ts). */

// --- Start-hook tests ----------------------------------------------------------------------

export const startHookTestWorkflowId = (testId: string) => `start-hook-test/${testId}`;

export type HookKind = 'start' | 'warm';

export interface HookTestInput {
  testId: string;
  organizationId: string;
  /** The environment the script belongs to (Global resolved to its id). */
  environmentId: string;
  kind: HookKind;
  /** The supplied script; replaces the environment's own saved hook for this run. */
  content: string;
  /** When set, output is published live on this bus channel (the streaming endpoint). */
  streamChannel?: string;
}

export interface HookTestResult {
  exit_code: number;
  output: string;
  timed_out: boolean;
}

// --- Warm pools ----------------------------------------------------------------------------

export const warmPoolWorkflowId = (environmentId: string) => `warmPool/${environmentId}`;

export interface WarmPoolInput {
  configId: string;
  environmentId: string;
  organizationId: string;
}

/** Sent when the pool may need work: enabled or disabled, an entry claimed, a warm hook saved. */
export const WARM_POOL_SIGNALS = { changed: 'warmPoolChanged' } as const;
