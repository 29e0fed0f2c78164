/**
 * The worker process's Temporal workers, one per task queue (the shared queue and this host's
 * own): workflows bundled once from `workflows/index.ts`, activities built from real
 * dependencies by their factories.
 */
import { NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkerOptions, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { createActivities, type ActivityDeps } from '../../activities';
import type { Logger } from '../logger';
import type { TemporalConnectionOptions } from './connectionOptions';
import type { Tracing } from '../tracing';
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

const bundles: { plain?: Promise<WorkflowBundleWithSourceMap>; traced?: Promise<WorkflowBundleWithSourceMap> } = {};

/**
 * The workflow interceptors of traced workers: a span for each workflow run, signal, query and
 * update, and for each activity and child it starts, with the trace context passed on in their
 * headers. They run inside the workflow sandbox, so they are bundled with the workflows (with a
 * prebuilt bundle, the worker's `interceptors.workflowModules` option is not read).
 */
const TRACING_WORKFLOW_INTERCEPTORS = require.resolve('./tracingWorkflowInterceptors.ts');

/**
 * Bundling takes about a second; tests and dev share one bundle per process and kind. The
 * traced bundle is another one: untraced workers carry no tracing code in their workflows.
 */
export function workflowBundle(options: { traced?: boolean } = {}): Promise<WorkflowBundleWithSourceMap> {
  const workflowsPath = require.resolve('../../workflows/index.ts');
  if (options.traced) {
    bundles.traced ??= bundleWorkflowCode({ workflowsPath, workflowInterceptorModules: [TRACING_WORKFLOW_INTERCEPTORS], logger: quietBundlerLogger });
    return bundles.traced;
  }
  bundles.plain ??= bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });
  return bundles.plain;
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
  /** This host's own queue (`{taskQueue}@{hostId}`): container work on workspaces placed here. */
  hostTaskQueue: string;
  activities: ActivityDeps;
  /** How long a stopping worker lets in-flight activities (agent turns) finish before cancelling them. */
  shutdownGraceMs: number;
  /** Traces on (docs/operations.md, "Traces"); absent: no interceptors, no sink, the plain bundle. */
  tracing?: Tracing;
}

/**
 * The worker's one connection: it polls, and its client starts and stops workflows.
 * `options` from `temporalConnectionOptions`; `metricsAddress` (host:port): where the SDK serves
 * its own metrics (HANGAR_TEMPORAL_METRICS_ADDRESS).
 */
export async function connectWorker(options: TemporalConnectionOptions, logger: Logger, metricsAddress?: string): Promise<NativeConnection> {
  installRuntime(logger, metricsAddress);
  return NativeConnection.connect(options);
}

/** The process's two Temporal workers, run and stopped together. */
export interface HangarWorker {
  run(): Promise<void>;
  shutdown(): void;
  getState(): ReturnType<Worker['getState']>;
}

/**
 * Two workers on one connection (Temporal's worker-specific task queues): one polls the shared
 * queue for workflows and every activity (any worker may run host-independent work, and a
 * workflow from before hosts were recorded sends its container work there too); the other
 * polls this host's own queue for the activities on this host's containers.
 */
export async function createHangarWorker(deps: WorkerDeps): Promise<HangarWorker> {
  const { activities, onHost } = createActivities(deps.activities);
  const common = {
    connection: deps.connection,
    namespace: deps.namespace,
    shutdownGraceTime: deps.shutdownGraceMs,
    ...(deps.tracing ? tracingOptions(deps.tracing) : {}),
  };
  const shared = await Worker.create({
    ...common,
    taskQueue: deps.taskQueue,
    workflowBundle: await workflowBundle({ traced: deps.tracing !== undefined }),
    activities,
  });
  const host = await Worker.create({ ...common, taskQueue: deps.hostTaskQueue, activities: onHost });
  const workers = [shared, host];
  return {
    async run() {
      // One stopping stops the other: the process polls both queues or neither.
      const runs = workers.map((w) =>
        w.run().finally(() => {
          for (const other of workers) if (other.getState() === 'RUNNING') other.shutdown();
        }),
      );
      const results = await Promise.allSettled(runs);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
    shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    },
    getState: () => shared.getState(),
  };
}

/**
 * Activities continue the trace their workflow passed in the headers, with a span each (and
 * its trace and span ids on the SDK's log lines of that activity); workflow spans, made in the
 * sandbox, leave it through the `exporter` sink into this process's span processor. The sink
 * is not called during replay, so a replayed history exports nothing again (a retried workflow
 * task may).
 */
function tracingOptions(tracing: Tracing): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const tracer = tracing.tracer;
  return {
    interceptors: {
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
