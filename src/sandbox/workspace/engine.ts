/**
 * What every part of the workspace runtime shares: the engine, the runtime's options and log,
 * and the few calls on a workspace's container that all of them make (find it, look at it,
 * start it, the network it belongs on).
 */
import type Docker from 'dockerode';
import { LOCAL_VOLUMES, type WorkspaceVolumeSettings } from '../../domain/workspaceVolumes';
import type { Logger } from '../../logger';
import { dockerStatus } from '../errors';
import { networkModeFrom, workspaceName } from './container';
import { workspaceDockerError } from './errors';
import type { WorkspaceRuntimeOptions, WorkspaceSpec } from './types';

export interface WorkspaceEngine {
  docker: Docker;
  options: WorkspaceRuntimeOptions;
  log: Logger;
  /** The fixed network mode (used when networks are not isolated per organization). */
  networkMode: string;
  volumes: WorkspaceVolumeSettings;
  container(replicaId: string): Docker.Container;
  /** The container's state, or null when it does not exist. */
  inspect(replicaId: string): Promise<Docker.ContainerInspectInfo | null>;
  /** Starts the container (a running one is fine), mapping a missing or stopped container to the runtime's errors. */
  startContainer(replicaId: string): Promise<void>;
  /** The organization's network when networks are isolated; null otherwise (the fixed network mode). */
  networkOf(spec: Pick<WorkspaceSpec, 'replicaId' | 'organizationId'>): Promise<string | null>;
}

export function workspaceEngine(docker: Docker, options: WorkspaceRuntimeOptions): WorkspaceEngine {
  const log = options.logger.child({ component: 'workspace' });
  const networkMode = networkModeFrom(options.networkMode);
  const container = (replicaId: string) => docker.getContainer(workspaceName(replicaId));

  return {
    docker,
    options,
    log,
    networkMode,
    volumes: options.volumes ?? LOCAL_VOLUMES,
    container,

    async inspect(replicaId) {
      try {
        return await container(replicaId).inspect();
      } catch (err) {
        if (dockerStatus(err) === 404) return null;
        throw err;
      }
    },

    async startContainer(replicaId) {
      const startedAt = Date.now();
      try {
        await container(replicaId).start();
      } catch (err) {
        if (dockerStatus(err) === 304) return;
        throw workspaceDockerError(err, replicaId);
      }
      log.info('workspace started', { replicaId, durationMs: Date.now() - startedAt });
    },

    async networkOf(spec) {
      if (!options.networks || networkMode === 'none') return null;
      if (!spec.organizationId) throw new Error(`workspace ${spec.replicaId} has no organization to take its network from`);
      return options.networks.forOrganization(spec.organizationId);
    },
  };
}
