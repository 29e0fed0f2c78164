/**
 * A workspace that moved to another host (its own was lost, its volume is on shared storage) may
 * have left its container here. When this host's worker comes back, that container must never
 * run again beside the new one over the same volume: the worker removes it (the container only,
 * never the volume or its data) at start, and refuses to start it later
 * (docs/decisions/hosts.md, "Re-provisioning on shared storage").
 */
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { LABEL_ROLE } from '../docker';
import { LABEL_REPLICA, WORKSPACE_ROLE } from './container';

/** The label naming the worker host that made a workspace container (activities/hosts.ts re-exports it). */
export const HOST_LABEL = 'dev.hangar.host';

export interface MovedAwaySweepDeps {
  docker: Docker;
  hostId: string;
  /** Of these container keys, the ones whose replica now lives on another host. */
  movedAway: (hostId: string, keys: string[]) => Promise<string[]>;
  removeContainer: (key: string) => Promise<void>;
  logger: Logger;
}

/** Removes this host's workspace containers whose replicas live on another host now; answers how many. */
export async function sweepMovedWorkspaces(deps: MovedAwaySweepDeps): Promise<number> {
  // Only containers this host made: workers of other host ids can share one engine (the tests do).
  const found = await deps.docker.listContainers({ all: true, filters: { label: [`${LABEL_ROLE}=${WORKSPACE_ROLE}`, `${HOST_LABEL}=${deps.hostId}`] } });
  const keys = found.map((c) => c.Labels[LABEL_REPLICA]).filter((key): key is string => !!key);
  const moved = await deps.movedAway(deps.hostId, keys);
  for (const key of moved) {
    await deps.removeContainer(key).catch((err: unknown) => deps.logger.warn('removing the container of a workspace that moved away failed', { key, err }));
  }
  if (moved.length) deps.logger.info('removed containers of workspaces that moved to another host', { count: moved.length });
  return moved.length;
}
