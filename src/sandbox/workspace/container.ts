/**
 * The one shape of workspace container: named after the replica, its home on a volume of the
 * same name, limits from the size, hardened like the hook sandbox. Its main process (`sleep
 * infinity` under Docker's init, as `nobody`) only keeps it alive; everything the workspace
 * does runs as `hangar` through execs, which cannot signal PID 1.
 */
import type Docker from 'dockerode';
import { hardenedContainer, LABEL_ROLE } from '../docker';
import { DOCKER_HOST_NAME } from '../../domain/dockerHost';
import { SandboxInputError } from '../errors';
import { SANDBOX_HOME } from '../request';
import type { WorkspaceSize } from './types';

export const WORKSPACE_ROLE = 'workspace';
export const LABEL_REPLICA = 'dev.hangar.replica';
export const HANGAR_USER = 'hangar';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const GIB = 1024 * 1024 * 1024;

/** interop §4.5. Disk quotas need a storage driver option this engine lacks, so disk is not capped. */
export const SIZES: Record<WorkspaceSize, { cpus: number; memoryBytes: number }> = {
  small: { cpus: 2, memoryBytes: 8 * GIB },
  large: { cpus: 4, memoryBytes: 16 * GIB },
};

/** Builds, test runners and language servers fork a lot; this only stops fork bombs. */
export const WORKSPACE_PIDS_LIMIT = 4096;

const REPLICA_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Container and volume share this name. */
export function workspaceName(replicaId: string): string {
  if (typeof replicaId !== 'string' || !REPLICA_ID.test(replicaId)) {
    throw new SandboxInputError(`Replica id ${JSON.stringify(replicaId)} cannot name a container`, 'replicaId');
  }
  return `hangar-ws-${replicaId}`;
}

function checked(env: Record<string, string> | undefined): Record<string, string> {
  for (const [name, value] of Object.entries(env ?? {})) {
    if (!ENV_NAME.test(name)) throw new SandboxInputError(`Variable name ${JSON.stringify(name)} is not a valid shell name`, 'env');
    if (typeof value !== 'string' || value.includes('\0')) throw new SandboxInputError(`Variable ${name} must be a string without NUL`, 'env');
  }
  return env ?? {};
}

const FIXED_ENV = { HOME: SANDBOX_HOME, USER: HANGAR_USER, LOGNAME: HANGAR_USER };
const entries = (env: Record<string, string>) => Object.entries(env).map(([name, value]) => `${name}=${value}`);

/** The container's own environment: defaults, then the caller's variables, then home and user. */
export function containerEnv(env: Record<string, string> | undefined): string[] {
  return entries({ PATH, LANG: 'C.UTF-8', SHELL: '/bin/bash', ...checked(env), ...FIXED_ENV });
}

/** An exec's additions to the container's environment (which keeps, say, a variable PATH). */
export function execEnv(env: Record<string, string> | undefined, defaults: Record<string, string> = {}): string[] {
  return entries({ ...defaults, ...checked(env), ...FIXED_ENV });
}

export interface WorkspaceLimits {
  nanoCpus: number;
  memoryBytes: number;
  networkMode: string;
}

/** The size's compute, within what this host and the deployment allow. */
export function limitsFor(size: WorkspaceSize, hostCpus: number, memoryCapBytes: number | undefined, networkMode: string): WorkspaceLimits {
  const wanted = SIZES[size];
  if (!wanted) throw new SandboxInputError(`Size ${JSON.stringify(size)} is not small or large`, 'size');
  const cpus = Math.min(wanted.cpus, Math.max(1, hostCpus));
  return {
    nanoCpus: cpus * 1_000_000_000,
    memoryBytes: memoryCapBytes ? Math.min(wanted.memoryBytes, memoryCapBytes) : wanted.memoryBytes,
    networkMode,
  };
}

export function workspaceContainerSpec(
  image: string,
  replicaId: string,
  limits: WorkspaceLimits,
  env: Record<string, string>,
  labels: Record<string, string>,
): Docker.ContainerCreateOptions {
  const name = workspaceName(replicaId);
  const spec = hardenedContainer({
    ...limits,
    pidsLimit: WORKSPACE_PIDS_LIMIT,
    oomScoreAdj: 300,
    mounts: [{ Type: 'volume', Source: name, Target: SANDBOX_HOME, ReadOnly: false }],
  });
  return {
    name,
    Image: image,
    Hostname: `ws-${replicaId.slice(0, 8).toLowerCase().replace(/[^a-z0-9-]/g, '-')}`,
    Cmd: ['sleep', 'infinity'],
    User: '65534:65534',
    WorkingDir: SANDBOX_HOME,
    Env: containerEnv(env),
    Labels: { ...labels, [LABEL_ROLE]: WORKSPACE_ROLE, [LABEL_REPLICA]: replicaId },
    // git and ssh run as uid 1000 and need no capability; root in an exec gets none either.
    // A new volume is filled from the image's /home/hangar, ownership (uid 1000) included.
    ...spec,
    HostConfig: { ...spec.HostConfig, ExtraHosts: [`${DOCKER_HOST_NAME}:host-gateway`] },
  };
}

/** The host's network (its localhost services) or another container's is never a workspace's. */
export function networkModeFrom(mode: string | undefined): string {
  if (mode === undefined) return 'bridge';
  if (!mode || mode === 'host' || mode.includes(':')) {
    throw new Error(`Workspace option networkMode ${JSON.stringify(mode)} is not allowed: use bridge, none or a network name`);
  }
  return mode;
}
