/**
 * API process memory under sustained load: a production API process (the built bundle of
 * `npm run build`, or `src/bin/api.ts` under tsx with BENCH_API=source), its own Node process
 * on a scratch database and a Temporal dev server of its own, takes a mix of the requests
 * clients send for BENCH_MINUTES (default 10) from 16 keep-alive loops in a worker thread,
 * while its resident set is read from /proc every 5 s. The mix: lists, reads and history,
 * environments and variables created and deleted, event streams opened and dropped, 400s, 404s
 * and refused keys. Prints the RSS after the first minute (warm), its peak and last value, and
 * the growth per minute after warm-up (least squares over the samples); targets: peak ≤ 200 MB
 * and no growth that would not level off.
 *
 *   npx tsx bench/memory.ts                                    # 10 minutes
 *   BENCH_MINUTES=2 BENCH_API=source npx tsx bench/memory.ts   # a quick look, from source
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { createAdmin } from '../src/admin';
import { loadConfig } from '../src/config';
import { generateEncryptionKey } from '../src/crypto/secretBox';
import { openDatabase } from '../src/db/database';
import { silentLogger } from '../src/logger';
import { freePort, startTemporalDevServer } from '../src/temporal/devServer';
import { resolveTemporalCli } from '../src/toolchain';
import { buildApi } from '../scripts/buildApi';
import { createScratchDatabase } from './scratchDatabase';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const LOOPS = 16;
const SAMPLE_MS = 5000;
const LIMIT_MB = 200;

/** One request of the mix; `{env}` in a path is replaced by an environment the loop created. */
interface Step {
  method: string;
  path: string;
  body?: unknown;
  key?: 'org' | 'bad';
  /** Read the status line and headers only, then drop the connection (an event stream). */
  drop?: boolean;
}

const LOADGEN = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { base, orgKey, steps, loops, seconds } = workerData;
const target = new URL(base);
const agent = new http.Agent({ keepAlive: true, maxSockets: loops });
const counts = {};
const deadline = Date.now() + seconds * 1000;
function send(step, env) {
  return new Promise((resolve) => {
    const path = step.path.replace('{env}', env || 'none');
    const body = step.body === undefined ? undefined : JSON.stringify(step.body);
    const headers = { authorization: 'Bearer ' + (step.key === 'bad' ? 'hgr_not_a_key' : orgKey) };
    if (body) headers['content-type'] = 'application/json';
    const req = http.request({ host: target.hostname, port: target.port, method: step.method, path, agent: step.drop ? false : agent, headers }, (res) => {
      counts[res.statusCode] = (counts[res.statusCode] || 0) + 1;
      if (step.drop) { req.destroy(); return resolve(null); }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { if (text.length < 65536) text += c; });
      res.on('end', () => { try { resolve(JSON.parse(text)); } catch { resolve(null); } });
    });
    req.on('error', () => { counts.error = (counts.error || 0) + 1; resolve(null); });
    req.end(body);
  });
}
async function loop() {
  let env = null;
  for (let i = 0; Date.now() < deadline; i++) {
    const step = steps[i % steps.length];
    if (step.method === 'POST' && step.path === '/v1/environments') {
      const created = await send({ ...step, body: { name: 'bench-' + Math.random().toString(36).slice(2) } });
      env = created && created.environment ? created.environment.id : null;
    } else if (step.method === 'DELETE' && step.path.includes('{env}')) {
      await send(step, env);
      env = null;
    } else {
      await send(step, env);
    }
  }
}
Promise.all(Array.from({ length: loops }, loop)).then(() => parentPort.postMessage(counts));
`;

/** The V8 heap in use and external memory, in MB, from the API's own /metrics. */
async function heapMb(base: string): Promise<{ heap: number; external: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer bench-memory-metrics-token' } })).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 1048576;
  return { heap: read('nodejs_heap_size_used_bytes'), external: read('nodejs_external_memory_bytes') };
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** Slope of the least-squares line through (minute, MB). */
function growthPerMinute(samples: Array<{ minute: number; mb: number }>): number {
  const n = samples.length;
  const mx = samples.reduce((s, p) => s + p.minute, 0) / n;
  const my = samples.reduce((s, p) => s + p.mb, 0) / n;
  const num = samples.reduce((s, p) => s + (p.minute - mx) * (p.mb - my), 0);
  const den = samples.reduce((s, p) => s + (p.minute - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function main() {
  const cliPath = resolveTemporalCli();
  if (!cliPath) throw new Error('no Temporal CLI: run npm run setup first');
  const scratch = await createScratchDatabase();
  const temporal = await startTemporalDevServer({ cliPath, headless: true, logger: silentLogger });
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: scratch.url,
    TEMPORAL_ADDRESS: temporal.address,
    HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('bench'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    HANGAR_RATE_LIMIT: 'off',
    // The process's own heap figures come from its /metrics (prom-client's default metrics).
    HANGAR_METRICS_TOKEN: 'bench-memory-metrics-token',
  };
  const root = join(__dirname, '..');
  // As production runs it: the built bundle (npm run build); BENCH_API=source runs src/bin/api.ts under tsx.
  const fromSource = process.env.BENCH_API === 'source';
  const args = fromSource ? ['--import', 'tsx', join(root, 'src/bin/api.ts')] : ['--enable-source-maps', await buildApi(join(root, '.hangar', 'bench-memory', 'api.js'))];
  console.log(`API process: ${fromSource ? 'src/bin/api.ts under tsx' : 'the built bundle (npm run build)'}`);
  const api = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const stopApi = () => new Promise<void>((resolve) => (api.exitCode !== null ? resolve() : (api.once('exit', () => resolve()), api.kill('SIGTERM'))));
  try {
    const base = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ; ) {
      if (api.exitCode !== null) throw new Error(`the API process exited with ${api.exitCode}`);
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      if (Date.now() > deadline) throw new Error('the API did not answer /healthz within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const database = await openDatabase(loadConfig(env), silentLogger);
    const org = await createAdmin(database.repos).createOrganization({ name: 'bench-memory', adminEmail: 'bench@example.com' });
    await database.close();
    // A workspace of the organization, for reads and event streams (no container needed).
    const replicaId = randomUUID();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query(`INSERT INTO replicas (id, organization_id, name, status, coding_agent, engine_secret_hash) VALUES ($1, $2, $3, 'active', 'agent_1', 'unused')`, [
      replicaId,
      org.organization_id,
      `bench-${replicaId.slice(0, 8)}`,
    ]);
    await client.end();

    const steps: Step[] = [
      { method: 'GET', path: '/v1/environments' },
      { method: 'POST', path: '/v1/environments' },
      { method: 'POST', path: '/v1/environments/{env}/variables', body: { key: 'BENCH_VALUE', value: 'x'.repeat(200) } },
      { method: 'GET', path: '/v1/environments/{env}/variables' },
      { method: 'GET', path: '/v1/replica?limit=20' },
      { method: 'GET', path: `/v1/replica/${replicaId}` },
      { method: 'GET', path: `/v1/replica/${replicaId}/chats` },
      { method: 'GET', path: `/v1/replica/${replicaId}/events`, drop: true },
      { method: 'GET', path: `/v1/replica/${randomUUID()}` },
      { method: 'GET', path: '/v1/replica/not-a-uuid' },
      { method: 'POST', path: '/v1/environments', body: { name: '' } },
      { method: 'GET', path: '/v1/environments', key: 'bad' },
      { method: 'DELETE', path: '/v1/environments/{env}' },
      { method: 'GET', path: `/v1/replica/${replicaId}/history` },
    ];
    console.log(`API pid ${api.pid}; ${LOOPS} loops for ${MINUTES} min; RSS every ${SAMPLE_MS / 1000} s`);
    const started = Date.now();
    const samples: Array<{ minute: number; mb: number }> = [{ minute: 0, mb: rssMb(api.pid!) }];
    const sampler = setInterval(() => {
      const minute = (Date.now() - started) / 60_000;
      const mb = rssMb(api.pid!);
      samples.push({ minute, mb });
      if (samples.length % 6 === 0) {
        void heapMb(base).then(
          ({ heap, external }) => console.log(`  ${minute.toFixed(1)} min: RSS ${mb.toFixed(1)} MB, heap in use ${heap.toFixed(1)} MB, external ${external.toFixed(1)} MB`),
          () => undefined,
        );
      }
    }, SAMPLE_MS);
    const counts = await new Promise<Record<string, number>>((resolve, reject) => {
      const worker = new Worker(LOADGEN, { eval: true, workerData: { base, orgKey: org.org_api_key, steps, loops: LOOPS, seconds: MINUTES * 60 } });
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    clearInterval(sampler);
    samples.push({ minute: (Date.now() - started) / 60_000, mb: rssMb(api.pid!) });

    const warm = samples.filter((s) => s.minute >= Math.min(1, MINUTES / 4));
    const peak = Math.max(...samples.map((s) => s.mb));
    const requests = Object.values(counts).reduce((a, b) => a + b, 0);
    console.log(`requests: ${requests} (${(requests / (MINUTES * 60)).toFixed(0)}/s) by status ${JSON.stringify(counts)}`);
    console.log(`RSS start ${samples[0]!.mb.toFixed(1)} MB, warm ${warm[0]!.mb.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, last ${samples.at(-1)!.mb.toFixed(1)} MB`);
    console.log(`growth after warm-up: ${growthPerMinute(warm).toFixed(2)} MB/min`);
    console.log(`peak ≤ ${LIMIT_MB} MB: ${peak <= LIMIT_MB ? 'yes' : 'NO'}`);
  } finally {
    await stopApi();
    await temporal.stop();
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
