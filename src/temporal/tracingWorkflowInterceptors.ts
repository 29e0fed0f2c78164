/**
 * Not a workflow: the workflow interceptors module of the traced bundle
 * (src/temporal/taskQueueWorkers.ts bundles it with the workflows; it runs inside the workflow
 * sandbox, so it imports nothing but the SDK and the OpenTelemetry interceptors package).
 *
 * It is the package's own interceptors, with one change. Inside the sandbox `Math.random` is the
 * workflow's deterministic random stream, and OpenTelemetry draws every trace and span id from
 * it; so turning traces on shifts what `uuid4()` returns in workflow code afterwards (a cron
 * fire's execution id, for one), and a workflow started untraced fails to replay traced with a
 * nondeterminism error. Each interceptor call here runs with `Math.random` routed to a named
 * stream of its own (`getRandomStream(...).with`), which the SDK derives from the workflow's
 * seed without touching the default one, and which it hands back to the default stream when
 * the call goes on to the workflow's own code through `next`.
 */
import { getRandomStream, type WorkflowInterceptors, type WorkflowRandomStream } from '@temporalio/workflow';
import { interceptors as openTelemetryInterceptors } from '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors';

/** Handlers that do not run again on replay: their spans draw from a stream of their own, so they never shift the others' ids. */
const READ_ONLY = new Set<PropertyKey>(['handleQuery', 'validateUpdate']);

function scoped<T extends object>(interceptor: T, streams: { replayed: WorkflowRandomStream; readOnly: WorkflowRandomStream }): T {
  return new Proxy(interceptor, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const stream = READ_ONLY.has(property) ? streams.readOnly : streams.replayed;
      return (...args: unknown[]) => stream.with(() => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

export const interceptors = (): WorkflowInterceptors => {
  const streams = { replayed: getRandomStream('hangar/opentelemetry'), readOnly: getRandomStream('hangar/opentelemetry/read-only') };
  const { inbound = [], outbound = [], internals = [] } = openTelemetryInterceptors();
  return {
    inbound: inbound.map((i) => scoped(i, streams)),
    outbound: outbound.map((i) => scoped(i, streams)),
    internals: internals.map((i) => scoped(i, streams)),
  };
};
