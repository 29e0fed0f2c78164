/**
 * Every activity a workflow calls, grouped by timeout and retry class, in one file so the
 * policies are reviewed side by side. A workflow imports the group that fits the work, never
 * `proxyActivities` itself.
 */
import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { AgentTurnActivities } from '../activities/agentTurns';
import type { AutomationCheckActivities } from '../activities/automationChecks';
import type { AutomationCleanupActivities } from '../activities/automationCleanup';
import type { AutomationEventActivities } from '../activities/automationEvents';
import type { AutomationRunActivities } from '../activities/automationRuns';
import type { AutomationScheduleActivities } from '../activities/automationSchedule';
import type { CanvasActivities } from '../activities/canvas';
import type { HookActivities } from '../activities/hooks';
import type { HostActivities } from '../activities/hosts';
import type { ThreadActivities } from '../activities/threads';
import type { WarmPoolActivities } from '../activities/warmPool';
import type { WorkspaceActivities } from '../activities/workspace';
import type { HostPlacement } from './shared';

/**
 * Bookkeeping in the database: quick, and retried for a while so a database blip does not
 * fail a workspace or a pool.
 */
export const records = proxyActivities<WorkspaceActivities & AgentTurnActivities & WarmPoolActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

/**
 * A run's records must end up written whatever happens (an execution never stays `running`),
 * so these retry until they succeed. Input errors are non-retryable failures.
 */
export const runRecords = proxyActivities<AutomationRunActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** The cron loop's reads and fire records: retried with a capped backoff. */
export const schedules = proxyActivities<AutomationScheduleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Closing a debounce window takes an exclusive lock: retried quickly until it goes through. */
export const windows = proxyActivities<AutomationEventActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

/** Checks on the code-hosting platform: best effort, a bounded number of tries. */
export const checks = proxyActivities<AutomationCheckActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 8, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Whether a deleted automation's delete has committed: a few quick tries. */
export const cleanupChecks = proxyActivities<AutomationCleanupActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumAttempts: 5 },
});

/** Stopping workflows and deleting history in batches: long, heartbeating, retried. */
export const cleanups = proxyActivities<AutomationCleanupActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * Container work: provisioning clones and runs hooks (heartbeats carry progress). The
 * activity reports a failure on its last attempt instead of throwing it. Every container
 * activity heartbeats every 5 s, so a worker lost mid-provisioning is noticed after 20 s, as
 * for turns (bench/recovery.ts: a minute's wait before, when this was a minute).
 */
const CONTAINERS: ActivityOptions = {
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds' },
};
export const containers = proxyActivities<WorkspaceActivities>(CONTAINERS);

/**
 * A warm-pool build: not retried by Temporal; the activity records a failure on the pool and
 * the pool's workflow backs off.
 */
const BUILDS: ActivityOptions = {
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
};
export const builds = proxyActivities<WarmPoolActivities>(BUILDS);

/**
 * Agent turns as histories from before the supervisor schedule them (`runNextTurn`): long and
 * heartbeating every few seconds, with a second attempt for a worker lost mid-turn.
 */
const TURNS: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 2, initialInterval: '1 second' },
};
export const turns = proxyActivities<AgentTurnActivities>(TURNS);

/**
 * Agent turns under the in-workspace supervisor (`runAgentTurn`, behind the
 * `turns-outlive-workers` patch): the agent runs in its workspace, not in the worker's exec, so a
 * turn outlives its worker. An attempt ends when its worker is lost (the heartbeat stops) or
 * stops (it hands the turn over at once), and the next attempt follows the same agent on from
 * the records: an attempt is a worker's loss, not the turn's, so there are many, soon after each
 * other. The turn itself is bounded by its own limit (the activity stops the agent at 2 hours,
 * counted from its start over every attempt); the timeouts here are backstops beyond it.
 */
const SUPERVISED_TURNS: ActivityOptions = {
  startToCloseTimeout: '130 minutes',
  scheduleToCloseTimeout: '3 hours',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 60, initialInterval: '1 second', maximumInterval: '30 seconds' },
};
export const supervisedTurns = proxyActivities<AgentTurnActivities>(SUPERVISED_TURNS);

/**
 * A start-hook test: one attempt plus one retry. A worker that dies mid-test leaves no state
 * behind, so running the (unpersisted) script again is safe. The sandbox enforces the 90 s
 * deadline; this timeout only bounds a worker that stopped answering.
 */
export const hookTests = proxyActivities<HookActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 2 },
});

/**
 * Outbound webhooks: one attempt per activity, retried on the webhook schedule (the activity
 * sets each next delay).
 */
export const webhooks = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { maximumAttempts: 6, initialInterval: '1 second', backoffCoefficient: 5, maximumInterval: '10 minutes' },
});

/**
 * Canvas reads the API waits for: a few seconds of Docker archive work, retried briefly (a
 * retried copy writes a new key; the API deletes the one it is answered).
 */
const CANVAS_READS: ActivityOptions = {
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '500 milliseconds' },
};
export const canvasReads = proxyActivities<CanvasActivities>(CANVAS_READS);

/**
 * Placing a workspace or a warm-pool entry on a worker host: a database transaction, retried
 * for a few minutes while every host is full or silent (a host may come back or free room),
 * after which the workspace ends in error with the activity's message. Retries stay at most
 * 3 s apart: a slot freed on a full host is taken within seconds (bench:hosts saw a 20 s ceiling
 * leave freed slots idle for most of a batch), for one small transaction per waiting workspace.
 */
export const placements = proxyActivities<HostActivities>({
  startToCloseTimeout: '30 seconds',
  scheduleToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '3 seconds' },
});

/**
 * The activities that work on a container, sent to the queue of the host that holds it
 * (Temporal's worker-specific task queues). A host whose worker does not pick one up within
 * the placement's schedule-to-start timeout is taken as lost (`isHostLost`). Without a
 * placement (a workspace from before hosts were recorded) the shared queue serves them, as it
 * always did.
 */
export function onHost(host: HostPlacement | undefined) {
  if (!host) return { containers, builds, turns, supervisedTurns, canvasReads };
  const at = { taskQueue: host.taskQueue, ...(host.scheduleToStartMs === null ? {} : { scheduleToStartTimeout: host.scheduleToStartMs }) };
  return {
    containers: proxyActivities<WorkspaceActivities>({ ...CONTAINERS, ...at }),
    builds: proxyActivities<WarmPoolActivities>({ ...BUILDS, ...at }),
    turns: proxyActivities<AgentTurnActivities>({ ...TURNS, ...at }),
    supervisedTurns: proxyActivities<AgentTurnActivities>({ ...SUPERVISED_TURNS, ...at }),
    canvasReads: proxyActivities<CanvasActivities>({ ...CANVAS_READS, ...at }),
  };
}

/**
 * Threads: routing a message writes records and may call the provider for the thread's new
 * messages, so it is retried for a while; input errors are non-retryable.
 */
export const threadRouting = proxyActivities<ThreadActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Answers in a thread (acknowledgements, the agent's replies): the provider may be briefly down. */
export const threadReplies = proxyActivities<ThreadActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 8, initialInterval: '2 seconds', maximumInterval: '2 minutes' },
});
