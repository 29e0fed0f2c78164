/**
 * Terminal input round trip through the whole path a client sees: HTTP input request → API
 * → PostgreSQL NOTIFY → worker's terminal manager → TTY `docker exec` → bash → output →
 * NOTIFY → API → SSE stream. Two figures per round: the TTY's echo of the typed line, and
 * the command's own output. The baseline is the same TTY exec driven directly (write, wait
 * for the output), measured in the same run.
 *
 *   npx tsx bench/terminal.ts                 # 200 rounds
 *   BENCH_ROUNDS=500 npx tsx bench/terminal.ts
 *
 * Needs PostgreSQL (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/test)
 * and Docker with the sandbox image; Temporal is not involved.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createAdmin } from '../src/admin';
import { createPostgresBus } from '../src/events/bus';
import { createApp } from '../src/http/app';
import { terminalRoutes } from '../src/http/routes/terminals';
import { createRepositories } from '../src/db';
import { createPostgresKnex, migrateToLatest } from '../src/db/knex';
import { silentLogger } from '../src/logger';
import { createDocker } from '../src/sandbox';
import { createIdentityService } from '../src/services/identity';
import { createTerminalService } from '../src/services/terminals';
import { createTerminalClient, createTerminalManager } from '../src/terminals';
import { SERVER_URL, withServer } from '../test/support/harness';
import { sseData } from '../test/support/sse';
import { createDockerOpenTty, startTtyContainer } from '../test/support/ttyDocker';
import { summary } from './stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const ms = () => Number(process.hrtime.bigint()) / 1e6;

/** Resolves when `text()` satisfies `test`; checked on every change signalled through `notify`. */
function watcher(text: () => string) {
  let waiters: Array<{ test: (t: string) => boolean; resolve: () => void }> = [];
  return {
    notify() {
      const t = text();
      waiters = waiters.filter((w) => (w.test(t) ? (w.resolve(), false) : true));
    },
    until(test: (t: string) => boolean): Promise<void> {
      if (test(text())) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}

async function main() {
  const dbName = `hangar_bench_${randomBytes(4).toString('hex')}`;
  await withServer((c) => c.query(`CREATE DATABASE ${dbName}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const db = createPostgresKnex(url.toString());
  const bus = createPostgresBus(url.toString(), silentLogger);
  const docker = createDocker(process.env);
  const container = await startTtyContainer(docker);
  const openTty = createDockerOpenTty(docker, () => container.name);
  const repos = createRepositories(db);
  const manager = createTerminalManager({ bus, repository: repos.terminalSessions, owner: `bench-${randomUUID().slice(0, 8)}`, openTty, logger: silentLogger });
  const client = createTerminalClient({ bus });
  const app = createApp({ logger: silentLogger, identity: createIdentityService(repos), routes: terminalRoutes(createTerminalService({ client, repos })), bodyLimitBytes: 1024 * 1024 });
  const server = app.listen(0, '127.0.0.1');
  const listening = new Promise((resolve) => server.once('listening', resolve));
  try {
    await migrateToLatest(db);
    await manager.start();
    await listening;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const org = await createAdmin(repos).createOrganization({ name: 'bench' });
    const workspaceId = randomUUID();
    await db('replicas').insert({ id: workspaceId, organization_id: org.organization_id, name: 'bench', status: 'active', coding_agent: 'agent_1', engine_secret_hash: '-' });
    const headers = { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' };
    const sessions = `${base}/v1/workspaces/${workspaceId}/terminal/sessions`;
    const created = await fetch(sessions, { method: 'POST', headers, body: JSON.stringify({ cols: 120, rows: 40 }) });
    const { session } = (await created.json()) as { session: { id: string } };

    // The client side: an SSE stream accumulating output.
    let output = '';
    const seen = watcher(() => output);
    const abort = new AbortController();
    const res = await fetch(`${sessions}/${session.id}/stream`, { headers, signal: abort.signal });
    void (async () => {
      try {
        for await (const event of sseData<{ data?: string }>(res)) {
          output += event.data ?? '';
          seen.notify();
        }
      } catch {
        // aborted at the end
      }
    })();
    await seen.until((t) => t.includes('$ '));

    let sequence = 0;
    const roundTrip = async (n: number) => {
      const typed = `echo x-$((${n}+1000000))`;
      const printed = `x-${n + 1000000}\r\n`;
      const started = ms();
      const echoed = seen.until((t) => t.includes(typed)).then(ms);
      const ran = seen.until((t) => t.includes(printed)).then(ms);
      const answer = await fetch(`${sessions}/${session.id}/input`, { method: 'POST', headers, body: JSON.stringify({ data: `${typed}\n`, generation: 0, sequence: sequence++ }) });
      if (answer.status !== 200) throw new Error(`input answered ${answer.status}: ${await answer.text()}`);
      const acked = ms();
      return { echo: (await echoed) - started, output: (await ran) - started, ack: acked - started };
    };

    // Baseline: the same TTY exec, driven directly.
    const tty = await openTty(workspaceId, { cols: 120, rows: 40, env: { TERM: 'xterm-256color' } });
    let direct = '';
    const directSeen = watcher(() => direct);
    tty.onData((chunk) => {
      direct += chunk.toString();
      directSeen.notify();
    });
    await directSeen.until((t) => t.includes('$ '));
    const directTrip = async (n: number) => {
      const typed = `echo x-$((${n}+2000000))`;
      const printed = `x-${n + 2000000}\r\n`;
      const started = ms();
      const echoed = directSeen.until((t) => t.includes(typed)).then(ms);
      const ran = directSeen.until((t) => t.includes(printed)).then(ms);
      await tty.write(`${typed}\n`);
      return { echo: (await echoed) - started, output: (await ran) - started };
    };

    for (let i = 0; i < 10; i++) {
      await roundTrip(-i - 1);
      await directTrip(-i - 1);
    }
    const service = { echo: [] as number[], output: [] as number[], ack: [] as number[] };
    const baseline = { echo: [] as number[], output: [] as number[] };
    // Interleaved, so background load on the machine affects both alike.
    for (let i = 0; i < ROUNDS; i++) {
      const s = await roundTrip(i);
      service.echo.push(s.echo);
      service.output.push(s.output);
      service.ack.push(s.ack);
      const d = await directTrip(i);
      baseline.echo.push(d.echo);
      baseline.output.push(d.output);
    }
    abort.abort();
    await tty.close();

    const fmt = (n: number) => `${n.toFixed(1)} ms`;
    const line = (label: string, samples: number[]) => {
      const s = summary(samples);
      console.log(`  ${label.padEnd(48)} p50 ${fmt(s.p50).padStart(9)}  p95 ${fmt(s.p95).padStart(9)}  (min ${fmt(s.min)}, max ${fmt(s.max)})`);
      return s;
    };
    console.log(`terminal input round trip, ${ROUNDS} rounds, input "echo x-$((n+1000000))\\n"`);
    const se = line('service: input → echo on the SSE stream', service.echo);
    const so = line('service: input → command output on the stream', service.output);
    line('service: input request answered', service.ack);
    const be = line('baseline: TTY write → echo (direct exec)', baseline.echo);
    const bo = line('baseline: TTY write → command output', baseline.output);
    console.log(`  added by HTTP + bus + SSE: echo p50 +${fmt(se.p50 - be.p50)}, p95 +${fmt(se.p95 - be.p95)}; output p50 +${fmt(so.p50 - bo.p50)}, p95 +${fmt(so.p95 - bo.p95)}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await manager.close();
    await client.shutdown();
    await container.remove();
    await bus.close();
    await db.destroy();
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
