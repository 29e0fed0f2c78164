/**
 * The Temporal worker: workflows bundled once from `workflows/index.ts`, activities built
 * from real dependencies by their factories.
 */
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import type { Logger } from '../logger';
import { temporalLogger } from './logging';

/** Set once the Runtime is installed: with the metrics address it was given. */
let installed: { metricsAddress: string | undefined } | null = null;

/**
 * Sends the SDK's own logs (TypeScript side and, at WARN and above, the native core)
 * through our JSON logger instead of stderr, and with `metricsAddress` serves the SDK's worker
 * metrics (polls, task latencies, slots, sticky cache) in Prometheus format at
 * `http://{metricsAddress}/metrics`. The Runtime can be installed once per process, before any
 * connection: later calls (tests build several workers in one process) change nothing.
 */
function installRuntime(logger: Logger, metricsAddress: string | undefined): void {
  if (installed) {
    if (metricsAddress !== installed.metricsAddress) {
      logger.warn('the Temporal runtime was installed earlier in this process; its metrics address stays as it was', { metricsAddress, installed: installed.metricsAddress ?? 'none' });
    }
    return;
  }
  installed = { metricsAddress };
  Runtime.install({
    logger: temporalLogger(logger),
    telemetryOptions: {
      logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} },
      // Temporal's default names and units, which its published dashboards expect.
      ...(metricsAddress ? { metrics: { prometheus: { bindAddress: metricsAddress } } } : {}),
    },
  });
  if (metricsAddress) logger.info('temporal sdk metrics listening', { address: metricsAddress });
}

let bundle: Promise<WorkflowBundleWithSourceMap> | null = null;

/** Bundling takes about a second; tests and dev share one bundle per process. */
export function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows/index.ts'), logger: quietBundlerLogger });
  return bundle;
}

const quietBundlerLogger = {
  log: () => {},
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

export interface WorkerDeps {
  logger: Logger;
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: ActivityDeps;
  /** How long a stopping worker lets in-flight activities (agent turns) finish before cancelling them. */
  shutdownGraceMs: number;
}

/**
 * The worker's one connection: it polls, and its client starts and stops workflows.
 * `metricsAddress` (host:port): where the SDK serves its own metrics (HANGAR_TEMPORAL_METRICS_ADDRESS).
 */
export async function connectWorker(address: string, logger: Logger, metricsAddress?: string): Promise<NativeConnection> {
  installRuntime(logger, metricsAddress);
  return NativeConnection.connect({ address });
}

export async function createHangarWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    shutdownGraceTime: deps.shutdownGraceMs,
    workflowBundle: await workflowBundle(),
    activities: createActivities(deps.activities),
  });
}
