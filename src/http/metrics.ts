/**
 * The API's metrics middleware, first in the chain so it sees every request's final status
 * (after the error middleware's mapping, and whatever a later middleware refuses). It counts
 * each request by its route template (`ctx._matchedRoute`, never the path: ids must not become
 * labels), counts webhook deliveries by what their receiver answered, and serves `/metrics`
 * itself (operators only: outside the routes and /openapi.json), behind the bearer token.
 */
import type { Context, Middleware } from 'koa';
import type { Registry } from 'prom-client';
import { collectProcessMetrics, httpRequestDuration, httpRequests, webhookDeliveries } from '../metrics';
import { METRICS_CONTENT_TYPE, scrape, scrapeAllowed } from '../metrics/server';
import type { Route } from './route';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface HttpMetricsOptions {
  /** Required on `/metrics` (`Authorization: Bearer …`). */
  token: string;
  /** The app's routes: those declaring `webhook` are counted as deliveries of that provider. */
  routes: Route[];
  /** Registries served beside the process's own (the database gauges). */
  registries?: Registry[];
}

export function httpMetrics(options: HttpMetricsOptions): Middleware {
  collectProcessMetrics();
  const webhooks = new Map(options.routes.filter((r) => r.webhook).map((r) => [`${r.method.toUpperCase()} ${r.path}`, r.webhook!]));

  const serve = async (ctx: Context) => {
    if (ctx.method !== 'GET') {
      ctx.set('Allow', 'GET');
      return answer(ctx, 405, 'Method not allowed', `${ctx.method} is not allowed here; allowed: GET`);
    }
    if (!scrapeAllowed(ctx.get('authorization') || undefined, options.token)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      return answer(ctx, 401, 'Unauthorized', 'metrics need Authorization: Bearer <HANGAR_METRICS_TOKEN>');
    }
    ctx.body = await scrape(options.registries);
    ctx.type = METRICS_CONTENT_TYPE;
  };

  return async (ctx, next) => {
    if (ctx.path === '/metrics') return serve(ctx);
    const started = performance.now();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } finally {
      const method = METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
      const labels = { method, route, status: String(status) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, (performance.now() - started) / 1000);
      const provider = webhooks.get(`${method} ${route}`);
      if (provider) webhookDeliveries.inc({ provider, outcome: deliveryOutcome(status, ctx.body) });
    }
  };
}

/** What a receiver's answer says: every receiver answers a delivery id seen before with `duplicate: true`. */
function deliveryOutcome(status: number, body: unknown): string {
  if (status >= 500) return 'failed';
  if (status >= 400) return 'rejected';
  return (body as { duplicate?: unknown } | null)?.duplicate === true ? 'deduplicated' : 'accepted';
}

function answer(ctx: Context, status: number, error: string, details: string | null) {
  ctx.status = status;
  ctx.body = { error, details };
}
