/**
 * A worker keeps its host's row in `worker_hosts` fresh: placement offers new workspaces only
 * to hosts seen within the host timeout. A clean stop marks the host stopped at once.
 */
import type { WorkerHostsRepository } from '../db/workerHostsRepository';
import type { Logger } from '../logger';

export interface HostHeartbeat {
  /** Idempotent: a stopping worker calls it first, so no new workspace is placed here meanwhile. */
  stop(): Promise<void>;
}

export async function startHostHeartbeat(options: {
  hosts: Pick<WorkerHostsRepository, 'heartbeat' | 'markStopped'>;
  host: { id: string; taskQueue: string; capacity: number | null; relayUrl: string | null };
  intervalMs: number;
  logger: Logger;
}): Promise<HostHeartbeat> {
  const { hosts, host, logger } = options;
  // The first one is awaited: a worker that cannot register its host does not start.
  await hosts.heartbeat(host);
  logger.info('worker host registered', { hostId: host.id, taskQueue: host.taskQueue, capacity: host.capacity ?? 'unlimited', previewRelay: host.relayUrl ?? 'none' });
  let beat: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beat = hosts.heartbeat(host).catch((err) => logger.warn('worker host heartbeat failed', { hostId: host.id, err: err as Error }));
  }, options.intervalMs);
  timer.unref();
  let stopped: Promise<void> | null = null;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await beat;
        await hosts.markStopped(host.id).catch((err) => logger.warn('worker host not marked stopped', { hostId: host.id, err: err as Error }));
      })();
      return stopped;
    },
  };
}
