/**
 * What one mocha run shares across its worker processes. `npm test` runs files in parallel
 * (.mocharc.cjs `parallel`, `jobs`): each worker process starts its own harness (database,
 * API port, task queue, sandbox owner, Redis prefix) the first time one of its files runs, and
 * all of them use the one Temporal dev server the run starts here. Mocha ends its workers with
 * `process.exit`, past any hook, so a worker's harness cannot close itself: each harness writes
 * down what it made in the run's directory, and the run's end removes it (containers, volumes,
 * networks, the database, its directories). A harness that closes normally erases its record.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import knex, { type Knex } from 'knex';
import type Docker from 'dockerode';
import { createLogger } from '../../src/logger';
import { createDocker } from '../../src/sandbox';
import { LABEL_OWNER } from '../../src/sandbox/docker';
import { HOST_PORTS_CHAIN, hostPortRule } from '../../src/sandbox/network/egress';
import { organizationNetworkName } from '../../src/sandbox/network/networks';
import { workspaceName } from '../../src/sandbox/workspace';
import { startTemporalDevServer, type DevServer } from '../../src/temporal/devServer';
import { resolveTemporalCli } from '../../src/toolchain';
import { recordHistories } from './histories';

const execFileAsync = promisify(execFile);

/** The PostgreSQL server tests and benches create their databases on. */
export const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `fn` with a client on the server's default database (CREATE/DROP DATABASE). */
export async function withServer<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const RUN_DIR = 'HANGAR_TEST_RUN_DIR';
const TEMPORAL = 'HANGAR_TEST_TEMPORAL_ADDRESS';

/** What a harness made that outlives its process. */
export interface HarnessRecord {
  /** Its database on the PostgreSQL server; null on the embedded database. */
  database: string | null;
  /** The URL of that database. */
  databaseUrl: string | null;
  sandboxOwner: string;
  directories: string[];
  /** Its API's port, which its worker opened to workspaces in HANGAR-HOSTPORTS. */
  apiPort: number;
}

let devServer: DevServer | null = null;

/** Mocha's global setup: the run's directory and its Temporal dev server, for every worker. */
export async function startTestRun(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hangar-test-run-'));
  const cliPath = resolveTemporalCli();
  if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
  devServer = await startTemporalDevServer({ cliPath, headless: true, logger: createLogger({ level: 'warn' }) });
  // Worker processes are forked after global setup and inherit these.
  process.env[RUN_DIR] = dir;
  process.env[TEMPORAL] = devServer.address;
}

/** Mocha's global teardown: whatever the workers' harnesses left, then the dev server. */
export async function endTestRun(): Promise<void> {
  const dir = process.env[RUN_DIR];
  if (dir) {
    const records = readdirSync(dir).filter((name) => name.startsWith('harness-'));
    for (const name of records) {
      const record = JSON.parse(readFileSync(join(dir, name), 'utf8')) as HarnessRecord;
      await removeHarnessLeftovers(record, await recordedIds(record));
      await closeHostPort(record.apiPort);
    }
  }
  await closeUnheardHostPorts();
  if (devServer && process.env.HANGAR_RECORD_HISTORIES) await recordHistories(devServer.address);
  await devServer?.stop();
  devServer = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env[RUN_DIR];
  delete process.env[TEMPORAL];
}

/** The run's Temporal dev server, when a harness runs inside one (else it starts its own). */
export function sharedTemporalAddress(): string | null {
  return process.env[TEMPORAL] || null;
}

/** Writes down what a harness made; the returned function erases the record once it is cleaned. */
export function recordHarness(record: HarnessRecord): () => void {
  const dir = process.env[RUN_DIR];
  if (!dir) return () => undefined;
  const file = join(dir, `harness-${process.pid}-${randomBytes(4).toString('hex')}.json`);
  writeFileSync(file, JSON.stringify(record));
  return () => rmSync(file, { force: true });
}

/** The ids whose containers, volumes and networks a harness's workspaces and organizations made. */
export interface HarnessIds {
  workspaces: string[];
  organizations: string[];
}

/** What a harness's database says it made: its workspaces (warm-pool ones named after their entry) and organizations. */
export async function harnessIds(db: Knex): Promise<HarnessIds> {
  return {
    workspaces: [...(await db('replicas').pluck('id')), ...(await db('warm_pool_workspaces').pluck('id'))],
    organizations: await db('organizations').pluck('id'),
  };
}

/** The ids a dead worker's harness recorded in its database (none when it is unreadable). */
async function recordedIds(record: HarnessRecord): Promise<HarnessIds> {
  if (!record.databaseUrl) return { workspaces: [], organizations: [] };
  const db = knex({ client: 'pg', connection: record.databaseUrl, pool: { min: 0, max: 1 } });
  try {
    return await harnessIds(db);
  } catch {
    return { workspaces: [], organizations: [] };
  } finally {
    await db.destroy();
  }
}

/**
 * Takes back the hole a harness's worker made for its API port (HANGAR-HOSTPORTS only grows
 * otherwise, one port per harness of every run). Run while the harness still holds the port, or
 * once no harness runs: a harness given the same port later adds its own rule.
 */
export async function closeHostPort(port: number): Promise<void> {
  await execFileAsync('iptables', ['-w', '-D', ...hostPortRule(port)]).catch(() => undefined);
}

/**
 * Takes back every HANGAR-HOSTPORTS hole whose port nothing on the host listens on any more:
 * the API ports of the Hangar processes tests spawn (a worker beside its own API, a restarted
 * one, a compose deployment), which no harness record names. A live Hangar binds its API
 * before its worker opens the port, so a run going on beside this one keeps its holes.
 */
export async function closeUnheardHostPorts(): Promise<number[]> {
  const listed = await execFileAsync('iptables', ['-w', '-S', HOST_PORTS_CHAIN]).catch(() => null);
  if (!listed) return [];
  const unheard = unheardPorts(hostPortsOf(listed.stdout), await listeningPorts());
  for (const port of unheard) await closeHostPort(port);
  return unheard;
}

/** The ports `iptables -S HANGAR-HOSTPORTS` lets in. */
export function hostPortsOf(rules: string): number[] {
  const accept = new RegExp(`^-A ${HOST_PORTS_CHAIN} -p tcp -m tcp --dport (\\d+) -j ACCEPT$`);
  return rules.split('\n').flatMap((line) => {
    const match = accept.exec(line.trim());
    return match ? [Number(match[1])] : [];
  });
}

export function unheardPorts(opened: number[], listening: Set<number>): number[] {
  return [...new Set(opened)].filter((port) => !listening.has(port));
}

/** The TCP ports something on this host listens on, IPv4 or IPv6 (/proc/net/tcp, state 0A). */
async function listeningPorts(): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '');
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state === '0A' && local) ports.add(parseInt(local.split(':')[1], 16));
    }
  }
  return ports;
}

/**
 * Leaves nothing of a harness behind: its workspaces' containers and volumes (named after the
 * workspace), its organizations' networks, its sandbox containers (labelled with its owner),
 * its database and its directories. The hook sandboxes' network is shared by every run.
 */
export async function removeHarnessLeftovers(record: HarnessRecord, ids: HarnessIds, docker: Docker = createDocker()): Promise<void> {
  await Promise.all(
    ids.workspaces.map(async (id) => {
      await docker.getContainer(workspaceName(id)).remove({ force: true, v: true }).catch(() => undefined);
      await docker.getVolume(workspaceName(id)).remove().catch(() => undefined);
    }),
  );
  const sandboxes = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${record.sandboxOwner}`] } }).catch(() => []);
  await Promise.all(sandboxes.map((c) => docker.getContainer(c.Id).remove({ force: true, v: true }).catch(() => undefined)));
  await Promise.all(ids.organizations.map((id) => docker.getNetwork(organizationNetworkName(id)).remove().catch(() => undefined)));
  if (record.database) await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${record.database} WITH (FORCE)`));
  await Promise.all(record.directories.map((dir) => rm(dir, { recursive: true, force: true })));
}

/** One test file's wall time in a worker process (parallel mode), for the reporter. */
export function recordFileTime(file: string, ms: number): void {
  const dir = process.env[RUN_DIR];
  if (dir) appendFileSync(join(dir, 'file-times.jsonl'), JSON.stringify({ file, ms }) + '\n');
}
