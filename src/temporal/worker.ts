/**
 * The Temporal worker: workflows bundled once from `workflows/index.ts`, activities built
 * from real dependencies by their factories.
 */
import { NativeConnection, Worker, bundleWorkflowCode, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createHookActivities, type HookActivityDeps } from '../../activities/hooks';

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
  address: string;
  namespace: string;
  taskQueue: string;
  activities: HookActivityDeps;
}

export async function createHangarWorker(deps: WorkerDeps): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: deps.address });
  const worker = await Worker.create({
    connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: { ...createHookActivities(deps.activities) },
  });
  return { worker, connection };
}
