/**
 * Memory of the API under a flood of forged GitHub deliveries (issue 13): BENCH_DELIVERIES
 * (40) concurrent BENCH_MIB (24) MiB posts to `/v1/webhooks/github`, first without
 * `X-Hub-Signature-256`, then with a well-formed but wrong one. The API runs alone in a child
 * process (`src/bin/api.ts`, as in production, on a database of its own and a Temporal dev
 * server), so its resident set (`/proc/<pid>/status`, VmRSS) is the service's and nothing
 * else's. Figures: idle RSS after a warm-up, the peak during each round, the RSS
 * BENCH_SETTLE_MS (5000) after the round's last answer, and that minus idle (target: within
 * 100 MB of idle). The answers' statuses are printed too: every delivery must be refused.
 *
 *   npm run bench:receivers
 *   BENCH_API_DIR=/path/to/other/checkout npm run bench:receivers   # the same figures for another version
 *
 * Needs PostgreSQL (DATABASE_URL's server) and the Temporal CLI (`npm run setup`); Linux (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateEncryptionKey } from '../src/crypto/secretBox';
import { silentLogger } from '../src/logger';
import { freePort, startTemporalDevServer } from '../src/temporal/devServer';
import { resolveTemporalCli } from '../src/toolchain';
import { signGithub } from '../test/support/codeHosting';
import { createScratchDatabase } from './scratchDatabase';
import { until } from '../test/support/wait';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 40);
const MIB = Number(process.env.BENCH_MIB ?? 24);
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 5000);
const API_DIR = resolve(process.env.BENCH_API_DIR ?? join(__dirname, '..'));
const TARGET_MB = 100;
const SECRET = 'bench-github-webhook-secret';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The process's resident set in bytes. */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** Samples RSS every 20 ms until stopped; resolves with the highest. */
function samplePeak(pid: number): () => number {
  let peak = rss(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, rss(pid));
  };
}

interface Outcome {
  status: number | null;
  /** The socket failed before an answer arrived. */
  error?: string;
}

/** One delivery on its own connection; settles on the answer, or on the connection's end without one. */
function deliver(port: number, body: Buffer, signature: string | null): Promise<Outcome> {
  return new Promise((resolveOutcome) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (!settled) resolveOutcome(outcome);
      settled = true;
    };
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      'content-length': body.length,
      'x-github-event': 'push',
      'x-github-delivery': randomUUID(),
    };
    if (signature) headers['x-hub-signature-256'] = signature;
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/webhooks/github', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => settle({ status: res.statusCode ?? null }));
      res.on('error', () => settle({ status: res.statusCode ?? null }));
    });
    // An early answer closes the connection while the body is still going out (EPIPE, ECONNRESET).
    req.on('error', (err: NodeJS.ErrnoException) => setTimeout(() => settle({ status: null, error: err.code ?? err.message }), 200));
    req.end(body);
  });
}

function tally(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = o.status !== null ? String(o.status) : `no answer (${o.error})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k}`).join(', ');
}

async function startApi(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/bin/api.ts'], { cwd: API_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  await until(
    'the API to answer /healthz',
    async () => {
      if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${env.PORT}/healthz`)).ok;
    },
    120_000,
    200,
  );
  return child;
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function main() {
  const cliPath = resolveTemporalCli();
  if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
  const database = await createScratchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'hangar-bench-receivers-'));
  const temporal = await startTemporalDevServer({ cliPath, headless: true, logger: silentLogger });
  const port = await freePort();
  let api: ChildProcess | null = null;
  try {
    api = await startApi({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: temporal.address,
      HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('bench'),
      HANGAR_GITHUB_WEBHOOK_SECRET: SECRET,
      HANGAR_DATA_DIR: dataDir,
      HANGAR_TASK_QUEUE: `hangar-bench-${randomBytes(3).toString('hex')}`,
      LOG_LEVEL: 'warn',
    });
    const pid = api.pid!;

    // Warm-up: every path the rounds take, with small bodies, so that idle includes loaded code.
    const small = Buffer.from(JSON.stringify({ zen: 'Keep it simple.', hook_id: 1 }));
    for (let i = 0; i < 20; i++) {
      await deliver(port, small, null);
      await deliver(port, small, `sha256=${'0'.repeat(64)}`);
      await deliver(port, small, signGithub(small.toString(), SECRET));
    }
    await sleep(2000);
    const idle = rss(pid);

    const body = Buffer.from(`{"zen":"${'a'.repeat(MIB * 1024 * 1024 - 10)}"}`);
    console.log(`receivers: ${DELIVERIES} concurrent ${MIB} MiB GitHub deliveries per round; API ${API_DIR}`);
    console.log(`idle RSS (after warm-up): ${mb(idle)}`);
    const rows: string[][] = [];
    let met = true;
    for (const [name, signature] of [
      ['unsigned', null],
      ['wrong signature', `sha256=${'0'.repeat(64)}`],
    ] as const) {
      const stop = samplePeak(pid);
      const started = Date.now();
      const outcomes = await Promise.all(Array.from({ length: DELIVERIES }, () => deliver(port, body, signature)));
      const seconds = (Date.now() - started) / 1000;
      const peak = stop();
      await sleep(SETTLE_MS);
      const after = rss(pid);
      const delta = after - idle;
      met &&= delta <= TARGET_MB * 1024 * 1024;
      rows.push([name, `${seconds.toFixed(1)} s`, mb(idle), mb(peak), mb(after), `${delta >= 0 ? '+' : ''}${mb(delta)}`, delta <= TARGET_MB * 1024 * 1024 ? 'met' : 'MISSED', tally(outcomes)]);
      const refused = outcomes.every((o) => o.status === 401 || o.status === null);
      if (!refused) throw new Error(`a forged delivery was not refused: ${tally(outcomes)}`);
    }
    const header = ['round', 'took', 'idle', 'peak', `after ${SETTLE_MS / 1000} s`, 'after − idle', `≤ ${TARGET_MB} MB`, 'answers'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
    console.log(met ? 'target met: RSS within 100 MB of idle after each round' : 'target MISSED');
  } finally {
    if (api) await stopApi(api);
    await temporal.stop();
    await database.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
