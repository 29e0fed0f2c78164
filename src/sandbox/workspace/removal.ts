/**
 * Removing a workspace: its container alone (its volume kept, for a workspace now running on
 * another host over the same shared volume), or everything, the volume's data and an
 * organization network it leaves unused included.
 */
import { rmdir } from 'node:fs/promises';
import { hardenedContainer, LABEL_ROLE } from '../docker';
import { dockerStatus } from '../errors';
import { workspaceName } from './container';
import type { WorkspaceEngine } from './engine';
import { bindDirectory, keepsNoData } from './volumes';
import type { WorkspaceRuntime } from './types';

export type WorkspaceRemoval = Pick<WorkspaceRuntime, 'removeContainer' | 'remove'>;

export function workspaceRemoval(engine: WorkspaceEngine): WorkspaceRemoval {
  const { docker, options, log, volumes, container, inspect } = engine;

  /**
   * Deletes everything in a volume with a short-lived container: root with only the capability
   * to remove others' files, no network. A volume that does not exist is left alone.
   */
  async function emptyVolume(name: string): Promise<void> {
    const exists = await docker.getVolume(name).inspect().then(() => true, (err: unknown) => (dockerStatus(err) === 404 ? false : Promise.reject(err)));
    if (!exists) return;
    const spec = hardenedContainer({ memoryBytes: 256 * 1024 * 1024, nanoCpus: 1_000_000_000, pidsLimit: 64, networkMode: 'none', oomScoreAdj: 0, mounts: [{ Type: 'volume', Source: name, Target: '/volume' }] });
    const cleaner = await docker.createContainer({
      ...spec,
      Image: options.image,
      Cmd: ['find', '/volume', '-mindepth', '1', '-delete'],
      User: '0:0',
      Labels: { [LABEL_ROLE]: 'workspace-cleaner' },
      HostConfig: { ...spec.HostConfig, CapAdd: ['DAC_OVERRIDE'] },
    });
    try {
      await cleaner.start();
      const { StatusCode } = (await cleaner.wait()) as { StatusCode: number };
      if (StatusCode !== 0) throw new Error(`emptying the workspace volume ${name} failed (exit ${StatusCode})`);
    } finally {
      await cleaner.remove({ force: true }).catch(() => undefined);
    }
  }

  return {
    async removeContainer(replicaId) {
      try {
        await container(replicaId).remove({ force: true });
      } catch (err) {
        if (dockerStatus(err) !== 404) throw err;
      }
      log.info('workspace container removed, its volume kept', { replicaId });
    },

    async remove(replicaId) {
      const name = workspaceName(replicaId);
      const joined = Object.keys((await inspect(replicaId))?.NetworkSettings?.Networks ?? {});
      try {
        await container(replicaId).remove({ force: true, v: true });
      } catch (err) {
        if (dockerStatus(err) !== 404) throw err;
      }
      for (const network of joined) {
        if (!options.networks?.isOrganizationNetwork(network)) continue;
        await options.networks.releaseIfUnused(network).catch((err: unknown) => log.warn('could not remove an unused workspace network', { network, err }));
      }
      // Storage other hosts open keeps its data when a volume is removed: empty it first, so a
      // removed workspace is forgotten there too (an archived one comes back fresh).
      if (!keepsNoData(volumes)) await emptyVolume(name);
      // The engine can report the volume in use for a moment after the container is gone.
      for (let attempt = 1; ; attempt++) {
        try {
          await docker.getVolume(name).remove();
          break;
        } catch (err) {
          const status = dockerStatus(err);
          if (status === 404) break;
          if (status !== 409 || attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      // The directory made for a bind goes too (rmdir: only when empty).
      const dir = bindDirectory(volumes, name);
      if (dir) await rmdir(dir).catch(() => undefined);
      log.info('workspace removed', { replicaId });
    },
  };
}
