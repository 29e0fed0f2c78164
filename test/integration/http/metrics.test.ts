/**
 * Prometheus metrics: the API's `/metrics` (on the shared harness, which sets
 * HANGAR_METRICS_TOKEN), off without a token, and the worker's own endpoint.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { startMetricsServer } from '../../../src/metrics/server';
import { buildApi } from '../../../src/processes';
import { githubPullRequest, sendGithub } from '../../support/codeHosting';
import { harness, METRICS_TOKEN } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

/** The value of the sample `name{labels…}` (the given labels, any others); undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

const scrape = async () => {
  const answer = await request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(answer.status, String(answer.body)).to.equal(200);
  return answer;
};

describe('metrics', function () {
  this.timeout(120_000);

  it('serves the Prometheus text format only with the bearer token', async () => {
    const missing = await request('GET', '/metrics');
    expect(missing.status).to.equal(401);
    expect(errorOf(missing).details).to.include('HANGAR_METRICS_TOKEN');
    expect(missing.headers.get('www-authenticate')).to.equal('Bearer');
    expect((await request('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status).to.equal(401);
    expect((await request('GET', '/metrics', { headers: { authorization: 'Bearer ' } })).status).to.equal(401);
    const posted = await request('POST', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(posted.status).to.equal(405);
    expect(posted.headers.get('allow')).to.equal('GET');

    const answer = await scrape();
    expect(answer.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    const text = answer.body as string;
    expect(text).to.include('# TYPE hangar_http_requests_total counter');
    expect(text).to.include('# TYPE hangar_http_request_duration_seconds histogram');
    // Node's own figures, and the gauges read from the database (every workspace status, even at 0).
    expect(sample(text, 'process_resident_memory_bytes')).to.be.greaterThan(0);
    for (const status of ['preparing', 'active', 'sleeping', 'archived', 'error']) expect(sample(text, 'hangar_workspaces', { status }), status).to.be.at.least(0);
    expect(sample(text, 'hangar_debounce_windows_open')).to.be.at.least(0);
    // An operator endpoint, not part of the public API.
    const openapi = await request('GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).to.not.include('/metrics');
  });

  it('counts requests by route template, never by the raw path', async () => {
    const org = await newOrg('metrics');
    const api = as(org.org_api_key);
    const route = '/v1/environments/:id';
    const labels = { method: 'GET', route, status: '404' };
    const before = sample((await scrape()).body, 'hangar_http_requests_total', labels) ?? 0;
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of ids) expect((await api.get(`/v1/environments/${id}`)).status).to.equal(404);
    expect((await api.get('/v1/environments')).status).to.equal(200);

    const text = (await scrape()).body as string;
    expect(sample(text, 'hangar_http_requests_total', labels)).to.equal(before + 3);
    expect(sample(text, 'hangar_http_requests_total', { method: 'GET', route: '/v1/environments', status: '200' })).to.be.at.least(1);
    expect(sample(text, 'hangar_http_request_duration_seconds_count', labels)).to.be.at.least(3);
    expect(sample(text, 'hangar_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).to.be.at.least(3);
    // No id, organization or key in any label.
    for (const secret of [...ids, org.organization_id, org.org_api_key]) expect(text).to.not.include(secret);
    expect((await request('GET', '/v1/no-such-thing')).status).to.equal(404);
    expect(sample((await scrape()).body, 'hangar_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).to.be.at.least(1);
  });

  it('counts webhook deliveries accepted, deduplicated and rejected by provider', async () => {
    const count = (text: string, outcome: string) => sample(text, 'hangar_webhook_deliveries_total', { provider: 'github', outcome }) ?? 0;
    const before = (await scrape()).body as string;
    const event = githubPullRequest({ fullName: `metrics/${randomUUID()}`, number: 1 });
    const deliveryId = randomUUID();
    expect((await sendGithub('pull_request', event, { deliveryId })).status).to.equal(202);
    const again = await sendGithub('pull_request', event, { deliveryId });
    expect(again.status).to.equal(202);
    expect(again.body.duplicate).to.equal(true);
    expect((await sendGithub('pull_request', event, { signature: 'sha256=' + '0'.repeat(64) })).status).to.equal(401);
    expect((await sendGithub('pull_request', event, { signature: null })).status).to.equal(401);
    // An unknown custom-webhook token is a rejection of the custom provider.
    expect((await request('POST', `/v1/automations/webhook/${randomUUID()}`, { body: {} })).status).to.equal(404);

    const after = (await scrape()).body as string;
    expect(count(after, 'accepted') - count(before, 'accepted')).to.equal(1);
    expect(count(after, 'deduplicated') - count(before, 'deduplicated')).to.equal(1);
    expect(count(after, 'rejected') - count(before, 'rejected')).to.equal(2);
    const custom = (text: string) => sample(text, 'hangar_webhook_deliveries_total', { provider: 'custom', outcome: 'rejected' }) ?? 0;
    expect(custom(after) - custom(before)).to.equal(1);
  });

  it('is off on an API without a token', async () => {
    const h = harness();
    const config = { ...h.config, metrics: { ...h.config.metrics, token: undefined } };
    const api = await buildApi({ config, logger: createLogger({ level: 'error', write: () => {} }), database: h.database, temporalAddress: h.temporal.address });
    const server: Server = await api.listen(0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).to.equal(404);
      expect(((await res.json()) as { error: string }).error).to.equal('Not found');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
    }
  });

  it("serves the worker's metrics on a port of its own, with the same token rule", async () => {
    const logger = createLogger({ level: 'error', write: () => {} });
    const open = await startMetricsServer({ port: 0, host: '127.0.0.1', token: undefined, logger });
    const guarded = await startMetricsServer({ port: 0, host: '127.0.0.1', token: METRICS_TOKEN, logger });
    try {
      // The harness's worker filled its hook-sandbox pool at start: those starts were timed.
      const text = await until('sandbox starts in the worker metrics', async () => {
        const res = await fetch(open.url);
        const body = await res.text();
        return res.status === 200 && (sample(body, 'hangar_sandbox_start_seconds_count') ?? 0) > 0 && body;
      });
      expect(text).to.include('# TYPE hangar_workspace_start_seconds histogram');
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).to.be.at.least(0);
      expect((await fetch(open.url.replace('/metrics', '/other'))).status).to.equal(404);
      expect((await fetch(guarded.url)).status).to.equal(401);
      const allowed = await fetch(guarded.url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(allowed.status).to.equal(200);
      expect(allowed.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    } finally {
      await open.close();
      await guarded.close();
    }
  });

  it("answers the worker's health check beside its metrics: 200 while it works, 503 with the reason once it stops", async () => {
    const logger = createLogger({ level: 'error', write: () => {} });
    let reason: string | null = null;
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', token: METRICS_TOKEN, logger, health: () => (reason === null ? { ok: true } : { ok: false, reason }) });
    const healthz = server.url.replace('/metrics', '/healthz');
    try {
      // Open without the metrics token: it says nothing but whether the worker works.
      const up = await fetch(healthz);
      expect([up.status, await up.json()]).to.deep.equal([200, { status: 'ok' }]);
      reason = 'stopping';
      const down = await fetch(healthz);
      expect([down.status, await down.json()]).to.deep.equal([503, { error: 'Service unavailable', details: 'stopping' }]);
      expect((await fetch(healthz, { method: 'POST' })).status).to.equal(405);
      expect((await fetch(server.url)).status, 'the metrics still need the token').to.equal(401);
    } finally {
      await server.close();
    }
  });
});
