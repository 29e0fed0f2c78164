/** Task queues, worker hosts and the failure types activities raise on purpose (workflows/shared.ts). */

export const DEFAULT_TASK_QUEUE = 'hangar';

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

/** Failure types activities raise on purpose; the gateway maps them to HTTP statuses. */
export const FailureTypes = {
  environmentGone: 'EnvironmentGone',
  sandboxUnavailable: 'SandboxUnavailable',
  invalidInput: 'InvalidInput',
  /** No live worker host has room for a new workspace (or warm-pool entry). */
  noWorkerHost: 'NoWorkerHost',
} as const;
