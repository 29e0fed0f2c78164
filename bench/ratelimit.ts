/**
 * How fast a rate-limited request is answered (target: 429 in ≤ 1 ms at p99). The app is the
 * API's own pipeline (createApp: request id, access log, error middleware, the rate limiter),
 * with the key cache over PostgreSQL's bus and buckets in Redis (as with REDIS_URL) or in
 * memory, and two floods:
 * - one valid API key past its bucket (a burst of 5, then nothing for 1,000 s);
 * - made-up keys from an address whose failed authentications have emptied its bucket;
 * - forged AI gateway keys naming a real workspace, from an address in debt (the workspace's
 *   bucket is chosen only by a key that proved itself, so these are the address's refusals).
 * After the first refusal each process answers from memory, without Redis or PostgreSQL.
 *
 * Figures per case: server time, from the `request` event to the response's `finish` in the
 * API's process (an in-process timer: everything Koa and the limiter do, not the kernel's socket
 * work); the server process's CPU time per refusal (immune to other processes taking the CPU,
 * which wall-clock percentiles on a shared machine are not); client latency on loopback with one
 * connection (a child process, requests one after another); and refusals per second at 10
 * connections.
 *
 *   npx tsx bench/ratelimit.ts                 # 5 s per measurement
 *   BENCH_SECONDS=10 npx tsx bench/ratelimit.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { createAdmin } from '../src/admin';
import { loadConfig, type RateLimitSettings } from '../src/config';
import { generateEncryptionKey } from '../src/crypto/secretBox';
import { migrate, openDatabase } from '../src/db/database';
import { unauthenticated } from '../src/domain/errors';
import { createApp } from '../src/http/app';
import { createRateLimiter } from '../src/http/rateLimit';
import { defineRoute } from '../src/http/route';
import { createMemoryBucketStore, createRedisBucketStore, type BucketStore } from '../src/limits';
import { createLogger } from '../src/logger';
import { createApiKeyCache } from '../src/services/apiKeyCache';
import { createIdentityService } from '../src/services/identity';
import { percentile } from './stats';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const LOADGEN = `
const http = require('node:http');
const { url, headers, connections, seconds } = JSON.parse(process.argv[1]);
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const latencies = [];
const statuses = {};
const deadline = Date.now() + seconds * 1000;
function once() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        resolve();
      });
    });
    req.on('error', () => { statuses.error = (statuses.error ?? 0) + 1; resolve(); });
    req.end();
  });
}
async function loop() { while (Date.now() < deadline) await once(); }
const began = Date.now();
Promise.all(Array.from({ length: connections }, loop)).then(() => {
  agent.destroy();
  process.stdout.write(JSON.stringify({ latencies, statuses, seconds: (Date.now() - began) / 1000 }));
});
`;

interface Load {
  latencies: Float64Array;
  statuses: Record<string, number>;
  seconds: number;
}

/** Runs the load generator in a child process, so that the server's process does only the serving. */
function load(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Load> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', LOADGEN, JSON.stringify({ url, headers, connections, seconds })], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      const m = JSON.parse(out) as { latencies: number[]; statuses: Record<string, number>; seconds: number };
      resolve({ latencies: Float64Array.from(m.latencies).sort(), statuses: m.statuses, seconds: m.seconds });
    });
  });
}

/** The app on a server that times each 429 from its `request` event to its `finish`. */
async function serve(app: ReturnType<typeof createApp>): Promise<{ url: string; refusals: number[]; close(): Promise<void> }> {
  const refusals: number[] = [];
  const handle = app.callback();
  const server: Server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      if (res.statusCode === 429) refusals.push(Number(process.hrtime.bigint() - started) / 1e6);
    });
    void handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refusals,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function main() {
  const dbName = `hangar_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const config = loadConfig({ DATABASE_URL: url.toString(), HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('bench') });
  // Production logs every request at info; formatting stays in the measurement, the write does not.
  const logger = createLogger({ level: 'info', write: () => {} });
  const database = await openDatabase(config, logger);
  const closers: Array<() => Promise<void>> = [];
  let failed = false;
  try {
    await migrate(database, config);
    const org = await createAdmin(database.repos).createOrganization({ name: 'bench' });
    const cache = createApiKeyCache({ bus: database.bus, ttlMs: 60_000, maxEntries: 10_000, logger });
    closers.push(() => cache.close());
    const identity = createIdentityService(database.repos, { cache });
    const routes = [
      defineRoute({
        method: 'get',
        path: '/v1/ping',
        operationId: 'benchPing',
        summary: 'Answers for a valid key',
        tag: 'bench',
        auth: 'apiKey',
        response: { status: 200, description: 'ok' },
        errors: [401, 429],
        handler: () => ({ ok: true }),
      }),
      // Stands for the AI gateway: a workspace's key checked by the route, which fails here.
      defineRoute({
        method: 'get',
        path: '/v1/gateway-ping',
        operationId: 'benchGatewayPing',
        summary: 'Refuses every gateway key',
        tag: 'bench',
        auth: 'none',
        workspaceCredential: 'gatewayKey',
        response: { status: 200, description: 'never' },
        errors: [401, 429],
        handler: () => {
          throw unauthenticated('invalid AI gateway key');
        },
      }),
    ];
    // Nothing refills during the run: every request after the first few is refused.
    const settings: RateLimitSettings = { key: { burst: 5, perSecond: 0.001 }, ip: { burst: 10, perSecond: 0.001 }, failedAuthCost: 10, proxyHops: 0 };

    const rows: string[] = [];
    for (const storeName of ['Redis', 'memory'] as const) {
      const prefix = `hangar-bench-${randomBytes(4).toString('hex')}:`;
      const store: BucketStore = storeName === 'Redis' ? createRedisBucketStore({ url: REDIS_URL, prefix, logger }) : createMemoryBucketStore();
      const limiter = createRateLimiter({ identity, store, settings });
      closers.push(() => limiter.close());
      const server = await serve(createApp({ logger, identity, routes, bodyLimitBytes: config.bodyLimitBytes, rateLimit: limiter.forRoute }));
      closers.push(server.close);

      const cases: Array<{ name: string; path: string; headers: Record<string, string> }> = [
        { name: 'valid key past its limit', path: '/v1/ping', headers: { authorization: `Bearer ${org.org_api_key}` } },
        { name: 'made-up keys, address in debt', path: '/v1/ping', headers: { authorization: `Bearer hgr_org_${randomBytes(24).toString('base64url')}` } },
        {
          name: 'forged gateway keys, in debt',
          path: '/v1/gateway-ping',
          headers: { 'x-api-key': `hgw_${randomUUID().replace(/-/g, '')}_${randomBytes(32).toString('base64url').slice(0, 43)}` },
        },
      ];
      for (const c of cases) {
        // Empty the bucket (5 allowed for the key; 1 failed authentication for the address).
        for (let i = 0; i < 6; i++) await fetch(server.url + c.path, { headers: c.headers }).then((r) => r.arrayBuffer());
        // Warm up (JIT, connection pools) before measuring.
        await load(server.url + c.path, c.headers, 10, 2);
        server.refusals.length = 0;
        const cpu = process.cpuUsage();
        const sequential = await load(server.url + c.path, c.headers, 1, SECONDS);
        const { user, system } = process.cpuUsage(cpu);
        const cpuPerRefusal = (user + system) / server.refusals.length;
        const serverTimes = Float64Array.from(server.refusals).sort();
        const parallel = await load(server.url + c.path, c.headers, 10, SECONDS);
        const all429 = (l: Load) => Object.keys(l.statuses).every((s) => s === '429');
        if (!all429(sequential) || !all429(parallel)) {
          failed = true;
          console.error(`  ${storeName} / ${c.name}: statuses other than 429: ${JSON.stringify(sequential.statuses)} ${JSON.stringify(parallel.statuses)}`);
        }
        const p99 = percentile(serverTimes, 99);
        if (p99 > 1) failed = true;
        rows.push(
          `  ${storeName.padEnd(6)} ${c.name.padEnd(30)} server p50 ${percentile(serverTimes, 50).toFixed(3)} ms  p99 ${p99.toFixed(3)} ms  CPU ${cpuPerRefusal.toFixed(0)} µs/refusal   ` +
            `client (1 conn) p50 ${percentile(sequential.latencies, 50).toFixed(3)} ms  p99 ${percentile(sequential.latencies, 99).toFixed(3)} ms   ` +
            `${(parallel.latencies.length / parallel.seconds).toFixed(0)} refusals/s at 10 conns`,
        );
      }
    }
    console.log(`rate-limited requests (429), ${SECONDS} s per measurement; server time = request event to response finish, in process`);
    for (const row of rows) console.log(row);
    console.log(`target: server p99 ≤ 1 ms — ${failed ? 'NOT met' : 'met'}`);
    if (failed) process.exitCode = 1;
  } finally {
    for (const close of closers.reverse()) await close();
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
