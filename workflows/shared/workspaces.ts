/** A workspace's workflow: its id, input, carried state, signals and query (workflows/shared.ts). */
import type { HostPlacement } from './hosts';

export const workspaceWorkflowId = (replicaId: string) => `workspace/${replicaId}`;

export type WorkspaceStatus = 'preparing' | 'active' | 'sleeping' | 'archived' | 'error';
/**
 * `restart` comes from the workspace's own worker, never a user: its container stopped without
 * the workflow asking (the Docker engine restarted, the container was killed).
 */
export type LifecycleRequest = 'sleep' | 'wake' | 'archive' | 'delete' | 'restart';
export type LifecyclePolicy = 'default' | 'archive_when_done' | 'sleep_when_done' | 'delete_after_inactivity';

export interface WorkspaceInput {
  replicaId: string;
  organizationId: string;
  lifecyclePolicy: LifecyclePolicy;
  /** Inactivity before an active workspace sleeps (or is deleted, for delete_after_inactivity). */
  idleMs: number;
  /** How long a sleeping workspace waits before it is archived. */
  archiveAfterMs: number;
  /** Continue-as-new once history passes this many events (Temporal also suggests it). */
  historyLimit: number;
  /** Whether the replica has a webhook_url (no delivery activities otherwise). */
  hasWebhook?: boolean;
  /** A chat with queued work at the start (an automation run's workspace, started as a child). */
  firstChatId?: string;
  /** An automation run waiting for one message's turn: told its outcome by `runTurnFinished`. */
  reportTo?: RunReportTarget;
  /** State carried across continue-as-new. */
  carried?: WorkspaceCarriedState;
}

export interface WorkspaceCarriedState {
  status: WorkspaceStatus;
  pendingChats: string[];
  lifecycle: LifecycleRequest[];
  /** Whether `reportTo` has been told already. */
  reported?: boolean;
  /** Grouped runs waiting for a turn (`reportTurn`), not told yet. */
  reportTargets?: RunReportTarget[];
  /** The host holding the container; absent for a workspace placed before hosts were recorded (the shared queue serves it). */
  host?: HostPlacement;
}

export interface RunReportTarget {
  workflowId: string;
  messageId: string;
}

/** What an agent turn activity answers; `ran: false` when the chat had nothing queued. */
export interface TurnResult {
  ran: boolean;
  messageId?: string;
  ok?: boolean;
  error?: string | null;
  /** The turn was cut short (its container stopped, its host lost, its activity timed out or cancelled), not failed by the agent. */
  interrupted?: boolean;
  /** Cut short with its agent's session kept on the chat: the next message continues it. */
  resumable?: boolean;
  /** Nothing ran because the workspace's container was not running: the chat waits for its restart. */
  containerDown?: boolean;
}

export interface WorkspaceState {
  status: WorkspaceStatus;
  pendingChats: string[];
  runningChats: string[];
}

export const WORKSPACE_SIGNALS = { workRequested: 'workRequested', lifecycle: 'lifecycle', reportTurn: 'reportTurn' } as const;
export const WORKSPACE_QUERIES = { state: 'state' } as const;
