/**
 * The Temporal worker: workflows bundled once from `workflows/index.ts`, activities built
 * from real dependencies by their factories.
 */
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  bundleWorkflowCode,
  type LogLevel as TemporalLogLevel,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import type { Logger } from '../logger';

let runtimeInstalled = false;

/**
 * Sends the SDK's own logs (TypeScript side and, at WARN and above, the native core)
 * through our JSON logger instead of stderr. The Runtime can be installed once per process.
 */
function installRuntime(logger: Logger): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const levels: Record<TemporalLogLevel, keyof Logger> = { TRACE: 'debug', DEBUG: 'debug', INFO: 'debug', WARN: 'warn', ERROR: 'error' };
  const sdkLogger = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    logger: new DefaultLogger('INFO', (entry) => {
      const { sdkComponent, taskQueue, workflowId, workflowType, activityType } = (entry.meta ?? {}) as Record<string, unknown>;
      (sdkLogger[levels[entry.level]] as Logger['info'])(entry.message, { sdkComponent, taskQueue, workflowId, workflowType, activityType });
    }),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
  });
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

/** The worker's one connection: it polls, and its client starts and stops workflows. */
export async function connectWorker(address: string, logger: Logger): Promise<NativeConnection> {
  installRuntime(logger);
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
