/**
 * Serving the metrics: the bearer-token check and the text both endpoints answer with (the
 * API's `/metrics`, see src/http/metrics.ts), and the worker's own small HTTP server, which
 * also answers its health check (`/healthz`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger';
import { collectProcessMetrics, registry } from './index';

export const METRICS_CONTENT_TYPE = registry.contentType;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether an Authorization header carries the token; no token configured means open. */
export function scrapeAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  // Digests have one length, so the comparison takes the same time whatever was sent.
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

/** The process's metrics, then each extra registry's (gauges read from the database). */
export async function scrape(extra: Registry[] = []): Promise<string> {
  const texts = await Promise.all([registry, ...extra].map((r) => r.metrics()));
  return texts.join('');
}

export interface MetricsServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Whether the process does its work: `ok`, or why not (`stopping`, its Temporal worker's state). */
export type HealthCheck = () => { ok: true } | { ok: false; reason: string };

/**
 * The worker's `/metrics` on a port of its own, and its `/healthz` for a container's health check
 * (200, or 503 with the reason; open, as it says nothing but that). It serves nothing else.
 */
export async function startMetricsServer(options: { port: number; host: string; token: string | undefined; logger: Logger; health?: HealthCheck }): Promise<MetricsServer> {
  collectProcessMetrics();
  const answer = (res: ServerResponse, status: number, error: string, details: string | null, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify({ error, details }));
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/healthz' && options.health) {
      if (req.method !== 'GET') return answer(res, 405, 'Method not allowed', `${req.method} is not allowed here; allowed: GET`, { allow: 'GET' });
      const health = options.health();
      if (!health.ok) return answer(res, 503, 'Service unavailable', health.reason);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return res.end(JSON.stringify({ status: 'ok' }));
    }
    if (path !== '/metrics') return answer(res, 404, 'Not found', `no route for ${req.method} ${path}`);
    if (req.method !== 'GET') return answer(res, 405, 'Method not allowed', `${req.method} is not allowed here; allowed: GET`, { allow: 'GET' });
    if (!scrapeAllowed(req.headers.authorization, options.token)) {
      return answer(res, 401, 'Unauthorized', 'metrics need Authorization: Bearer <HANGAR_METRICS_TOKEN>', { 'www-authenticate': 'Bearer' });
    }
    scrape().then(
      (text) => {
        res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE });
        res.end(text);
      },
      (err: unknown) => {
        options.logger.error('collecting metrics failed', { err: err as Error });
        answer(res, 500, 'Internal server error', null);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host}:${port}/metrics`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
