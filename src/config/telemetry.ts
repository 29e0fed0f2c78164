/** Logs, Prometheus metrics and OpenTelemetry traces (docs/operations.md, "Logs", "Metrics", "Traces"). */
import type { LogLevel } from '../logger';
import type { TracingSettings } from '../tracing';
import { choice, ConfigError, custom, flag, integer, section, text, type Reader } from './schema';

/** An OTLP endpoint: an http(s) URL, taken as it is (trimmed). */
function otlpUrl(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${trimmed}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${trimmed}"`);
  return trimmed;
}

/** The OpenTelemetry `key1=value1,key2=value2` form, values percent-encoded (W3C Baggage). The values may be credentials: never quoted back. */
function keyValueList(raw: string | undefined, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (raw ?? '').split(',')) {
    if (!entry.trim()) continue;
    const sep = entry.indexOf('=');
    const key = entry.slice(0, sep).trim();
    if (sep <= 0 || !key) throw new ConfigError(`${name} must be a list of key=value pairs separated by commas`);
    try {
      out[key] = decodeURIComponent(entry.slice(sep + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
    }
  }
  return out;
}

function hostPort(raw: string | undefined, name: string): string | undefined {
  if (!raw) return undefined;
  const port = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw)?.[1];
  if (!port || Number(port) < 1 || Number(port) > 65535) throw new ConfigError(`${name} must be host:port (e.g. 0.0.0.0:9465), got "${raw}"`);
  return raw;
}

const endpoint = (description: string) => custom({ type: 'URL', accepts: 'http(s) URL', shownDefault: 'off', description, parse: otlpUrl });
const protocol = (description: string) =>
  text({ trim: true, pattern: /^http\/json$/, expected: 'http/json (Hangar exports OTLP over HTTP as JSON)', shownDefault: '`http/json`', description });
const pairs = (type: string, description: string) => custom({ type, accepts: '`key=value,…`, values percent-encoded', shownDefault: 'none', description, parse: keyValueList });

const variables = {
  LOG_LEVEL: choice({
    values: ['debug', 'info', 'warn', 'error'] satisfies LogLevel[],
    default: 'info',
    emptyIsValue: true,
    description: 'JSON lines on stdout at this level and above (see "Logs")',
  }),
  HANGAR_METRICS_TOKEN: text({
    secret: true,
    pattern: /^[\x21-\x7e]{16,256}$/,
    expected: '16 to 256 printable characters without spaces (e.g. openssl rand -hex 32)',
    description:
      'turns on the API\'s `GET /metrics` (Prometheus text format) and requires `Authorization: Bearer <token>` there and on the worker\'s endpoint. Unset: the API has no `/metrics` (404) — see "Metrics"',
  }),
  HANGAR_WORKER_METRICS_PORT: integer({
    default: 9464,
    min: 0,
    max: 65535,
    description:
      "the port of the worker's own `GET /metrics` (`npm run start:worker` only; `npm start` shows everything on the API's); 0 turns it off. Open without `HANGAR_METRICS_TOKEN`: keep the port private",
  }),
  HANGAR_WORKER_METRICS_HOST: text({ default: '0.0.0.0', description: "the bind address of the worker's `GET /metrics`" }),
  HANGAR_TEMPORAL_METRICS_ADDRESS: custom({
    type: 'host:port',
    accepts: '`host:port`',
    shownDefault: 'off',
    description: 'where the Temporal SDK serves its own worker metrics at `/metrics` (e.g. `0.0.0.0:9465`); read once per process, when the worker first connects',
    parse: hostPort,
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint('turns traces on (see "Traces"): the collector\'s OTLP/HTTP base URL (`http://otel-collector:4318`); `/v1/traces` is appended'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint('turns traces on: the full traces URL, used as it is and before `OTEL_EXPORTER_OTLP_ENDPOINT`'),
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol('the OTLP protocol; Hangar speaks only `http/json`'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol("the traces' OTLP protocol; Hangar speaks only `http/json`"),
  OTEL_SERVICE_NAME: text({ trim: true, shownDefault: '`hangar-api`, `hangar-worker`, `hangar` (`npm start`)', description: 'the `service.name` of every span of the process' }),
  OTEL_EXPORTER_OTLP_HEADERS: pairs('secret', "sent with every export, e.g. a hosted collector's API key"),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: pairs('secret', 'sent with every traces export, instead of `OTEL_EXPORTER_OTLP_HEADERS`'),
  OTEL_RESOURCE_ATTRIBUTES: pairs('list', "on every span's resource (`deployment.environment=prod`)"),
  OTEL_SDK_DISABLED: flag({ default: false, yes: ['true'], no: ['false'], normalize: true, lenient: true, description: '`true`: traces off even with an endpoint' }),
  OTEL_TRACES_EXPORTER: choice({ values: ['otlp', 'none'], default: 'otlp', normalize: true, expected: 'otlp or none', description: '`none`: traces off even with an endpoint' }),
};

type Read = Reader<typeof variables>;

export const telemetry = section('Logs, metrics and traces', variables, {}, (read) => ({
  logLevel: read.get('LOG_LEVEL'),
  /**
   * Prometheus metrics (docs/operations.md, "Metrics"). `HANGAR_METRICS_TOKEN`: the API serves
   * `/metrics` only when it is set, and then only with `Authorization: Bearer <token>` (the
   * worker's endpoint requires it too). `HANGAR_WORKER_METRICS_PORT` (default 9464, 0: off) and
   * `HANGAR_WORKER_METRICS_HOST` (default 0.0.0.0): the worker's endpoint, started by its entry
   * point. `HANGAR_TEMPORAL_METRICS_ADDRESS` (host:port, unset: off): the Temporal SDK's own worker metrics.
   */
  metrics: {
    token: read.get('HANGAR_METRICS_TOKEN'),
    workerPort: read.get('HANGAR_WORKER_METRICS_PORT'),
    workerHost: read.get('HANGAR_WORKER_METRICS_HOST'),
    temporalAddress: read.get('HANGAR_TEMPORAL_METRICS_ADDRESS'),
  },
  /**
   * OpenTelemetry traces over OTLP/HTTP (docs/operations.md, "Traces"), read from the standard
   * variables: on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (a base that `/v1/traces` is appended to) is set, null (off)
   * otherwise and with `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. Also
   * `OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS` and `OTEL_RESOURCE_ATTRIBUTES`
   * (`key=value,…`). Only `http/json` is spoken (`OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL`).
   */
  tracing: tracingSettings(read),
}));

/** The OTLP trace exporter's settings, by the OpenTelemetry specification's variable names and precedence. */
function tracingSettings(read: Read): TracingSettings | null {
  if (read.get('OTEL_SDK_DISABLED')) return null;
  if (read.get('OTEL_TRACES_EXPORTER') === 'none') return null;
  const signalEndpoint = read.get('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const baseEndpoint = read.get('OTEL_EXPORTER_OTLP_ENDPOINT');
  // The signal's own URL is used as it is; the base gets the traces path appended.
  const endpoint = signalEndpoint ?? (baseEndpoint === undefined ? undefined : `${baseEndpoint.replace(/\/+$/, '')}/v1/traces`);
  if (endpoint === undefined) return null;
  // Read to be checked: Hangar exports OTLP over HTTP as JSON only.
  read.get('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL');
  read.get('OTEL_EXPORTER_OTLP_PROTOCOL');
  return {
    endpoint,
    serviceName: read.get('OTEL_SERVICE_NAME'),
    headers: read.isSet('OTEL_EXPORTER_OTLP_TRACES_HEADERS') ? read.get('OTEL_EXPORTER_OTLP_TRACES_HEADERS') : read.get('OTEL_EXPORTER_OTLP_HEADERS'),
    resourceAttributes: read.get('OTEL_RESOURCE_ATTRIBUTES'),
  };
}
