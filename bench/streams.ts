/**
 * Memory per open event stream, measured in an API process of its own (the same `buildApi` as
 * `src/bin/api.ts`, on a PostgreSQL database and a Temporal dev server of this run): the
 * process's memory after a full GC with no stream open, then with BENCH_STREAMS streams open
 * (default 1,000), per kind:
 *  - `GET /v1/events` (the organization's events: presence), all on one key;
 *  - `GET /v1/replica/{id}/events`, spread over 10 workspaces;
 *  - baseline: a bare node:http server in the same process holding the same number of
 *    `text/event-stream` responses (the floor any Node server pays for a connection).
 * Prints the cost per stream in JS heap (with external memory) and in RSS, and the ratio to
 * the baseline (target ≤ 50 KB per stream, on both figures). The stream caps are raised for the run through their
 * settings (HANGAR_STREAMS_PER_KEY, _PER_ORGANIZATION, _PER_PROCESS).
 *
 *   npm run bench:streams
 *   BENCH_STREAMS=2000 npm run bench:streams
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdmin } from '../src/admin';
import { loadConfig } from '../src/config';
import { generateEncryptionKey } from '../src/crypto/secretBox';
import { createLogger, silentLogger } from '../src/logger';
import { buildApi, migrate, openDatabase } from '../src/processes';
import { startTemporalDevServer } from '../src/temporal/devServer';
import { resolveTemporalCli } from '../src/toolchain';
import { createScratchDatabase } from './scratchDatabase';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const WORKSPACES = 10;
const TARGET_KB = 50;

type ToChild = { type: 'measure' } | { type: 'close' };
type FromChild = { type: 'ready'; apiPort: number; barePort: number } | { type: 'measured'; rss: number; heapUsed: number; external: number };

// ---- the measured process -------------------------------------------------------------

async function serveApi(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger({ level: config.logLevel, base: { process: 'api' } });
  const database = await openDatabase(config, logger);
  const api = await buildApi({ config, logger, database, temporalAddress: config.temporalAddress! });
  const server = await api.listen(0, '127.0.0.1');
  // The baseline: headers and one comment, then nothing, as an idle event stream.
  const bare = http.createServer((req, res) => {
    req.socket.setTimeout(0);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write(': connected\n\n');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const gc = (globalThis as { gc?: () => void }).gc;
  process.on('message', async (m: ToChild) => {
    if (m.type === 'measure') {
      // Until RSS settles: a pass runs finalizers whose memory the next frees, and freed
      // pages go back to the system a moment after the collection.
      let rss = Infinity;
      for (let pass = 0; pass < 20; pass++) {
        gc?.();
        await new Promise((r) => setTimeout(r, 100));
        const now = process.memoryUsage().rss;
        if (Math.abs(rss - now) < 64 * 1024) break;
        rss = now;
      }
      const usage = process.memoryUsage();
      process.send!({ type: 'measured', rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external } satisfies FromChild);
    }
    if (m.type === 'close') {
      server.closeAllConnections();
      bare.closeAllConnections();
      await new Promise((r) => server.close(r));
      await new Promise((r) => bare.close(r));
      await api.close();
      await database.close();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({
    type: 'ready',
    apiPort: (server.address() as AddressInfo).port,
    barePort: (bare.address() as AddressInfo).port,
  } satisfies FromChild);
}

// ---- the bench ------------------------------------------------------------------------

function nextMessage<T extends FromChild['type']>(child: ChildProcess, type: T): Promise<Extract<FromChild, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromChild) => {
      if (m.type !== type) return;
      child.off('message', onMessage).off('exit', onExit);
      resolve(m as Extract<FromChild, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`the API process exited (${code})`));
    child.on('message', onMessage).once('exit', onExit);
  });
}

interface OpenStream {
  res: IncomingMessage;
  close(): void;
}

/** Opens one stream and resolves once its first bytes arrived (the server holds it by then). */
function openStream(port: number, path: string, key: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`${path} answered ${res.statusCode}`));
      }
      res.once('data', () => resolve({ res, close: () => req.destroy() }));
      res.on('data', () => {});
      res.on('error', () => undefined);
    });
    req.on('error', reject);
  });
}

async function openMany(count: number, open: (i: number) => Promise<OpenStream>): Promise<OpenStream[]> {
  const streams: OpenStream[] = [];
  // 50 at a time: a connect storm of thousands measures the listen backlog, not the streams.
  for (let i = 0; i < count; i += 50) {
    streams.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(i + j)))));
  }
  return streams;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.send({ type: 'close' } satisfies ToChild);
  await exited;
}

async function main() {
  const cliPath = resolveTemporalCli();
  if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
  const scratch = await createScratchDatabase();
  const temporal = await startTemporalDevServer({ cliPath, headless: true, logger: silentLogger });
  const env: Record<string, string> = {
    DATABASE_URL: scratch.url,
    TEMPORAL_ADDRESS: temporal.address,
    HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('bench'),
    HANGAR_TASK_QUEUE: `hangar-bench-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
    HANGAR_STREAMS_PER_KEY: String(STREAMS * 2),
    HANGAR_STREAMS_PER_ORGANIZATION: String(STREAMS * 2),
    HANGAR_STREAMS_PER_PROCESS: String(STREAMS * 4),
  };
  const database = await openDatabase(loadConfig(env), silentLogger);
  let child: ChildProcess | null = null;
  try {
    await migrate(database, loadConfig(env));
    const org = await createAdmin(database.repos).createOrganization({ name: 'bench' });
    const workspaces = Array.from({ length: WORKSPACES }, () => randomUUID());
    for (const id of workspaces) {
      await database.db('replicas').insert({
        id,
        organization_id: org.organization_id,
        name: `bench-${id.slice(0, 8)}`,
        status: 'active',
        coding_agent: 'agent_1',
        engine_secret_hash: 'not-used-by-this-bench',
      });
    }

    const key = org.org_api_key;
    const kinds: Array<{ name: string; server: 'api' | 'bare'; path: (i: number) => string }> = [
      { name: 'bare node:http (baseline)', server: 'bare', path: () => '/' },
      { name: 'GET /v1/events', server: 'api', path: () => '/v1/events' },
      { name: 'GET /v1/replica/{id}/events', server: 'api', path: (i) => `/v1/replica/${workspaces[i % WORKSPACES]}/events` },
    ];
    const rows: Array<{ name: string; rssKb: number; heapKb: number }> = [];
    // Each kind in a fresh process, so memory one kind freed cannot hide what the next costs.
    for (const kind of kinds) {
      child = fork(__filename, [], { env: { ...process.env, ...env, BENCH_STREAMS_API: '1' }, execArgv: [...process.execArgv, '--expose-gc'] });
      const ready = await nextMessage(child, 'ready');
      const port = kind.server === 'api' ? ready.apiPort : ready.barePort;
      const measure = async () => {
        const reply = nextMessage(child!, 'measured');
        child!.send({ type: 'measure' } satisfies ToChild);
        return reply;
      };
      // Warm-up: the code paths loaded and compiled, the pools grown, before the first figure.
      for (let round = 0; round < 2; round++) for (const s of await openMany(20, (i) => openStream(port, kind.path(i), key))) s.close();
      await new Promise((r) => setTimeout(r, 500));
      const before = await measure();
      const streams = await openMany(STREAMS, (i) => openStream(port, kind.path(i), key));
      const during = await measure();
      for (const s of streams) s.close();
      rows.push({
        name: kind.name,
        rssKb: (during.rss - before.rss) / STREAMS / 1024,
        heapKb: (during.heapUsed + during.external - before.heapUsed - before.external) / STREAMS / 1024,
      });
      await stop(child);
      child = null;
    }
    const baseline = rows[0]!;
    console.log(`memory per open event stream, ${STREAMS} streams open at once, after a full GC`);
    console.log('  (JS heap: what the streams\' objects hold; RSS moves in the steps V8 commits pages in, so it is noisy at this size)');
    for (const row of rows) {
      const ratio = row === baseline ? '' : `   ${(row.heapKb / baseline.heapKb).toFixed(1)}× the baseline's heap`;
      console.log(`  ${row.name.padEnd(30)} JS heap ${row.heapKb.toFixed(1).padStart(5)} KB   RSS ${row.rssKb.toFixed(1).padStart(5)} KB${ratio}`);
    }
    const worst = Math.max(...rows.slice(1).flatMap((r) => [r.heapKb, r.rssKb]));
    console.log(`  target ≤ ${TARGET_KB} KB per stream: ${worst <= TARGET_KB ? 'met' : 'NOT met'} (worst figure ${worst.toFixed(1)} KB)`);
  } finally {
    if (child) await stop(child);
    await database.close();
    await temporal.stop();
    await scratch.drop();
  }
}

if (process.env.BENCH_STREAMS_API && process.send) {
  serveApi().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
