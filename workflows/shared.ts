/**
 * The contract between the API and the workers: task queue, workflow ids, input and output
 * types. The API imports values from this file only; other workflow files are `import type`.
 */
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair, type TypedSearchAttributes } from '@temporalio/common';

export const DEFAULT_TASK_QUEUE = 'hangar';

// --- Visibility ----------------------------------------------------------------------------

/**
 * Custom search attributes on every workflow Hangar starts, so that an operator finds a
 * workflow in the Temporal UI by what it belongs to (`HangarAutomationId = "…"`). They must be
 * registered on the namespace: the dev server gets them at start, a cluster by
 * `temporal operator search-attribute create` (docs/operations.md).
 */
export const SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('HangarOrganizationId', SearchAttributeType.KEYWORD),
  automationId: defineSearchAttributeKey('HangarAutomationId', SearchAttributeType.KEYWORD),
  replicaId: defineSearchAttributeKey('HangarReplicaId', SearchAttributeType.KEYWORD),
  executionId: defineSearchAttributeKey('HangarExecutionId', SearchAttributeType.KEYWORD),
  /** How it started: `manual`, `cron`, or the event's source (`github`, `gitlab`, `slack`, `sentry`, `custom`). */
  trigger: defineSearchAttributeKey('HangarTrigger', SearchAttributeType.KEYWORD),
} as const;

export type WorkflowLabels = Partial<Record<keyof typeof SEARCH_ATTRIBUTES, string>>;

/** Human names shown with a workflow in the Temporal UI, where the starter already has them. */
export interface WorkflowMemo {
  automationName?: string;
  replicaName?: string;
}

const LABELS = Object.keys(SEARCH_ATTRIBUTES) as Array<keyof typeof SEARCH_ATTRIBUTES>;

/** The pairs of the labels that have a value (an unknown id is left out, never set empty). */
export function searchAttributePairs(labels: WorkflowLabels): SearchAttributePair[] {
  return LABELS.filter((label) => labels[label]).map((label) => ({ key: SEARCH_ATTRIBUTES[label], value: labels[label]! }));
}

/** The labels a workflow carries (its own, read to pass on to the workflows it starts). */
export function labelsOf(attributes: TypedSearchAttributes): WorkflowLabels {
  const labels: WorkflowLabels = {};
  for (const label of LABELS) {
    const value = attributes.get(SEARCH_ATTRIBUTES[label]);
    if (value) labels[label] = value;
  }
  return labels;
}

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
  /** No live worker host has room for a new workspace (or warm-pool entry). */
  noWorkerHost: 'NoWorkerHost',
} as const;

// --- Worker hosts ----------------------------------------------------------------------------

/** The task queue of one worker host's container work: its worker polls it besides the shared one. */
export const hostTaskQueue = (taskQueue: string, hostId: string) => `${taskQueue}@${hostId}`;

/**
 * Where a workspace's container lives, as placement answered: its container activities go to
 * `taskQueue` and fail when no worker picks them up within `scheduleToStartMs` (the host is
 * taken as lost). Null when placed on the only host there is: its work waits for it to come
 * back, as it always did on one machine, since there is nowhere else for a workspace to go.
 */
export interface HostPlacement {
  hostId: string;
  taskQueue: string;
  scheduleToStartMs: number | null;
  /**
   * The placing worker's `HANGAR_WORKSPACE_VOLUMES_SHARED`: every host opens this workspace's
   * volume, so when the host is lost the workspace is re-provisioned on another one instead of
   * ending in `error`.
   */
  sharedVolumes?: boolean;
}

// --- Workspaces ----------------------------------------------------------------------------

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
  /** The turn was cut short (its worker lost or stopped, its activity timed out or cancelled), not failed by the agent. */
  interrupted?: boolean;
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

// --- Threads (Slack, Linear, GitHub/GitLab issues routed to workspaces) -------------------
// The receivers' side of this contract is src/integrations/threads/types.ts.

export type ThreadProvider = 'slack' | 'linear' | 'github' | 'gitlab';

/** A person on the provider's side, as the delivery names them. */
export interface ThreadAuthor {
  /** Slack user id, Linear user id, GitHub/GitLab numeric account id (never the login: it can be renamed and taken). */
  externalId: string;
  /** A readable name (GitHub/GitLab: the login). */
  name?: string | null;
  /** When a signed delivery carries it (Linear, GitHub); otherwise the adapter may look it up. Never GitLab's. */
  email?: string | null;
  /** The delivery says the person is of another organization than the connection's (Slack Connect): never linked by email. */
  external?: boolean;
}

/** One new message in a thread, for its workspace. */
export interface InboundThreadMessage {
  provider: ThreadProvider;
  organizationId: string;
  /** The organization's connection (Slack, Linear, GitLab); null for GitHub and the deployment's GitLab token. */
  connectionId: string | null;
  /** Stable per thread within the organization, e.g. `T1:C1:1700000000.000100`, a Linear issue id, `owner/repo#12`. */
  threadKey: string;
  /** Unique per delivery: deduplication and the workflow id. At most 200 characters of [A-Za-z0-9._:-]. */
  deliveryId: string;
  /** What the workspace's agent is told (already the new messages only, formatted). */
  text: string;
  author: ThreadAuthor;
  /** `[env:name]` found in the text: the environment a new workspace uses. */
  environmentName?: string | null;
  /** A new workspace's name. */
  title?: string | null;
  /** What the adapter needs to answer in the thread (channel and ts, issue id, repository and number…); stored on the thread. */
  reference: Record<string, unknown>;
  /** Provider position of this message (Slack ts, comment id): kept as the thread's cursor. */
  cursor?: string | null;
}

/** The thread ended (the issue or pull request was closed): the workspace's lifecycle policy applies. */
export interface ThreadClosed {
  provider: ThreadProvider;
  organizationId: string;
  threadKey: string;
  deliveryId: string;
}


/** One workflow per delivery: it routes the message (or the close) and acknowledges it in the thread. */
export const threadEventWorkflowId = (provider: string, deliveryId: string) => `thread-event/${provider}/${deliveryId}`;

export type ThreadEventInput =
  | { kind: 'message'; message: InboundThreadMessage }
  | { kind: 'close'; closed: ThreadClosed };

// --- Warm pools ----------------------------------------------------------------------------

export const warmPoolWorkflowId = (environmentId: string) => `warmPool/${environmentId}`;

export interface WarmPoolInput {
  configId: string;
  environmentId: string;
  organizationId: string;
}

/** Sent when the pool may need work: enabled or disabled, an entry claimed, a warm hook saved. */
export const WARM_POOL_SIGNALS = { changed: 'warmPoolChanged' } as const;

// --- Automation runs -----------------------------------------------------------------------

export const automationRunWorkflowId = (executionId: string) => `run/${executionId}`;

/** The workspace of a run tells the run how the agent's turn on its prompt ended. */
export const RUN_SIGNALS = { turnFinished: 'runTurnFinished' } as const;

export interface RunOutcome {
  ok: boolean;
  error: string | null;
  /** The turn was cut short (its worker lost or stopped, its activity timed out), not failed by the agent: the circuit breaker ignores it. */
  interrupted?: boolean;
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

// --- Canvas reads ------------------------------------------------------------------------

/** One short workflow per canvas request: the API waits for its result. */
export const canvasWorkflowId = (requestId: string) => `canvas/${requestId}`;

/** Every blob of a replica starts with this prefix, so deleting it finds them all. */
export const replicaBlobPrefix = (replicaId: string) => `replicas/${replicaId}/`;
export const canvasCopyKey = (replicaId: string, copyId: string) => `${replicaBlobPrefix(replicaId)}canvas/${copyId}`;
export const mediaBlobKey = (replicaId: string, mediaId: string) => `${replicaBlobPrefix(replicaId)}media/${mediaId}`;

/** `host`: the workspace's host (the API reads it from the replica); absent, the shared queue. */
export type CanvasInput =
  | { requestId: string; replicaId: string; op: 'list'; host?: HostPlacement }
  | { requestId: string; replicaId: string; op: 'read'; filename: string; maxBytes: number; contentType: string; host?: HostPlacement };

export interface CanvasListResult {
  items: Array<{ filename: string; sizeBytes: number }>;
}

/** A read's bytes are in the blob store under `storageKey`, never in the result. */
export type CanvasReadResult = { state: 'missing' } | { state: 'tooLarge'; sizeBytes: number } | { state: 'read'; sizeBytes: number; storageKey: string };
