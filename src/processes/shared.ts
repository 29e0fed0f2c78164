/** What the API and the worker processes assemble alike. */
import type { Config } from '../config';
import type { Tracing } from '../tracing';

export const workflowControlOptions = (config: Config, tracing: Tracing | undefined) => ({
  namespace: config.temporalNamespace,
  taskQueue: config.taskQueue,
  searchAttributes: config.temporalSearchAttributes,
  hostTimeoutMs: config.hostTimeoutMs,
  tracer: tracing?.tracer,
});

/** Closes a connection the process will not use after all, then rethrows. */
export const closingOnError =
  (connection: { close(): Promise<void> }) =>
  async (err: unknown): Promise<never> => {
    await connection.close().catch(() => undefined);
    throw err;
  };

