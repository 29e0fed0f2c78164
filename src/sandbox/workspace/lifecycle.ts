/**
 * A workspace's container coming and going: created (with its volume) or woken, started on
 * its organization's network, stopped, and what state it is in.
 */
import { workspaceStartDuration, secondsSince } from '../../metrics';
import { LABEL_ROLE } from '../docker';
import { dockerStatus, SandboxImageMissingError } from '../errors';
import { moveOnto } from '../network/networks';
import { LABEL_REPLICA, limitsFor, workspaceContainerSpec, workspaceName, WORKSPACE_ROLE, type WorkspaceLimits } from './container';
import type { WorkspaceEngine } from './engine';
import { prepareVolumeStorage, volumeOptions } from './volumes';
import type { WorkspaceRuntime, WorkspaceSpec, WorkspaceState } from './types';

const STOP_TIMEOUT_S = 5;

export type WorkspaceLifecycle = Pick<WorkspaceRuntime, 'ensure' | 'stop' | 'start' | 'state' | 'runningSince' | 'address'>;

export function workspaceLifecycle(engine: WorkspaceEngine): WorkspaceLifecycle {
  const { docker, options, log, networkMode, volumes, container, inspect, startContainer, networkOf } = engine;
  let hostCpus: Promise<number> | null = null;
  const cpus = () =>
    (hostCpus ??= docker.info().then(
      (info: { NCPU?: number }) => Number(info.NCPU) || 1,
      (err: unknown) => {
        hostCpus = null;
        throw err;
      },
    ));

  /**
   * Creates the container; when its organization's network went away in between (the last other
   * workspace was just removed), makes the network again and tries once more.
   */
  async function createContainer(spec: WorkspaceSpec, limits: WorkspaceLimits, labels: Record<string, string>): Promise<void> {
    const createSpec = () => workspaceContainerSpec(options.image, spec.replicaId, limits, spec.env, labels);
    try {
      await docker.createContainer(createSpec());
    } catch (err) {
      if (!options.networks || dockerStatus(err) !== 404 || !/network/i.test(String((err as Error).message))) throw err;
      options.networks.forget(limits.networkMode);
      await networkOf(spec);
      await docker.createContainer(createSpec());
    }
  }

  return {
    async ensure(spec) {
      const name = workspaceName(spec.replicaId);
      const network = await networkOf(spec);
      const existing = await inspect(spec.replicaId);
      if (existing) {
        if (network) await moveOnto(docker, existing, network, log);
        if (!existing.State.Running) {
          const waking = performance.now();
          await startContainer(spec.replicaId);
          workspaceStartDuration.observe({ kind: 'woken' }, secondsSince(waking));
        }
        return { created: false };
      }
      const startedAt = Date.now();
      const labels = { ...spec.labels, [LABEL_ROLE]: WORKSPACE_ROLE, [LABEL_REPLICA]: spec.replicaId };
      const limits = limitsFor(spec.size, await cpus(), options.memoryCapBytes, network ?? networkMode);
      // On shared storage the volume may hold a workspace re-provisioned from another host: its
      // data is kept; an empty one is filled from the image's home at the container's first start.
      await prepareVolumeStorage(volumes, name);
      await docker.createVolume({ Name: name, Labels: labels, Driver: volumes.driver, DriverOpts: volumeOptions(volumes, name) });
      try {
        await createContainer(spec, limits, labels);
      } catch (err) {
        const status = dockerStatus(err);
        if (status === 404) throw new SandboxImageMissingError(options.image);
        if (status !== 409) throw err;
        // Another ensure created it first.
        await startContainer(spec.replicaId);
        return { created: false };
      }
      const createdAt = Date.now();
      await startContainer(spec.replicaId);
      log.info('workspace created', { replicaId: spec.replicaId, size: spec.size, network: limits.networkMode, createMs: createdAt - startedAt, totalMs: Date.now() - startedAt });
      workspaceStartDuration.observe({ kind: 'created' }, (Date.now() - startedAt) / 1000);
      return { created: true };
    },

    async stop(replicaId) {
      const startedAt = Date.now();
      try {
        await container(replicaId).stop({ t: STOP_TIMEOUT_S });
      } catch (err) {
        const status = dockerStatus(err);
        if (status === 304 || status === 404) return;
        throw err;
      }
      log.info('workspace stopped', { replicaId, durationMs: Date.now() - startedAt });
    },

    async start(replicaId, organizationId) {
      const network = organizationId ? await networkOf({ replicaId, organizationId }) : null;
      const info = network ? await inspect(replicaId) : null;
      if (network && info) await moveOnto(docker, info, network, log);
      await startContainer(replicaId);
    },

    async state(replicaId): Promise<WorkspaceState> {
      const info = await inspect(replicaId);
      if (!info) return 'missing';
      return info.State.Running ? 'running' : 'stopped';
    },

    async runningSince(replicaId) {
      const info = await inspect(replicaId);
      return info?.State.Running ? info.State.StartedAt : null;
    },

    async address(replicaId) {
      const info = await inspect(replicaId);
      if (!info?.State.Running) return null;
      const networks = info.NetworkSettings?.Networks ?? {};
      // The workspace's only network (its organization's, or the fixed network mode's).
      return Object.values(networks).find((n) => n?.IPAddress)?.IPAddress || null;
    },
  };
}
