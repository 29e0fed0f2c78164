/**
 * OpenTelemetry traces, exported over OTLP/HTTP (JSON) when an endpoint is configured
 * (docs/operations.md, "Traces"). Off by default: without settings nothing here runs, no tracer
 * provider is installed, and the API and worker add no middleware or interceptors.
 *
 * One `Tracing` per process, made by its entry point: `register()` installs the provider, the
 * AsyncLocalStorage context manager and the W3C `traceparent` propagator globally, because the
 * Temporal interceptors read context and propagate it through the global API. Hangar's own
 * code takes the tracer from this object instead, so what is traced is decided where it is
 * assembled, not by whatever registered last.
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { version } from '../../package.json';

/** What `loadConfig` reads from the standard `OTEL_*` variables. */
export interface TracingSettings {
  /** Where spans are POSTed: the full traces URL (`…/v1/traces`). */
  endpoint: string;
  /** `OTEL_SERVICE_NAME`; unset, each entry point names itself (`hangar-api`, `hangar-worker`, `hangar`). */
  serviceName: string | undefined;
  /** Sent with every export (`OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS`): a collector's credentials. */
  headers: Record<string, string>;
  /** `OTEL_RESOURCE_ATTRIBUTES`: attributes on every span's resource (`deployment.environment=prod`). */
  resourceAttributes: Record<string, string>;
}

export interface Tracing {
  tracer: Tracer;
  /** The processor workflow spans go through: they are made in the workflow sandbox and handed out by a sink. */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Exports what is buffered, then stops; spans ended afterwards are dropped. */
  shutdown(): Promise<void>;
}

const INSTRUMENTATION_SCOPE = 'hangar';

export function startTracing(settings: TracingSettings, defaultServiceName: string): Tracing {
  const resource = new Resource({
    ...settings.resourceAttributes,
    [ATTR_SERVICE_NAME]: settings.serviceName ?? defaultServiceName,
    [ATTR_SERVICE_VERSION]: version,
  });
  // The batch size and delay follow the standard OTEL_BSP_* variables, read by the SDK.
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.endpoint, headers: settings.headers }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    tracer: provider.getTracer(INSTRUMENTATION_SCOPE, version),
    spanProcessor,
    resource,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
