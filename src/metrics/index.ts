/**
 * Hangar's Prometheus metrics. Events are counted where they happen, in whichever process
 * that is (HTTP and webhooks and the AI gateway in the API; workspaces, sandboxes and runs in
 * the worker), on one registry per process: a process has one set of counters however many
 * apps or workers it builds (`npm start` and the tests run both sides in one process).
 *
 * Labels hold only values from small fixed sets (route templates, statuses, provider and
 * agent names): never an id, a token, a tenant or anything a client chose.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

let processMetrics = false;

/** Node's own figures (CPU, memory, event-loop lag, GC), once per process, when something serves them. */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

export const httpRequests = new Counter({
  name: 'hangar_http_requests_total',
  help: 'API requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'hangar_http_request_duration_seconds',
  help: 'Time until the API handler returned (for streams: until the stream started), by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** `outcome`: accepted, deduplicated (a delivery id seen before), rejected (4xx) or failed (5xx). */
export const webhookDeliveries = new Counter({
  name: 'hangar_webhook_deliveries_total',
  help: 'Inbound webhook deliveries by provider and outcome (accepted, deduplicated, rejected, failed)',
  labelNames: ['provider', 'outcome'] as const,
  registers: [registry],
});

export const automationRuns = new Counter({
  name: 'hangar_automation_runs_total',
  help: 'Automation runs finished, by result (completed, failed)',
  labelNames: ['result'] as const,
  registers: [registry],
});

/** `kind`: `created` (a new container and volume) or `woken` (a stopped container started again). */
export const workspaceStartDuration = new Histogram({
  name: 'hangar_workspace_start_seconds',
  help: "Time to create or wake a workspace's container until it runs",
  labelNames: ['kind'] as const,
  buckets: [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [registry],
});

export const sandboxStartDuration = new Histogram({
  name: 'hangar_sandbox_start_seconds',
  help: 'Time to create and start a hook sandbox container',
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

/** `source`: `pool` (an idle pre-started sandbox) or `started` (one the run waited for). */
export const sandboxWaitDuration = new Histogram({
  name: 'hangar_sandbox_wait_seconds',
  help: 'Time a hook run waited for its sandbox, by where it came from (pool, started)',
  labelNames: ['source'] as const,
  buckets: [0.001, 0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

/** `direction`: input or output, as the provider reported them. */
export const aiGatewayTokens = new Counter({
  name: 'hangar_ai_gateway_tokens_total',
  help: "Tokens the AI gateway's providers reported, by agent and direction (input, output)",
  labelNames: ['agent', 'direction'] as const,
  registers: [registry],
});

/** Seconds since `started` (a `performance.now()` reading). */
export const secondsSince = (started: number): number => (performance.now() - started) / 1000;
