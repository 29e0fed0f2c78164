/**
 * Keeps a host's active workspaces honest about their containers. Docker stops every container
 * when its engine stops (unless the operator runs it with live-restore), and nothing brings a
 * workspace's container back by itself: the record said `active` over a stopped container, and
 * every later turn failed. This watches the engine (its `die` events for workspace containers,
 * the events stream breaking and coming back) and checks on a timer; an active workspace whose
 * container is not running is asked to restart (the workflow's `restart` lifecycle request),
 * and the workflow starts it again or puts the workspace in `error` with the reason. See
 * docs/decisions/hosts.md, "Docker engine restarts".
 */
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { LABEL_ROLE } from '../docker';
import { LABEL_REPLICA, WORKSPACE_ROLE } from './container';

export interface ActiveWorkspace {
  replicaId: string;
  /** What its container is named by (a claimed warm-pool entry's id, else the replica id). */
  key: string;
}

export interface WorkspaceReconcilerOptions {
  docker: Docker;
  /** The active workspaces placed on this worker's host. */
  activeWorkspaces(): Promise<ActiveWorkspace[]>;
  /** Asks the workspace's workflow to start its container again. */
  requestRestart(replicaId: string): Promise<unknown>;
  /** Run before containers are started again after the engine was away (the egress rules); throwing holds the restarts. */
  beforeRestart?(): Promise<void>;
  /** How often to check without an event. */
  intervalMs: number;
  /** An engine unreachable this long: its active workspaces are asked to restart (and end in `error`). */
  engineLostMs: number;
  logger: Logger;
}

export interface WorkspaceReconciler {
  /** Checks now (coalesced with a check already running). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** A workspace asked to restart is not asked again for this long: the workflow is on it. */
const ASKED_AGAIN_AFTER_MS = 60_000;
const RECONNECT_MS = 1000;
const DIE_SETTLE_MS = 1000;

export function startWorkspaceReconciler(options: WorkspaceReconcilerOptions): WorkspaceReconciler {
  const { docker, logger } = options;
  let stopped = false;
  let downSince: number | null = null;
  let checking: Promise<void> | null = null;
  let again = false;
  let events: NodeJS.ReadableStream | null = null;
  const asked = new Map<string, number>();

  async function ask(workspaces: ActiveWorkspace[], reason: string): Promise<void> {
    const now = Date.now();
    for (const [id, at] of asked) if (now - at >= ASKED_AGAIN_AFTER_MS) asked.delete(id);
    for (const { replicaId } of workspaces) {
      if (asked.has(replicaId)) continue;
      asked.set(replicaId, now);
      logger.warn('an active workspace has no running container: restarting it', { replicaId, reason });
      await options.requestRestart(replicaId).catch((err: unknown) => {
        asked.delete(replicaId);
        logger.warn('could not ask a workspace to restart', { replicaId, err });
      });
    }
  }

  async function checkOnce(): Promise<void> {
    // The records before the engine: a workspace is recorded active only once its container
    // runs, so one that turns active while this check runs is seen running by the listing that
    // follows. Listed the other way round, it was taken for a stopped one and asked to restart,
    // which holds its workflow until its turns end (up to two minutes).
    const active = await options.activeWorkspaces();
    let containers: Docker.ContainerInfo[];
    try {
      containers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_ROLE}=${WORKSPACE_ROLE}`] } });
    } catch (err) {
      downSince ??= Date.now();
      const downMs = Date.now() - downSince;
      logger.warn('the Docker engine is unreachable', { downMs, err });
      // Left as they are, the workspaces would say `active` for as long as the engine is away.
      if (downMs >= options.engineLostMs) await ask(active, `the Docker engine has been unreachable for ${Math.round(downMs / 1000)} s`);
      return;
    }
    if (downSince !== null) {
      logger.info('the Docker engine answers again', { downMs: Date.now() - downSince });
      if (options.beforeRestart) {
        try {
          await options.beforeRestart();
        } catch (err) {
          logger.error('workspace containers are not started again until this is fixed', { err });
          return;
        }
      }
      downSince = null;
      // Every one: a container the engine kept running (live-restore) still has turns that
      // waited while it was away, and a restart of a running container only resumes them.
      return ask(active, 'the Docker engine answers again');
    }
    const running = new Set(containers.filter((c) => c.State === 'running').map((c) => c.Labels[LABEL_REPLICA]));
    const stoppedOnes = active.filter((w) => !running.has(w.key));
    logger.debug('workspaces checked', { active: active.length, stopped: stoppedOnes.length });
    if (stoppedOnes.length) await ask(stoppedOnes, 'its container is not running');
  }

  function check(): Promise<void> {
    if (checking) {
      again = true;
      return checking;
    }
    checking = (async () => {
      do {
        again = false;
        await checkOnce().catch((err: unknown) => logger.warn('workspace check failed', { err }));
      } while (again && !stopped);
    })().finally(() => (checking = null));
    return checking;
  }

  /** Follows the engine's events; each break and reconnection is a check, as is each workspace container's death. */
  async function watch(): Promise<void> {
    while (!stopped) {
      try {
        const stream = (await docker.getEvents({ filters: { type: ['container'], event: ['die'], label: [`${LABEL_ROLE}=${WORKSPACE_ROLE}`] } })) as NodeJS.ReadableStream;
        if (stopped) return void (stream as unknown as { destroy?: () => void }).destroy?.();
        events = stream;
        void check();
        await new Promise<void>((done) => {
          // The engine sends `die` a moment before it lists the container as stopped.
          stream.on('data', () => void setTimeout(() => stopped || void check(), DIE_SETTLE_MS));
          stream.once('end', done);
          stream.once('close', done);
          stream.once('error', () => done());
        });
      } catch {
        // The engine is away: the check below notes since when.
      }
      events = null;
      if (stopped) return;
      void check();
      await new Promise((r) => setTimeout(r, RECONNECT_MS));
    }
  }

  const timer = setInterval(() => void check(), options.intervalMs);
  const watching = watch();

  return {
    check,
    async stop() {
      stopped = true;
      clearInterval(timer);
      (events as unknown as { destroy?: () => void } | null)?.destroy?.();
      await watching;
      await checking;
    },
  };
}
