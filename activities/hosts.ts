/**
 * Placement on worker hosts: which Docker host holds a new workspace (or warm-pool entry).
 * These run on the shared task queue (any worker may place); the container work that follows
 * goes to the chosen host's own queue (docs/decisions/hosts.md, "Workspaces pinned to worker hosts").
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Repositories } from '../src/db';
import type { Logger } from '../src/logger';
import { FailureTypes, type HostPlacement } from '../workflows/shared';

export interface HostActivityDeps {
  repos: Pick<Repositories, 'workerHosts' | 'replicas' | 'environments'>;
  logger: Logger;
  /** The schedule-to-start timeout of container work, and how long a silent host is still offered work. */
  hostTimeoutMs: number;
  /** `HANGAR_WORKSPACE_VOLUMES_SHARED`: every host opens the same workspace volumes, so a lost host's workspaces can move. */
  workspaceVolumesShared?: boolean;
}

/** Hosts seen within this long count as the deployment's hosts (a host renamed or retired long ago does not). */
const RECENT_HOSTS_MS = 7 * 24 * 3600 * 1000;

/** The label on every workspace container naming the worker host that created it. */
export { HOST_LABEL } from '../src/sandbox/workspace/movedAway';

export function createHostActivities(deps: HostActivityDeps) {
  const { workerHosts } = deps.repos;
  // On the only host there is, work waits for it (a restart, however slow, loses nothing);
  // with others, a host that does not pick up its work in time is taken as lost.
  const placement = async (host: { id: string; taskQueue: string }): Promise<HostPlacement> => ({
    hostId: host.id,
    taskQueue: host.taskQueue,
    scheduleToStartMs: (await workerHosts.countRecent(RECENT_HOSTS_MS)) > 1 ? deps.hostTimeoutMs : null,
    ...(deps.workspaceVolumesShared ? { sharedVolumes: true } : {}),
  });
  // Retried by the workflow's policy while every host is full or silent; the workflow ends
  // the workspace in error with this message when the retries run out.
  const noHost = () =>
    ApplicationFailure.create({
      type: FailureTypes.noWorkerHost,
      message: `no worker host has room: every host seen in the last ${Math.round(deps.hostTimeoutMs / 1000)} s is at its HANGAR_HOST_MAX_WORKSPACES limit, or none is running`,
    });

  return {
    /** The workspace's host: recorded on the replica, so a retry (or a later run of its workflow) gets the same one. */
    async placeWorkspace({ replicaId }: { replicaId: string }): Promise<HostPlacement | null> {
      const row = await deps.repos.replicas.find(replicaId);
      if (!row) return null;
      const environmentId = row.environment_id ?? (await deps.repos.environments.findGlobal(row.organization_id))?.id ?? null;
      const host = await workerHosts.placeReplica(replicaId, { windowMs: deps.hostTimeoutMs, environmentId });
      if (!host) throw noHost();
      // From the workflow's request to the choice, queueing included (bench/hosts.ts reads it).
      const waitedMs = Date.now() - Context.current().info.currentAttemptScheduledTimestampMs;
      deps.logger.info('workspace placed', { replicaId, hostId: host.id, placementMs: waitedMs });
      return await placement(host);
    },

    /**
     * A workspace whose host was lost, on shared storage: another live host for it, recorded on
     * the replica; null when there is none (the workspace goes to `error`).
     */
    async replaceWorkspace({ replicaId, lostHostId }: { replicaId: string; lostHostId: string }): Promise<HostPlacement | null> {
      const row = await deps.repos.replicas.find(replicaId);
      if (!row) return null;
      const environmentId = row.environment_id ?? (await deps.repos.environments.findGlobal(row.organization_id))?.id ?? null;
      const host = await workerHosts.replaceReplica(replicaId, { lostHostId, windowMs: deps.hostTimeoutMs, environmentId });
      if (!host) {
        deps.logger.warn('no other live host for a workspace whose host was lost', { replicaId, lostHostId });
        return null;
      }
      deps.logger.info('workspace moved off a lost host', { replicaId, lostHostId, hostId: host.id });
      return await placement(host);
    },

    /** Where to send container work for a host already chosen; null when it is not running now. */
    async hostOf({ hostId }: { hostId: string }): Promise<HostPlacement | null> {
      const host = await workerHosts.findLive(hostId, deps.hostTimeoutMs);
      return host ? await placement({ id: host.id, taskQueue: host.task_queue }) : null;
    },

    async placeWarmPoolEntry({ configId }: { configId: string }): Promise<HostPlacement> {
      const host = await workerHosts.placeWarmEntry({ windowMs: deps.hostTimeoutMs });
      if (!host) throw noHost();
      deps.logger.info('warm pool entry placed', { configId, hostId: host.id });
      return await placement(host);
    },
  };
}

export type HostActivities = ReturnType<typeof createHostActivities>;
