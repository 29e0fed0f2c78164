/**
 * The Docker sandbox runtime: start-hook and warm-hook tests run here, each in a fresh,
 * hardened, single-use container taken from a small pool of pre-started ones.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Docker from 'dockerode';
import { silentLogger, type Logger } from '../logger';
import {
  DEFAULT_LIMITS,
  LABEL_CREATOR,
  LABEL_INSTANCE,
  LABEL_OWNER,
  listSandboxContainers,
  removeContainer,
  sandboxContainerSpec,
  type SandboxLimits,
} from './docker';
import { runHookChain } from './hookRunner';
import { SandboxPool, short } from './pool';
import type { SandboxOptions, SandboxRuntime } from './types';

export type {
  HookRunRequest,
  HookRunResult,
  HookStep,
  SandboxFile,
  SandboxOptions,
  SandboxRuntime,
  StepEvent,
} from './types';
export { SandboxImageMissingError, SandboxInputError } from './errors';
export { createDocker, HOOK_SANDBOX_ROLE, LABEL_CREATOR, LABEL_INSTANCE, LABEL_OWNER, LABEL_ROLE } from './docker';

/**
 * This process's own container when it runs in one on `docker`'s engine (its host name is the
 * container's short id, as Docker sets it), else null.
 */
export async function ownContainer(docker: Docker): Promise<string | null> {
  const name = hostname();
  const info = await docker.getContainer(name).inspect().catch(() => null);
  return info && info.Config.Hostname === name && info.State.Running ? info.Id : null;
}
export { DEFAULT_TIMEOUT_MS, TIMEOUT_EXIT_CODE } from './hookRunner';
export { DEFAULT_OUTPUT_LIMIT_BYTES } from './output';

export const DEFAULT_POOL_SIZE = 2;
export const DEFAULT_MAX_IDLE_MS = 3 * 60_000;

function positiveInteger(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`Sandbox option ${name} must be an integer >= ${min}`);
  return value;
}

function limitsFrom(options: SandboxOptions): SandboxLimits {
  return {
    // Docker refuses memory limits below 6 MiB.
    memoryBytes: positiveInteger('memoryBytes', options.memoryBytes, DEFAULT_LIMITS.memoryBytes, 6 * 1024 * 1024),
    nanoCpus: positiveInteger('nanoCpus', options.nanoCpus, DEFAULT_LIMITS.nanoCpus, 10_000_000),
    pidsLimit: positiveInteger('pidsLimit', options.pidsLimit, DEFAULT_LIMITS.pidsLimit, 8),
    networkMode: networkModeFrom(options.networkMode),
  };
}

/** The host's network (its localhost services) or another container's is never a sandbox's. */
function networkModeFrom(mode: string | undefined): string {
  if (mode === undefined) return DEFAULT_LIMITS.networkMode;
  if (!mode || mode === 'host' || mode.includes(':')) {
    throw new Error(`Sandbox option networkMode ${JSON.stringify(mode)} is not allowed: use bridge, none or a network name`);
  }
  return mode;
}

/** Whether `id` is a container that runs on this engine (a sibling worker's). */
async function runs(docker: Docker, id: string): Promise<boolean> {
  const info = await docker.getContainer(id).inspect().catch(() => null);
  return info?.State.Running === true;
}

/**
 * Containers of this owner from another instance are leftovers of a process that died, unless a
 * sibling container of the same owner made them and still runs (a scaled compose worker).
 */
async function removeLeftovers(docker: Docker, ownerId: string, instance: string, container: string | null, logger: Logger): Promise<void> {
  try {
    const found = await listSandboxContainers(docker, { [LABEL_OWNER]: ownerId });
    const others = found.filter((c) => c.Labels[LABEL_INSTANCE] !== instance);
    const sibling = await Promise.all(others.map(async (c) => {
      const creator = c.Labels[LABEL_CREATOR];
      return !!creator && creator !== container && (await runs(docker, creator));
    }));
    const leftovers = others.filter((_, i) => !sibling[i]);
    await Promise.all(leftovers.map((c) => removeContainer(docker, c.Id)));
    if (leftovers.length) {
      logger.info('removed leftover sandbox containers', { count: leftovers.length, containers: leftovers.map((c) => short(c.Id)) });
    }
  } catch (err) {
    logger.warn('could not remove leftover sandbox containers', { err });
  }
}

export function createSandboxRuntime(docker: Docker, options: SandboxOptions): SandboxRuntime {
  if (!options.image) throw new Error('Sandbox option image is required');
  const logger = (options.logger ?? silentLogger).child({ component: 'sandbox' });
  const ownerId = options.ownerId ?? hostname();
  const instance = randomUUID();
  const container = options.container ?? null;
  const spec = sandboxContainerSpec(options.image, limitsFrom(options), {
    [LABEL_OWNER]: ownerId,
    [LABEL_INSTANCE]: instance,
    ...(container ? { [LABEL_CREATOR]: container } : {}),
  });
  const pool = new SandboxPool(docker, {
    size: positiveInteger('poolSize', options.poolSize, DEFAULT_POOL_SIZE, 0),
    maxIdleMs: positiveInteger('maxIdleMs', options.maxIdleMs, DEFAULT_MAX_IDLE_MS, 1_000),
    spec,
    logger,
  });
  const cleanup = removeLeftovers(docker, ownerId, instance, container, logger);
  pool.start();

  return {
    runHooks: (req) => runHookChain({ pool, logger }, req),
    ping: async () => {
      await docker.ping();
    },
    warm: () => pool.warm(),
    close: async () => {
      await cleanup;
      await pool.close();
    },
  };
}
