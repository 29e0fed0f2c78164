/**
 * The Docker engine connection and the one shape of container every hook run gets:
 * unprivileged, no capabilities, no new privileges, bounded memory, CPU and processes,
 * no mounts. Its main process only keeps the container alive until a run claims it.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { sandboxStartDuration, secondsSince } from '../metrics';
import { SandboxImageMissingError, dockerStatus } from './errors';
import { SANDBOX_HOME } from './request';

export const LABEL_ROLE = 'dev.hangar.role';
export const LABEL_OWNER = 'dev.hangar.owner';
export const LABEL_INSTANCE = 'dev.hangar.instance';
/** The container of the process that made a sandbox, when it runs in one on the same engine. */
export const LABEL_CREATOR = 'dev.hangar.creator';
export const HOOK_SANDBOX_ROLE = 'hook-sandbox';

const DEFAULT_SOCKET = '/var/run/docker.sock';

/** DOCKER_HOST as the docker CLI reads it: `unix:///path` or `tcp://host:port` (TLS per DOCKER_TLS_VERIFY). */
export function dockerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): Docker.DockerOptions {
  const host = env.DOCKER_HOST?.trim();
  if (!host) return { socketPath: DEFAULT_SOCKET };
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) || DEFAULT_SOCKET };
  if (!host.startsWith('tcp://')) {
    throw new Error(`DOCKER_HOST ${JSON.stringify(host)} is not supported: use unix:///path or tcp://host:port`);
  }
  let url: URL;
  try {
    url = new URL(`http://${host.slice('tcp://'.length)}`);
  } catch {
    throw new Error(`DOCKER_HOST ${JSON.stringify(host)} is not a valid tcp://host:port address`);
  }
  const tls = (env.DOCKER_TLS_VERIFY ?? '') !== '' && env.DOCKER_TLS_VERIFY !== '0';
  const options: Docker.DockerOptions = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (tls ? 2376 : 2375),
    protocol: tls ? 'https' : 'http',
  };
  if (tls) {
    const certPath = env.DOCKER_CERT_PATH || join(homedir(), '.docker');
    options.ca = readFileSync(join(certPath, 'ca.pem'));
    options.cert = readFileSync(join(certPath, 'cert.pem'));
    options.key = readFileSync(join(certPath, 'key.pem'));
  }
  return options;
}

export function createDocker(env: NodeJS.ProcessEnv = process.env): Docker {
  return new Docker(dockerOptionsFromEnv(env));
}

export interface SandboxLimits {
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  networkMode: string;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  memoryBytes: 1024 * 1024 * 1024,
  nanoCpus: 1_000_000_000,
  pidsLimit: 256,
  networkMode: 'bridge',
};

/**
 * The hardening every Hangar container shares, hook sandbox and workspace alike: not
 * privileged, no capabilities, no new privileges, memory without swap, CPU and pids limits,
 * private IPC, no host paths, no restart, no engine-side logs (output is read over exec).
 */
export function hardenedContainer(options: {
  memoryBytes: number;
  nanoCpus: number;
  pidsLimit: number;
  networkMode: string;
  oomScoreAdj: number;
  mounts: Docker.MountSettings[];
}): Pick<Docker.ContainerCreateOptions, 'AttachStdin' | 'AttachStdout' | 'AttachStderr' | 'Tty' | 'OpenStdin' | 'NetworkDisabled' | 'HostConfig'> {
  return {
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    OpenStdin: false,
    NetworkDisabled: options.networkMode === 'none',
    HostConfig: {
      Init: true,
      Privileged: false,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Memory: options.memoryBytes,
      MemorySwap: options.memoryBytes,
      NanoCpus: options.nanoCpus,
      PidsLimit: options.pidsLimit,
      OomScoreAdj: options.oomScoreAdj,
      NetworkMode: options.networkMode,
      IpcMode: 'private',
      Binds: [],
      Mounts: options.mounts,
      ReadonlyRootfs: false,
      AutoRemove: false,
      RestartPolicy: { Name: 'no' },
      LogConfig: { Type: 'none', Config: {} },
    },
  };
}

export function sandboxContainerSpec(
  image: string,
  limits: SandboxLimits,
  labels: Record<string, string>,
): Docker.ContainerCreateOptions {
  return {
    Image: image,
    // `nobody` keeps the container alive; hooks run as `hangar` and cannot signal it.
    Cmd: ['sleep', 'infinity'],
    User: '65534:65534',
    WorkingDir: SANDBOX_HOME,
    Labels: { ...labels, [LABEL_ROLE]: HOOK_SANDBOX_ROLE },
    // Under host memory pressure the kernel picks sandbox processes first.
    ...hardenedContainer({ ...limits, oomScoreAdj: 500, mounts: [] }),
  };
}

/** Creates and starts a sandbox container; a missing image becomes an error that names the fix. */
export async function startSandboxContainer(
  docker: Docker,
  spec: Docker.ContainerCreateOptions,
): Promise<Docker.Container> {
  const started = performance.now();
  let container: Docker.Container;
  try {
    container = await docker.createContainer(spec);
  } catch (err) {
    if (dockerStatus(err) === 404) throw new SandboxImageMissingError(String(spec.Image));
    throw err;
  }
  try {
    await container.start();
  } catch (err) {
    await removeContainer(docker, container.id).catch(() => {});
    throw err;
  }
  sandboxStartDuration.observe(secondsSince(started));
  return container;
}

/** Kills and removes; a container already gone (or already being removed) is fine. */
export async function removeContainer(docker: Docker, id: string): Promise<void> {
  try {
    await docker.getContainer(id).remove({ force: true, v: true });
  } catch (err) {
    const status = dockerStatus(err);
    if (status === 404 || status === 409) return;
    throw err;
  }
}

export async function listSandboxContainers(
  docker: Docker,
  labels: Record<string, string>,
): Promise<Docker.ContainerInfo[]> {
  const filters = { label: Object.entries({ [LABEL_ROLE]: HOOK_SANDBOX_ROLE, ...labels }).map(([k, v]) => `${k}=${v}`) };
  return docker.listContainers({ all: true, filters: JSON.stringify(filters) });
}
