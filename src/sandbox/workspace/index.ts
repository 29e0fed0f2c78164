/**
 * The workspace runtime: one long-lived, hardened container per replica (`hangar-ws-<id>`)
 * with its home on a volume of the same name, so stopping keeps everything and removing
 * forgets it. Everything in it runs as `hangar` through execs.
 */
import { rm, rmdir } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type Docker from 'dockerode';
import { LOCAL_VOLUMES } from '../../domain/workspaceVolumes';
import { workspaceStartDuration, secondsSince } from '../../metrics';
import { hardenedContainer, LABEL_ROLE } from '../docker';
import { dockerStatus, SandboxImageMissingError } from '../errors';
import { moveOnto } from '../network/networks';
import { SANDBOX_HOME } from '../request';
import {
  checkoutPath,
  cloneOnHost,
  DEFAULT_CLONE_TIMEOUT_MS,
  DEFAULT_GIT_IDENTITY,
  EXTRACT_CHECKOUT_SCRIPT,
  packDirectory,
  PREPARE_CHECKOUT_SCRIPT,
} from './checkout';
import { LABEL_REPLICA, limitsFor, networkModeFrom, workspaceContainerSpec, workspaceName, WORKSPACE_ROLE, type WorkspaceLimits } from './container';
import { WorkspaceOperationError, workspaceDockerError } from './errors';
import { killSession, runExec, type RawExecRequest } from './exec';
import { buildFilesArchive, EXTRACT_FILES_SCRIPT, prepareWorkspaceFiles } from './files';
import { runWorkspaceHook } from './hook';
import { LineSplitter } from './lines';
import { openWorkspaceTty } from './tty';
import { bindDirectory, keepsNoData, prepareVolumeStorage, volumeOptions } from './volumes';
import type { ExecRequest, WorkspaceRuntime, WorkspaceRuntimeOptions, WorkspaceSpec, WorkspaceState } from './types';

export type * from './types';
export { WorkspaceMissingError, WorkspaceNotRunningError, WorkspaceOperationError } from './errors';
export { TIMEOUT_EXIT_CODE } from './exec';
export { HOOK_OUTPUT_PREVIEW_CHARS } from './hook';
export { SIZES, WORKSPACE_ROLE, LABEL_REPLICA, workspaceName } from './container';
export { WORKSPACES_DIR } from './checkout';

const STOP_TIMEOUT_S = 5;

export function createWorkspaceRuntime(docker: Docker, options: WorkspaceRuntimeOptions): WorkspaceRuntime {
  if (!options.image) throw new Error('Workspace option image is required');
  const log = options.logger.child({ component: 'workspace' });
  const networkMode = networkModeFrom(options.networkMode);
  const identity = options.gitIdentity ?? DEFAULT_GIT_IDENTITY;
  const cloneTimeoutMs = options.cloneTimeoutMs ?? DEFAULT_CLONE_TIMEOUT_MS;
  const volumes = options.volumes ?? LOCAL_VOLUMES;
  let hostCpus: Promise<number> | null = null;
  const cpus = () =>
    (hostCpus ??= docker.info().then(
      (info: { NCPU?: number }) => Number(info.NCPU) || 1,
      (err: unknown) => {
        hostCpus = null;
        throw err;
      },
    ));

  const container = (replicaId: string) => docker.getContainer(workspaceName(replicaId));

  async function inspect(replicaId: string): Promise<Docker.ContainerInspectInfo | null> {
    try {
      return await container(replicaId).inspect();
    } catch (err) {
      if (dockerStatus(err) === 404) return null;
      throw err;
    }
  }

  async function startContainer(replicaId: string): Promise<void> {
    const startedAt = Date.now();
    try {
      await container(replicaId).start();
    } catch (err) {
      if (dockerStatus(err) === 304) return;
      throw workspaceDockerError(err, replicaId);
    }
    log.info('workspace started', { replicaId, durationMs: Date.now() - startedAt });
  }

  /** Runs a command as `hangar`, mapping a missing or stopped container to the runtime's errors. */
  async function run(replicaId: string, req: Omit<RawExecRequest, 'cwd'> & { cwd?: string }) {
    try {
      return await runExec(container(replicaId), { ...req, cwd: req.cwd ?? SANDBOX_HOME }, log);
    } catch (err) {
      throw workspaceDockerError(err, replicaId);
    }
  }

  /** A helper command whose stderr (and stdout) become the error text when it fails. */
  async function runQuiet(replicaId: string, argv: string[], stdin?: RawExecRequest['stdin']): Promise<{ exitCode: number; output: string }> {
    const decoder = new StringDecoder('utf8');
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 8192) output += decoder.write(chunk);
    };
    const { exitCode } = await run(replicaId, { argv, stdin, onStdout: collect, onStderr: collect });
    return { exitCode, output: (output + decoder.end()).trim() };
  }

  /** The organization's network when networks are isolated; null otherwise (the fixed network mode). */
  async function networkOf(spec: Pick<WorkspaceSpec, 'replicaId' | 'organizationId'>): Promise<string | null> {
    if (!options.networks || networkMode === 'none') return null;
    if (!spec.organizationId) throw new Error(`workspace ${spec.replicaId} has no organization to take its network from`);
    return options.networks.forOrganization(spec.organizationId);
  }

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

    async writeFiles(replicaId, files) {
      const prepared = prepareWorkspaceFiles(files);
      if (!prepared.length) return;
      const archive = await buildFilesArchive(prepared);
      const { exitCode, output } = await runQuiet(replicaId, ['bash', '-c', EXTRACT_FILES_SCRIPT], archive);
      if (exitCode !== 0) throw new WorkspaceOperationError('writeFiles', `writing ${prepared.length} file(s) failed (exit ${exitCode})`, output);
    },

    async checkout(replicaId, repo) {
      const path = checkoutPath(repo);
      const prepare = await runQuiet(replicaId, ['bash', '-c', PREPARE_CHECKOUT_SCRIPT, 'hangar-checkout', path, identity.name, identity.email]);
      if (prepare.exitCode === 0) return { path, created: false };
      if (prepare.exitCode !== 10) throw new WorkspaceOperationError('checkout', `preparing ${path} failed (exit ${prepare.exitCode})`, prepare.output);
      const startedAt = Date.now();
      const { root, dir } = await cloneOnHost(repo, cloneTimeoutMs);
      try {
        const clonedAt = Date.now();
        const tar = packDirectory(dir);
        let packError: unknown = null;
        tar.once('error', (err: unknown) => (packError = err));
        const { exitCode, output } = await runQuiet(replicaId, ['bash', '-c', EXTRACT_CHECKOUT_SCRIPT, 'hangar-checkout', path], tar);
        if (packError) throw new WorkspaceOperationError('checkout', `reading the clone of ${repo.name} failed`, String(packError));
        if (exitCode === 3) return { path, created: false };
        if (exitCode !== 0) throw new WorkspaceOperationError('checkout', `copying ${repo.name} into the workspace failed (exit ${exitCode})`, output);
        log.info('workspace checkout', { replicaId, repo: repo.name, cloneMs: clonedAt - startedAt, copyMs: Date.now() - clonedAt });
        return { path, created: true };
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },

    async exec(replicaId, req: ExecRequest) {
      const lines = new LineSplitter((line) => guarded(() => req.onStdoutLine?.(line)));
      const stderr = new StringDecoder('utf8');
      const onStderr = (text: string) => text && guarded(() => req.onStderr?.(text));
      try {
        return await run(replicaId, {
          argv: req.argv,
          env: req.env,
          cwd: req.cwd,
          stdin: req.stdin,
          signal: req.signal,
          timeoutMs: req.timeoutMs,
          onSession: req.onSession && ((id) => guarded(() => req.onSession!(id))),
          onStdout: (chunk) => lines.push(chunk),
          onStderr: (chunk) => onStderr(stderr.write(chunk)),
        });
      } finally {
        lines.end();
        onStderr(stderr.end());
      }
    },

    async killSession(replicaId, sessionId) {
      try {
        await killSession(container(replicaId), sessionId);
      } catch (err) {
        if (dockerStatus(err) === 404 || dockerStatus(err) === 409) return; // no container, or it is not running
        throw err;
      }
    },

    runHook: async (replicaId, req) => {
      try {
        return await runWorkspaceHook(container(replicaId), req, log);
      } catch (err) {
        throw workspaceDockerError(err, replicaId);
      }
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

    async openTty(replicaId, opts) {
      try {
        return await openWorkspaceTty(container(replicaId), opts, log);
      } catch (err) {
        throw workspaceDockerError(err, replicaId);
      }
    },
  };

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

  /** A failing consumer callback must not break the command. */
  function guarded(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      log.warn('workspace exec callback threw', { err });
    }
  }
}
