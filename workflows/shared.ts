/**
 * The contract between the API and the workers: task queue, workflow ids, input and output
 * types. The API imports values from this file only; other workflow files are `import type`.
 */
export const DEFAULT_TASK_QUEUE = 'hangar';

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

/** Failure types activities raise on purpose; the gateway maps them to HTTP statuses. */
export const FailureTypes = {
  environmentGone: 'EnvironmentGone',
  sandboxUnavailable: 'SandboxUnavailable',
  invalidInput: 'InvalidInput',
} as const;
