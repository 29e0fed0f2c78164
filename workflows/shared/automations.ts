/** Automation runs, schedules, debounce windows and the cleanup on delete (workflows/shared.ts). */
import type { WorkspaceInput } from './workspaces';

export const automationRunWorkflowId = (executionId: string) => `run/${executionId}`;

/** The workspace of a run tells the run how the agent's turn on its prompt ended. */
export const RUN_SIGNALS = { turnFinished: 'runTurnFinished' } as const;

export interface RunOutcome {
  ok: boolean;
  error: string | null;
  /** The turn was cut short (its container stopped, its host lost, its activity timed out), not failed by the agent: the circuit breaker ignores it. */
  interrupted?: boolean;
  /** Cut short with its agent's session kept on the chat: the run continues it with one more turn. */
  resumable?: boolean;
}

/** What the run's workspace activity prepared: the record exists, its workflow is not started yet. */
export interface RunWorkspace {
  workspace: WorkspaceInput;
  chatId: string;
  messageId: string;
  /**
   * The event joins an earlier run's live workspace (`group_pr_events`, `group_thread_replies`):
   * the run asks it to report `messageId`, then queues the prompt there and signals it.
   */
  grouped?: boolean;
}

/** One fire of an automation; its execution row (status `pending`) exists before the start. */
export interface AutomationRunInput {
  executionId: string;
  automationId: string;
  organizationId: string;
}

// --- Automation schedules ---------------------------------------------------------------

export const automationWorkflowId = (automationId: string) => `automation/${automationId}`;
export const AUTOMATION_SIGNALS = { configChanged: 'configChanged' } as const;

export interface AutomationScheduleInput {
  automationId: string;
  organizationId: string;
  /** Fires so far in earlier runs of this workflow (continue-as-new). */
  fires?: number;
}

// --- Debounce windows ---------------------------------------------------------------------

/** One workflow per window of (automation, key), never per event. */
export const debounceWindowWorkflowId = (automationId: string, debounceKey: string, windowNo: number) =>
  `debounce/${automationId}/${debounceKey}/${windowNo}`;

export interface DebounceWindowInput {
  automationId: string;
  organizationId: string;
  debounceKey: string;
  windowNo: number;
  /** The automation's debounce when the window opened: the first sleep (the close re-reads it). */
  debounceSeconds: number;
}

export type DebounceCloseResult =
  | { state: 'waiting'; remainingMs: number }
  | { state: 'closed'; executionId: string | null }
  | { state: 'gone' };

// --- Cleanup on delete --------------------------------------------------------------------

export const automationCleanupWorkflowId = (automationId: string) => `cleanup/automation/${automationId}`;

export interface AutomationCleanupInput {
  automationId: string;
  organizationId: string;
}

export interface AutomationCleanupResult {
  executionsDeleted: number;
  workflowsStopped: number;
}
