/**
 * Hangar on the production shape, for the fault suite: an API process and a worker process
 * started from their real entry points (src/bin) with the settings a deployment gives them, a
 * file-backed Temporal dev server, and a scratch database on the machine's PostgreSQL server
 * reached through a TCP relay. Each piece can be killed (SIGKILL, as a crash), stopped
 * (SIGTERM, as an orchestrator) and started again on the same port, file and database, so a
 * case can take one down mid-traffic and count what survives. The test process reads the
 * database directly (not through the relay) to count.
 *
 * The agent is the real agent_1 CLI, behind the AI gateway, against a local model server that
 * speaks its provider's wire format (test/support/modelServer): a prompt `!sleep <ms>` is one
 * shell call of that length, then an answer (`faultModel`).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAdmin, type Admin } from '../../../src/admin';
import { loadConfig } from '../../../src/config';
import { generateEncryptionKey } from '../../../src/crypto/secretBox';
import { openDatabase, type Database } from '../../../src/db/database';
import { silentLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { LABEL_REPLICA } from '../../../src/sandbox/workspace/container';
import { workspaceName } from '../../../src/sandbox/workspace';
import { organizationNetworkName } from '../../../src/sandbox/network/networks';
import { startTemporalDevServer, type DevServer } from '../../../src/temporal/devServer';
import { resolveTemporalCli } from '../../../src/toolchain';
import { SERVER_URL, withServer } from '../../support/harness';
import type { EngineHost } from '../../support/engineHost';
import { TcpRelay } from '../../support/tcpRelay';
import { shellCall, startModelServer, type ModelCall, type ModelReply, type ModelServer } from '../../support/modelServer';

/**
 * The model behind the fault suite's agent_1 CLI: a conversation whose prompt has `!sleep <ms>`
 * makes one shell call that waits that long, then says "done."; any other, "done." at once; a
 * call that offers no shell tool (the CLI's side calls) gets "ok".
 */
export function faultModel(call: ModelCall): ModelReply | string {
  if (!call.shellTool) return 'ok';
  // The CLI sends its own context as user text after the prompt: the prompt is in the transcript.
  const sleep = /!sleep (\d+)/.exec(call.transcript);
  // A wait the CLI runs (it refuses a long `sleep` on its own as a way to wait).
  const seconds = Math.ceil(Number(sleep?.[1]) / 1000);
  // Once per conversation: a turn that continues one cut mid-wait does not wait again.
  if (sleep && !call.turns.some((t) => t.role === 'tool_call')) return { toolCall: shellCall(call, `SECONDS=0; until [ "$SECONDS" -ge ${seconds} ]; do sleep 1; done; echo waited ${seconds} s`) };
  return 'done.';
}

const ROOT = resolve(__dirname, '../../..');

/** A Hangar process started from `src/bin/{entry}.ts`. */
export interface HangarProcess {
  child: ChildProcess;
  /** Its last output (stdout and stderr), for a failure's message. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every process's output goes to a file here, kept after the run for a failure's post-mortem. */
export const LOG_DIR = mkdtempSync(join(tmpdir(), 'hangar-faults-logs-'));

/** Exits nobody asked for: a process that dies of a fault the suite causes is a finding. */
export const crashes: { entry: string; code: number | null; signal: NodeJS.Signals | null; output: string }[] = [];
const expectedExits = new WeakSet<ChildProcess>();

function startProcess(entry: 'api' | 'worker', env: Record<string, string>, ready: string, on?: EngineHost): Promise<HangarProcess> {
  const options: SpawnOptions = { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] };
  const args = ['--import', 'tsx', `src/bin/${entry}.ts`];
  // nsenter execs the command: the child's pid is the process's own, so its signals reach it.
  const child = on ? on.spawn(process.execPath, args, options) : spawn(process.execPath, args, options);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return new Promise((started, failed) => {
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-200_000);
      appendFileSync(join(LOG_DIR, `${entry}.log`), chunk);
      if (output.includes(`"msg":"${ready}"`)) started({ child, output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      if (!expectedExits.has(child)) crashes.push({ entry, code, signal, output: output.slice(-5000) });
    });
    void exited.then(({ code, signal }) => failed(new Error(`the ${entry} process exited (${code ?? signal}) before "${ready}":\n${output.slice(-3000)}`)));
  });
}

/** `n` free ports, all held at once while chosen so that no two are the same. */
async function distinctPorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<Server>((done) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => done(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  return ports;
}

const alive = (p: HangarProcess | null): p is HangarProcess => !!p && p.child.exitCode === null && p.child.signalCode === null;

async function signalled(p: HangarProcess | null, signal: NodeJS.Signals) {
  if (!p) return { code: null, signal: null };
  expectedExits.add(p.child);
  if (alive(p)) p.child.kill(signal);
  return p.exited;
}


export class Cluster {
  api: HangarProcess | null = null;
  worker: HangarProcess | null = null;
  temporal: DevServer | null = null;
  /** Every workspace a case made, so that none outlives the suite. */
  readonly replicaIds = new Set<string>();

  private constructor(
    readonly env: Record<string, string>,
    readonly database: Database,
    readonly admin: Admin,
    readonly relay: TcpRelay,
    /** The agent_1 CLI's provider, behind the gateway; scripted with `faultModel`. */
    readonly models: ModelServer,
    private readonly dbName: string,
    private readonly dataDir: string,
    private readonly temporalFile: string,
    private readonly temporalPort: number,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  static async start(settings: Record<string, string> = {}): Promise<Cluster> {
    const id = randomBytes(4).toString('hex');
    const dbName = `hangar_faults_${Date.now().toString(36)}_${id}`;
    await withServer((c) => c.query(`CREATE DATABASE ${dbName}`));
    const direct = new URL(SERVER_URL);
    direct.pathname = `/${dbName}`;
    const [relayPort, temporalPort, apiPort] = await distinctPorts(3);
    const relay = new TcpRelay({ host: direct.hostname, port: Number(direct.port || 5432) }, { host: '127.0.0.1', port: relayPort! });
    await relay.open();
    const relayed = new URL(direct);
    relayed.host = `127.0.0.1:${relay.port}`;

    const models = await startModelServer();
    models.script(faultModel);
    const dataDir = mkdtempSync(join(tmpdir(), 'hangar-faults-'));
    const env: Record<string, string> = {
      LOG_LEVEL: 'info',
      DATABASE_URL: relayed.toString(),
      TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
      HANGAR_ENCRYPTION_KEYS: generateEncryptionKey('faults'),
      // One port for every API process of the run: clients retry the same address after a restart,
      // and workspaces reach the AI gateway there (the worker reads PORT for that).
      PORT: String(apiPort),
      HOST: '0.0.0.0',
      HANGAR_TASK_QUEUE: `hangar-faults-${id}`,
      // A worker that replaces a killed one is the same deployment: it clears that one's leftovers.
      HANGAR_SANDBOX_OWNER: `hangar-faults-${id}`,
      HANGAR_SANDBOX_POOL_SIZE: '0',
      HANGAR_WORKER_METRICS_PORT: '0',
      // The API's AI gateway sends agent_1's calls to the model server.
      HANGAR_AGENT_1_BASE_URL: `${models.url}/agent_1`,
      HANGAR_WORKSPACE_MEMORY_CAP_MB: '512',
      HANGAR_AUTOMATION_SWEEP_SECONDS: '2',
      HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS: '15',
      HANGAR_DATA_DIR: dataDir,
      ...(process.env.HANGAR_SANDBOX_IMAGE ? { HANGAR_SANDBOX_IMAGE: process.env.HANGAR_SANDBOX_IMAGE } : {}),
      ...settings,
    };
    // The suite's own connection goes straight to the server: it counts while the relay is cut.
    const database = await openDatabase(loadConfig({ ...env, DATABASE_URL: direct.toString() }), silentLogger);
    const cluster = new Cluster(env, database, createAdmin(database.repos), relay, models, dbName, dataDir, join(dataDir, 'temporal.db'), temporalPort!);
    try {
      await cluster.startTemporal();
      // Started together on an empty database, as a deployment's first start does.
      const [api, worker] = await Promise.allSettled([startProcess('api', env, 'api listening'), startProcess('worker', env, 'worker running')]);
      if (api.status === 'fulfilled') cluster.api = api.value;
      if (worker.status === 'fulfilled') cluster.worker = worker.value;
      for (const started of [api, worker]) if (started.status === 'rejected') throw started.reason;
      return cluster;
    } catch (err) {
      // Nothing of a cluster that did not start is left running.
      await cluster.close();
      throw err;
    }
  }

  async startTemporal(): Promise<void> {
    const cliPath = resolveTemporalCli();
    if (!cliPath) throw new Error('no Temporal CLI found: run `npm run setup` first');
    this.temporal = await startTemporalDevServer({ cliPath, dbFile: this.temporalFile, port: this.temporalPort, headless: true, logger: silentLogger });
  }

  async killTemporal(): Promise<void> {
    await this.temporal?.kill();
    this.temporal = null;
  }

  async startApi(): Promise<void> {
    if (alive(this.api)) throw new Error('the API process is running');
    this.api = await startProcess('api', this.env, 'api listening');
  }

  async startWorker(): Promise<void> {
    if (alive(this.worker)) throw new Error('the worker process is running');
    this.worker = this.workerHost
      ? await startProcess('worker', { ...this.env, ...this.workerHost.env }, 'worker running', this.workerHost.host)
      : await startProcess('worker', this.env, 'worker running');
  }

  /** Where the worker runs: an engine host (test/support/engineHost.ts), or null for this machine. */
  private workerHost: { host: EngineHost; env: Record<string, string> } | null = null;

  /**
   * Stops the worker and starts it again on `host`, another machine with its own Docker engine,
   * as a deployment's second worker host is: it reaches PostgreSQL (through the cut-able relay)
   * and Temporal at the host's near address, its workspaces reach the API there, and it installs
   * its own egress rules in its own namespace, with subnets of its own. Null brings it back here.
   */
  async moveWorker(host: EngineHost | null): Promise<void> {
    await this.stopWorker();
    this.workerHost = host ? { host, env: await this.settingsOn(host) } : null;
    await this.startWorker();
  }

  /** Workers on other hosts beside the cluster's own (`addWorker`), stopped by `close`. */
  private readonly extraWorkers: HangarProcess[] = [];

  /**
   * Starts one more worker on this machine: the same host as the cluster's own worker (its
   * workspaces, its host queue), as a deployment runs several workers on one engine. Its
   * sandboxes have an owner of their own (`peer`), so neither removes the other's. Stopped by
   * `close` unless stopped before.
   */
  async startPeerWorker(peer: string): Promise<HangarProcess> {
    const worker = await startProcess('worker', { ...this.env, HANGAR_SANDBOX_OWNER: `${this.env.HANGAR_SANDBOX_OWNER}-${peer}` }, 'worker running');
    this.extraWorkers.push(worker);
    return worker;
  }

  /** SIGTERM, as an orchestrator stops a process; the worker drains within its grace period. */
  stopProcess = (p: HangarProcess) => signalled(p, 'SIGTERM');

  /** Starts one more worker, on `host`: a second worker host of the deployment. */
  async addWorker(host: EngineHost): Promise<HangarProcess> {
    const worker = await startProcess('worker', { ...this.env, ...(await this.settingsOn(host)) }, 'worker running', host);
    this.extraWorkers.push(worker);
    return worker;
  }

  /**
   * A worker's settings on another machine: PostgreSQL (through the cut-able relay) and Temporal
   * at the host's near address, its workspaces reaching the API's port only there (the relays
   * listen on that address too), its own subnets and host id.
   */
  private async settingsOn(host: EngineHost): Promise<Record<string, string>> {
    const [databasePort, temporalPort] = await Promise.all([
      host.expose({ host: '127.0.0.1', port: this.relay.port }),
      host.expose({ host: '127.0.0.1', port: this.temporalPort }),
    ]);
    const database = new URL(this.env.DATABASE_URL!);
    database.host = `${host.nearAddress}:${databasePort}`;
    return {
      DATABASE_URL: database.toString(),
      TEMPORAL_ADDRESS: `${host.nearAddress}:${temporalPort}`,
      DOCKER_HOST: host.dockerHost,
      HANGAR_WORKER_HOST_ID: host.name,
      HANGAR_WORKSPACE_API_URL: `http://${host.nearAddress}:${this.env.PORT}`,
      HANGAR_WORKSPACE_EGRESS_ALLOW: `${host.nearAddress}:${this.env.PORT}`,
      HANGAR_WORKSPACE_SUBNETS: `10.219.${4 * Number(host.name.slice(1))}.0/22`,
    };
  }

  /** The Docker engine the worker's workspaces are on. */
  get workerDocker(): Docker {
    return this.workerHost?.host.docker ?? createDocker();
  }

  killApi = () => signalled(this.api, 'SIGKILL');
  killWorker = () => signalled(this.worker, 'SIGKILL');
  /** SIGTERM, as an orchestrator stops a process: the worker drains within its grace period. */
  stopWorker = () => signalled(this.worker, 'SIGTERM');

  cutDatabase = () => this.relay.cut();
  restoreDatabase = () => this.relay.open();

  /** Workspace containers of these workspaces still on the engine (any state). */
  async containersOf(replicaIds: Iterable<string>): Promise<string[]> {
    const wanted = new Set(replicaIds);
    const containers = await this.workerDocker.listContainers({ all: true, filters: { label: [LABEL_REPLICA] } });
    return containers.filter((c) => wanted.has(c.Labels[LABEL_REPLICA]!)).map((c) => c.Labels[LABEL_REPLICA]!);
  }

  async close(): Promise<void> {
    await Promise.all([signalled(this.api, 'SIGTERM'), signalled(this.worker, 'SIGTERM'), ...this.extraWorkers.map((w) => signalled(w, 'SIGTERM'))]);
    await this.temporal?.stop();
    await this.relay.cut();
    const docker = createDocker();
    const replicaIds = new Set([...this.replicaIds, ...((await this.database.db('replicas').pluck('id')) as string[])]);
    await Promise.all(
      [...replicaIds].map(async (id) => {
        await docker.getContainer(workspaceName(id)).remove({ force: true, v: true }).catch(() => undefined);
        await docker.getVolume(workspaceName(id)).remove().catch(() => undefined);
      }),
    );
    const owned = await docker.listContainers({ all: true, filters: { label: [`dev.hangar.owner=${this.env.HANGAR_SANDBOX_OWNER}`] } });
    await Promise.all(owned.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
    const organizationIds: string[] = await this.database.db('organizations').pluck('id');
    await Promise.all(organizationIds.map((id) => docker.getNetwork(organizationNetworkName(id)).remove().catch(() => undefined)));
    await this.database.close();
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${this.dbName} WITH (FORCE)`));
    await rm(this.dataDir, { recursive: true, force: true });
    await this.models.close();
  }
}

let current: Cluster | null = null;

export function cluster(): Cluster {
  if (!current) throw new Error('the fault cluster is not running (test/faults/support/hooks.ts starts it)');
  return current;
}

export async function startCluster(settings: Record<string, string> = {}): Promise<void> {
  current = await Cluster.start(settings);
}

export async function stopCluster(): Promise<void> {
  await current?.close();
  current = null;
}

