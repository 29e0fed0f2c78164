/**
 * One running Hangar for the whole integration suite: its own PostgreSQL database (dropped
 * afterwards), a Temporal dev server in memory, a real worker with real Docker sandboxes, and
 * the API on an ephemeral port. Tests talk to it over HTTP; each makes its own organization.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createAdmin, type Admin, type CreatedOrganization } from '../../src/admin';
import { loadConfig, type Config } from '../../src/config';
import { generateEncryptionKey } from '../../src/crypto/secretBox';
import { createLogger, type Logger } from '../../src/logger';
import { buildApi, migrate, openDatabase, startWorker, type ApiProcess, type Database, type WorkerProcess } from '../../src/processes';
import { startTemporalDevServer, type DevServer } from '../../src/temporal/devServer';
import { resolveTemporalCli } from '../../src/toolchain';
import { startFakeGithub, type FakeGithub } from './fakeGithub';
import { startFakeSlack, type FakeSlack } from './fakeSlack';
import { startFakeGitlab, type FakeGitlab } from './fakeGitlab';
import { startFakeLinear, type FakeLinear } from './fakeLinear';
import { recordHistories } from './histories';
import { closeHostPort, harnessIds, recordHarness, removeHarnessLeftovers, SERVER_URL, sharedTemporalAddress, withServer, type HarnessRecord } from './testRun';

export interface Harness {
  baseUrl: string;
  config: Config;
  database: Database;
  admin: Admin;
  api: ApiProcess;
  /** Replaced by restartWorker. */
  worker: WorkerProcess;
  temporal: DevServer;
  /** The settings the harness's processes read, for a worker started in another process. */
  env: Record<string, string>;
  /**
   * Stops the worker (its activities are cancelled) and starts a new one, as after a crash;
   * with `overrides`, the new worker reads those settings instead (e.g. the real agent CLIs
   * instead of the test agent), until the next restart.
   */
  restartWorker(overrides?: Partial<Config>): Promise<void>;
  /** Stops the in-process worker, so that another (a child process) takes the work. */
  stopWorker(): Promise<void>;
  /** Starts the in-process worker again after `stopWorker`. */
  startWorker(): Promise<void>;
  logs: string[];
  close(): Promise<void>;
}

export { SERVER_URL, withServer } from './testRun';

/**
 * `HANGAR_TEST_DATABASE=embedded` runs the same suite on the embedded database (PGlite, in
 * memory) that `npm start` uses without DATABASE_URL; the default is the PostgreSQL server.
 */
const EMBEDDED = process.env.HANGAR_TEST_DATABASE === 'embedded';

/** The mocha run's Temporal dev server (never stopped by a harness), or one of the harness's own. */
async function runOrOwnDevServer(logger: Logger): Promise<DevServer> {
  const shared = sharedTemporalAddress();
  if (shared) {
    const notOwned = async () => undefined;
    return { address: shared, uiUrl: null, stop: notOwned, kill: notOwned };
  }
  const cliPath = resolveTemporalCli();
  if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
  return startTemporalDevServer({ cliPath, headless: true, logger });
}

export async function startHarness(env: NodeJS.ProcessEnv = {}): Promise<Harness> {
  const dbName = `hangar_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  if (!EMBEDDED) await withServer((c) => c.query(`CREATE DATABASE ${dbName}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;

  const logs: string[] = [];
  // HANGAR_TEST_LOGS=<dir> keeps each harness's log in a file of its own there, to read after a
  // failed run (the lines are otherwise only in memory, for the tests that look at them).
  const logFile = process.env.HANGAR_TEST_LOGS ? createWriteStream(join(process.env.HANGAR_TEST_LOGS, `${dbName}.log`)) : null;
  const logger: Logger = createLogger({
    level: 'debug',
    write: (line) => {
      logs.push(line);
      logFile?.write(line + '\n');
    },
  });
  // Inside a mocha run every harness shares the run's dev server (its own task queue keeps its
  // work apart); alone (a bench, the fuzz run) a harness starts its own.
  const temporal = await runOrOwnDevServer(logger);

  // The API listens on every interface at a port known before the config is read, so workspace
  // containers reach it (its AI gateway) at the Docker host, as they do in production. The socket
  // is bound here and held until the API attaches to it: a port found free and given up again can
  // be taken meanwhile (another test process's outgoing connection gets it as its local port).
  const server: Server = createHttpServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const apiPort = (server.address() as AddressInfo).port;
  // Until the API is attached, the held socket keeps no process alive (a start that fails exits).
  server.unref();
  const settings: Record<string, string> = {
    PORT: String(apiPort),
    HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('test'),
    HANGAR_TASK_QUEUE: `hangar-test-${randomBytes(3).toString('hex')}`,
    HANGAR_SANDBOX_POOL_SIZE: '2',
    // Unique per harness: a sandbox runtime removes other instances' containers of its owner
    // as leftovers of a crashed process, so two runs (or two harnesses) must not share one.
    HANGAR_SANDBOX_OWNER: `hangar-tests-${randomBytes(4).toString('hex')}`,
    // Short enough that the deadline test does not wait 90 s (the default stays 90 s), long
    // enough for a memory hog beside a fork bomb, or a warm hook of 4 s, on a machine busy with
    // other work (at 6 s both ran into the deadline on a loaded 2-core machine).
    HANGAR_HOOK_TIMEOUT_MS: '20000',
    // Small enough that a memory hog reaches the limit and is killed well within that deadline.
    HANGAR_SANDBOX_MEMORY_MB: '256',
    // Workspaces: the image's deterministic agent stands in for every coding agent, and a
    // workspace's memory is capped to fit this machine.
    HANGAR_AGENT_EXECUTABLE: 'hangar-test-agent',
    HANGAR_WORKSPACE_MEMORY_CAP_MB: '1024',
    HANGAR_LEGACY_CREATE_TIMEOUT_SECONDS: '120',
    // Short enough that the auto-sleep test waits seconds, long enough for the other tests.
    HANGAR_WORKSPACE_IDLE_SECONDS: '20',
    // The smallest history limit, so workspace workflows continue as new during the suite.
    HANGAR_WORKSPACE_HISTORY_LIMIT: '50',
    // A stopping worker lets a short agent turn finish, and the suite's teardown stays quick.
    HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS: '10',
    // Inbox rows left without a workflow are picked up within seconds.
    HANGAR_AUTOMATION_SWEEP_SECONDS: '2',
    // The tests' own receivers (webhooks, MCP servers) listen on loopback, which is otherwise refused.
    HANGAR_OUTBOUND_ALLOW: '127.0.0.0/8,::1',
    // An image built under another name (`HANGAR_SANDBOX_IMAGE`, as setup.sh reads it).
    ...(process.env.HANGAR_SANDBOX_IMAGE ? { HANGAR_SANDBOX_IMAGE: process.env.HANGAR_SANDBOX_IMAGE } : {}),
    // Media and canvas copies of this run, shared by its API and worker, removed at close.
    HANGAR_DATA_DIR: mkdtempSync(join(tmpdir(), 'hangar-test-data-')),
    ...(env as Record<string, string>),
    DATABASE_URL: EMBEDDED ? '' : url.toString(),
    TEMPORAL_ADDRESS: temporal.address,
  };
  const config = loadConfig(settings);
  const record: HarnessRecord = {
    database: EMBEDDED ? null : dbName,
    databaseUrl: EMBEDDED ? null : url.toString(),
    sandboxOwner: settings.HANGAR_SANDBOX_OWNER!,
    // The shared harness's releases directory too: in a mocha worker nothing else removes it.
    directories: [settings.HANGAR_DATA_DIR!, ...(settings.HANGAR_RELEASES_DIR ? [settings.HANGAR_RELEASES_DIR] : [])],
    apiPort,
  };
  const erase = recordHarness(record);
  const database = await openDatabase(config, logger);
  await migrate(database, config);
  let worker: WorkerProcess | null = await startWorker({ config, logger, database, temporalAddress: temporal.address });
  const stopOwnWorker = async () => {
    await worker?.shutdown();
    worker = null;
  };
  let workerConfig = config;
  const startOwnWorker = async () => {
    worker ??= await startWorker({ config: workerConfig, logger, database, temporalAddress: temporal.address });
  };
  const api = await buildApi({ config, logger, database, temporalAddress: temporal.address });
  api.attach(server).ref();

  return {
    baseUrl: `http://127.0.0.1:${apiPort}`,
    config,
    database,
    admin: createAdmin(database.repos),
    api,
    get worker() {
      if (!worker) throw new Error('the in-process worker is stopped');
      return worker;
    },
    env: settings,
    temporal,
    logs,
    restartWorker: async (overrides?: Partial<Config>) => {
      await stopOwnWorker();
      workerConfig = { ...config, ...overrides };
      await startOwnWorker();
    },
    stopWorker: stopOwnWorker,
    startWorker: startOwnWorker,
    async close() {
      // While the port is still this harness's: a harness given it next adds its own rule.
      await closeHostPort(apiPort);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      await worker?.shutdown();
      // Workspaces deleted near the end may not have been removed yet: leave no container,
      // volume or network of this run behind (warm-pool workspaces are named after their entry).
      const ids = await harnessIds(database.db);
      await database.close();
      await removeHarnessLeftovers(record, ids);
      erase();
      if (!sharedTemporalAddress() && process.env.HANGAR_RECORD_HISTORIES) await recordHistories(temporal.address);
      await temporal.stop();
      logFile?.end();
    },
  };
}

let current: Harness | null = null;

export function sharedHarnessRunning(): boolean {
  return current !== null;
}

export function harness(): Harness {
  if (!current) throw new Error('the integration harness is not running (test/support/hooks.ts starts it)');
  return current;
}

/** The code-hosting secrets of the shared harness; the checks API is a local fake GitHub. */
export const GITHUB_WEBHOOK_SECRET = 'test-github-webhook-secret';
export const GITLAB_WEBHOOK_TOKEN = 'test-gitlab-webhook-token';
/** The shared harness's HANGAR_METRICS_TOKEN: `/metrics` answers `Authorization: Bearer` with it. */
export const METRICS_TOKEN = 'test-metrics-token-0123456789';
let github: FakeGithub | null = null;
/** The shared harness's `HANGAR_RELEASES_DIR`: tests publish releases by writing into it. */
let releases: string | null = null;

export function releasesDir(): string {
  if (!releases) throw new Error('the shared harness is not running');
  return releases;
}

/**
 * The AI gateway's upstreams in the shared harness: `HANGAR_AGENT_N_BASE_URL` is
 * `http://127.0.0.1:<port>/agent_N` on one port reserved at start, where a test serves its
 * own stand-in provider (test/integration/gateway).
 */
let aiUpstreamPort: number | null = null;

export function aiUpstream(): { port: number; baseUrl(agent: string): string } {
  const port = aiUpstreamPort;
  if (port === null) throw new Error('the shared harness is not running');
  return { port, baseUrl: (agent) => `http://127.0.0.1:${port}/${agent}` };
}

/** A loopback port the system just gave out and took back: free to listen on (or, unused, closed). */
export async function reservePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let gitlab: FakeGitlab | null = null;

export function fakeGitlab(): FakeGitlab {
  if (!gitlab) throw new Error('the fake GitLab is not running (test/support/hooks.ts starts it)');
  return gitlab;
}

export function fakeGithub(): FakeGithub {
  if (!github) throw new Error('the fake GitHub is not running (test/support/hooks.ts starts it)');
  return github;
}

/** The shared harness's Slack (Web API and signed deliveries), `HANGAR_SLACK_API_URL`. */
let slack: FakeSlack | null = null;

export function fakeSlack(): FakeSlack {
  if (!slack) throw new Error('the fake Slack is not running (test/support/hooks.ts starts it)');
  return slack;
}

/** The local Linear (GraphQL API and webhook sender) of the shared harness. */
let linear: FakeLinear | null = null;

export function fakeLinear(): FakeLinear {
  if (!linear) throw new Error('the fake Linear is not running (test/support/hooks.ts starts it)');
  return linear;
}

/** `env` goes over the shared harness's settings (the fuzz run passes its own). */
export async function startSharedHarness(env: Record<string, string> = {}): Promise<void> {
  github = await startFakeGithub();
  slack = await startFakeSlack();
  gitlab = await startFakeGitlab();
  linear = await startFakeLinear();
  const upstreamPort = (aiUpstreamPort = await reservePort());
  releases = await mkdtemp(join(tmpdir(), 'hangar-releases-'));
  current = await startHarness({
    HANGAR_RELEASES_DIR: releases,
    ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`HANGAR_AGENT_${n}_BASE_URL`, `http://127.0.0.1:${upstreamPort}/agent_${n}`])),
    HANGAR_GITHUB_WEBHOOK_SECRET: GITHUB_WEBHOOK_SECRET,
    HANGAR_GITLAB_WEBHOOK_TOKEN: GITLAB_WEBHOOK_TOKEN,
    HANGAR_GITHUB_API_URL: github.url,
    HANGAR_GITHUB_APP_ID: github.appId,
    HANGAR_GITHUB_APP_PRIVATE_KEY: github.privateKeyPem,
    HANGAR_SLACK_API_URL: slack.url,
    HANGAR_GITLAB_API_URL: gitlab.apiUrl,
    HANGAR_GITLAB_TOKEN: gitlab.token,
    // Presence on the machine's real Redis, under a prefix of this run's own (its keys expire
    // by themselves within two TTLs); a short TTL so the expiry tests wait seconds.
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    HANGAR_REDIS_PREFIX: `hangar-test-${randomBytes(4).toString('hex')}:`,
    HANGAR_PRESENCE_TTL_SECONDS: '3',
    HANGAR_LINEAR_API_URL: linear.graphqlUrl,
    // The API serves /metrics (behind this token) as an operator would turn it on.
    HANGAR_METRICS_TOKEN: METRICS_TOKEN,
    ...env,
  });
  linear.webhookUrl = `${current.baseUrl}/v1/webhooks/linear`;
}

export async function stopSharedHarness(): Promise<void> {
  await current?.close();
  current = null;
  await github?.close();
  github = null;
  await slack?.close();
  slack = null;
  await gitlab?.close();
  gitlab = null;
  await linear?.close();
  linear = null;
  if (releases) await rm(releases, { recursive: true, force: true });
  releases = null;
}

export type { CreatedOrganization };
