/**
 * Model catalog throughput: `GET /v1/ai-gateway/models?query=...&page=2` through the whole
 * HTTP stack as the API runs it (createApp: request id, access log, the rate limiter, the bearer
 * key answered from the API key cache, ajv, the catalog routes) against a bare Koa hello-world,
 * both on this machine, in the same run, with the same load generator at 10 concurrent
 * keep-alive connections. Prints requests/s, p50 and p99 of each and the ratio (targets: ≥ 50 %
 * of bare Koa, p99 ≤ 20 ms), also per round (each pair measured back to back, steadier on a
 * shared machine), and, for comparison, the same app looking the key up in PostgreSQL on every
 * request (no cache). The limiter's buckets are in memory and wide enough
 * that it never refuses here: its cost is measured, not its refusals (bench:ratelimit).
 *
 * The organization has a provider key, and its catalog is a 300-model list from a local server
 * in the provider's wire format (about the size of a real gateway's), so the search scans a
 * realistic list. The load generator is wrk when it is on PATH (BENCH_LOADGEN=node forces the
 * built-in one: 10 keep-alive loops on node:http in a worker thread, off the server's thread).
 *
 *   npx tsx bench/models.ts                              # 2 rounds of 5 s each, interleaved
 *   BENCH_SECONDS=10 BENCH_ROUNDS=3 BENCH_LOADGEN=node npx tsx bench/models.ts
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import Koa from 'koa';
import pg from 'pg';
import { createAdmin } from '../src/admin';
import { hashApiKey } from '../src/crypto/apiKeys';
import { loadConfig } from '../src/config';
import { generateEncryptionKey } from '../src/crypto/secretBox';
import { createApp } from '../src/http/app';
import { httpMetrics } from '../src/http/metrics';
import { createRateLimiter } from '../src/http/rateLimit';
import { createMemoryBucketStore } from '../src/limits';
import { modelsRoutes } from '../src/http/routes/models';
import { createLogger } from '../src/logger';
import { migrate, openDatabase } from '../src/db/database';
import { createApiKeyCache } from '../src/services/apiKeyCache';
import { createIdentityService } from '../src/services/identity';
import { createModelCatalogService } from '../src/services/modelCatalog';
import { startFakeProvider } from '../test/support/fakeProviders';
import { percentile } from './stats';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 10;
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PATH = '/v1/ai-gateway/models?query=coder&page=2';

interface Run {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

// ---- load generators --------------------------------------------------------------------

const NODE_LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, headers, connections, seconds } = workerData;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
let errors = 0;
const deadline = Date.now() + seconds * 1000;
function once() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        if (res.statusCode !== 200) errors++;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        resolve();
      });
    });
    req.on('error', () => { errors++; resolve(); });
    req.end();
  });
}
async function loop() { while (Date.now() < deadline) await once(); }
const began = Date.now();
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  agent.destroy();
  parentPort.postMessage({ latencies: Float64Array.from(latencies), errors, seconds: (Date.now() - began) / 1000 });
});
`;

function nodeLoad(url: string, headers: Record<string, string>, seconds: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(NODE_LOADGEN, { eval: true, workerData: { url, headers, connections: CONNECTIONS, seconds } });
    worker.once('error', reject);
    worker.once('message', (m: { latencies: Float64Array; errors: number; seconds: number }) => {
      const sorted = m.latencies.sort();
      resolve({ requests: sorted.length, seconds: m.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: m.errors });
      void worker.terminate();
    });
  });
}

const WRK_SCRIPT = `
local auth = os.getenv("BENCH_AUTH")
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end
errors = 0
response = function(status) if status ~= 200 then errors = errors + 1 end end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %f %f %f %d\\n", summary.requests, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status))
end
`;

async function wrkLoad(url: string, headers: Record<string, string>, seconds: number): Promise<Run> {
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const script = join(mkdtempSync(join(tmpdir(), 'bench-')), 'report.lua');
  writeFileSync(script, WRK_SCRIPT);
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'wrk',
      ['-t', '1', '-c', String(CONNECTIONS), '-d', `${seconds}s`, '-s', script, url],
      { env: { ...process.env, BENCH_AUTH: headers.authorization ?? '' } },
      (err, stdout) => (err ? reject(err) : resolve(stdout)),
    ),
  );
  const match = /RESULT (\d+) ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(out);
  if (!match) throw new Error(`unexpected wrk output:\n${out}`);
  const [, requests, duration, p50, p99, errors] = match.map(Number) as number[];
  return { requests: requests!, seconds: duration!, p50: p50!, p99: p99!, errors: errors! };
}

const hasWrk = () => new Promise<boolean>((resolve) => execFile('wrk', ['--version'], (err) => resolve(!err || (err as { code?: unknown }).code === 1)));

// ---- servers ----------------------------------------------------------------------------

async function listen(app: Koa): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function catalogOfSize(n: number) {
  const kinds = ['Coder', 'Chat', 'Reasoning', 'Vision', 'Instruct'];
  return Array.from({ length: n }, (_, i) => {
    const kind = kinds[i % kinds.length]!;
    return {
      id: `vendor-${i % 17}/model-${i}-${kind.toLowerCase()}`,
      name: `Model ${i} ${kind}`,
      description: `A ${kind.toLowerCase()} model from vendor ${i % 17}, with a context window of ${(i % 8) + 1}28k tokens and tool use.`,
    };
  });
}

async function main() {
  const dbName = `hangar_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;

  const provider = await startFakeProvider('source_a', { kind: 'ok', models: catalogOfSize(300) });
  const config = loadConfig({ DATABASE_URL: url.toString(), HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('bench'), HANGAR_SOURCE_A_URL: provider.url });
  // Production logs every request at info; formatting stays in the measurement, the write does not.
  const logger = createLogger({ level: 'info', write: () => {} });
  const database = await openDatabase(config, logger);
  const closers: Array<() => Promise<void>> = [];
  try {
    await migrate(database, config);
    const org = await createAdmin(database.repos).createOrganization({ name: 'bench' });
    const providerKey = `sk-bench-${randomBytes(8).toString('hex')}`;

    const cache = createApiKeyCache({ bus: database.bus, ttlMs: config.apiKeyCache.ttlMs, maxEntries: config.apiKeyCache.maxEntries, logger });
    closers.push(() => cache.close());
    const identity = createIdentityService(database.repos, { cache });
    const catalog = createModelCatalogService({
      repos: database.repos,
      config,
      logger,
      organizationSecret: async (organizationId, agent) => (organizationId === org.organization_id && agent === 'agent_3' ? providerKey : null),
    });
    const routes = modelsRoutes(catalog);
    const wide = { burst: 1e9, perSecond: 1e9 };
    const limiter = createRateLimiter({ identity, store: createMemoryBucketStore(), settings: { key: wide, ip: wide, failedAuthCost: 10, proxyHops: 0 } });
    const hangar = await listen(createApp({ logger, identity, routes, bodyLimitBytes: config.bodyLimitBytes, rateLimit: limiter.forRoute }));
    closers.push(hangar.close);
    // For comparison: every request looks its key up in PostgreSQL, as before the cache.
    const uncached = createIdentityService(database.repos);
    const noCache = await listen(createApp({ logger, identity: uncached, routes, bodyLimitBytes: config.bodyLimitBytes, rateLimit: limiter.forRoute }));
    closers.push(noCache.close);
    // The same app with the Prometheus middleware (HANGAR_METRICS_TOKEN set), for what metrics cost (target ≤ 5 %).
    const withMetrics = await listen(
      createApp({ logger, identity, routes, bodyLimitBytes: config.bodyLimitBytes, rateLimit: limiter.forRoute, metrics: httpMetrics({ token: randomBytes(16).toString('hex'), routes }) }),
    );
    closers.push(withMetrics.close);

    const bare = new Koa();
    bare.use((ctx) => {
      ctx.body = 'Hello World';
    });
    const baseline = await listen(bare);
    closers.push(baseline.close);

    const headers = { authorization: `Bearer ${org.org_api_key}` };
    const check = await fetch(hangar.url + PATH, { headers });
    const body = (await check.json()) as { models?: unknown[]; total?: number; page?: number };
    if (check.status !== 200 || body.page !== 2 || !body.models?.length) throw new Error(`unexpected answer ${check.status} ${JSON.stringify(body)}`);
    if (provider.requests.length !== 1) throw new Error('the catalog did not come from the provider');

    const useWrk = process.env.BENCH_LOADGEN !== 'node' && (await hasWrk());
    const load = useWrk ? wrkLoad : nodeLoad;
    await load(hangar.url + PATH, headers, 2);
    await load(baseline.url + '/', {}, 2);
    await load(noCache.url + PATH, headers, 2);
    if (!identity.holdsKey(hashApiKey(org.org_api_key))) throw new Error('the key is not in the cache after the warm-up');

    const totals = { hangar: [] as Run[], bare: [] as Run[], noCache: [] as Run[], metrics: [] as Run[] };
    for (let round = 0; round < ROUNDS; round++) {
      totals.bare.push(await load(baseline.url + '/', {}, SECONDS));
      totals.hangar.push(await load(hangar.url + PATH, headers, SECONDS));
      totals.noCache.push(await load(noCache.url + PATH, headers, SECONDS));
      totals.metrics.push(await load(withMetrics.url + PATH, headers, SECONDS));
    }
    const summarize = (runs: Run[]) => ({
      rps: runs.reduce((s, r) => s + r.requests, 0) / runs.reduce((s, r) => s + r.seconds, 0),
      p50: Math.max(...runs.map((r) => r.p50)),
      p99: Math.max(...runs.map((r) => r.p99)),
      errors: runs.reduce((s, r) => s + r.errors, 0),
    });
    const h = summarize(totals.hangar);
    const b = summarize(totals.bare);
    const n = summarize(totals.noCache);
    const m = summarize(totals.metrics);
    const ratio = h.rps / b.rps;
    const fmt = (s: ReturnType<typeof summarize>) =>
      `${s.rps.toFixed(0).padStart(7)} req/s   p50 ${s.p50.toFixed(2)} ms   p99 ${s.p99.toFixed(2)} ms   errors ${s.errors}`;
    console.log(`model catalog, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s each, load generator: ${useWrk ? 'wrk' : 'node:http worker'}`);
    console.log(`  hangar   GET ${PATH} (300-model live catalog, key cache)  ${fmt(h)}`);
    console.log(`  baseline bare Koa hello-world                                                ${fmt(b)}`);
    console.log(`  comparison: hangar looking the key up in PostgreSQL every request             ${fmt(n)}  (${((n.rps / b.rps) * 100).toFixed(1)} % of bare)`);
    console.log(`  hangar with /metrics counting every request                                   ${fmt(m)}  (metrics cost ${((1 - m.rps / h.rps) * 100).toFixed(1)} % of throughput, target ≤ 5 %)`);
    console.log(`  ratio hangar/bare ${(ratio * 100).toFixed(1)} % (target ≥ 50 %), hangar p99 ${h.p99.toFixed(2)} ms (target ≤ 20 ms)`);
    // Each round measures bare Koa just before the app: on a shared machine the pairs are steadier than the totals.
    const rounds = totals.hangar.map((run, i) => (run.requests / run.seconds / (totals.bare[i]!.requests / totals.bare[i]!.seconds)) * 100);
    console.log(`  ratio per round ${rounds.map((r) => `${r.toFixed(1)} %`).join(', ')}`);
    if (h.errors + b.errors + n.errors > 0) process.exitCode = 1;
  } finally {
    for (const close of closers.reverse()) await close();
    await provider.close();
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
