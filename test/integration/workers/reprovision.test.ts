/**
 * A lost host's workspace re-provisioned on another host when its volume is on shared storage.
 * Two machines: this one (the harness's in-process worker, host A, on the machine's engine) and
 * an engine host (a network namespace with its own dockerd; its worker runs inside it as a
 * process, host B). Workspace volumes are the local driver binding a directory per workspace
 * under one path both engines see, as NFS clients of one export would. The workspace is placed
 * on B and writes a file; a second turn is running when B's worker is killed (SIGKILL) and a
 * third message waits. Within the host timeout the workspace moves to A: the cut turn ends
 * interrupted, the container is made on A's engine over the same volume (the file is there),
 * and the waiting message runs there. When B's worker comes back it removes its stale container
 * of the workspace, and the data stays; deleting the workspace empties and removes its directory.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { HOST_LABEL } from '../../../activities/hosts';
import { loadConfig } from '../../../src/config';
import { createDocker } from '../../../src/sandbox';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { startEngineHost, type EngineHost } from '../../support/engineHost';
import { startEntryProcess, stopEntryProcess } from '../../support/entryProcess';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };
const HOST_TIMEOUT_S = 10;
const SHARED_ROOT = '/var/lib/hangar-test-shared';
const VOLUME_OPTIONS = JSON.stringify({ type: 'none', o: 'bind', device: `${SHARED_ROOT}/{name}` });

const killed = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });

describe('workers: re-provisioning a lost host\'s workspace on shared storage', function () {
  this.timeout(600_000);

  const suffix = randomBytes(3).toString('hex');
  // Placement takes the least loaded host, then by id: B (the engine host) sorts first.
  const hostB = `reprov-1-${suffix}`;
  const hostA = `reprov-2-${suffix}`;
  const ownerB = `hangar-tests-reprov-${suffix}`;
  let engine: EngineHost | null = null;
  let workerB: ChildProcess | null = null;
  let workerBEnv: Record<string, string> = {};
  let replicaId: string | null = null;

  const db = () => harness().database.db;
  const replica = async (id: string) => (await db()('replicas').where({ id }).first('status', 'host_id', 'config')) as { status: string; host_id: string | null };
  const messages = async (id: string) => (await db()('replica_messages').where({ replica_id: id }).orderBy('created_at').select('id', 'status', 'error')) as Array<{ id: string; status: string; error: string | null }>;

  async function startWorkerB(): Promise<ChildProcess> {
    const started = await startEntryProcess(['--require', 'tsx/cjs', 'src/bin/worker.ts'], { env: workerBEnv, ready: 'worker running', spawner: engine!.spawn });
    return started.child;
  }

  before(async () => {
    const volumes = loadConfig({ HANGAR_WORKSPACE_VOLUME_OPTIONS: VOLUME_OPTIONS, HANGAR_WORKSPACE_VOLUMES_SHARED: 'true' }).workspaceVolumes;
    engine = await startEngineHost(4);
    await engine.loadImage(harness().config.sandboxImage, createDocker(process.env));
    const near = engine.nearAddress;
    const relayed = async (url: string) => {
      const parsed = new URL(url.includes('://') ? url : `tcp://${url}`);
      const port = await engine!.expose({ host: parsed.hostname, port: Number(parsed.port) });
      parsed.hostname = near;
      parsed.port = String(port);
      return parsed;
    };
    const env = harness().env;
    const database = await relayed(env.DATABASE_URL!);
    const temporal = await relayed(env.TEMPORAL_ADDRESS!);
    const redis = env.REDIS_URL ? await relayed(env.REDIS_URL) : null;
    workerBEnv = {
      ...env,
      DATABASE_URL: database.toString(),
      TEMPORAL_ADDRESS: `${temporal.hostname}:${temporal.port}`,
      ...(redis ? { REDIS_URL: redis.toString() } : {}),
      DOCKER_HOST: engine.dockerHost,
      HANGAR_WORKER_HOST_ID: hostB,
      HANGAR_HOST_TIMEOUT_SECONDS: String(HOST_TIMEOUT_S),
      HANGAR_SANDBOX_OWNER: ownerB,
      HANGAR_SANDBOX_POOL_SIZE: '0',
      HANGAR_WORKER_METRICS_PORT: '0',
      HANGAR_WORKSPACE_API_URL: `http://${near}:${env.PORT}`,
      HANGAR_WORKSPACE_VOLUME_OPTIONS: VOLUME_OPTIONS,
      HANGAR_WORKSPACE_VOLUMES_SHARED: 'true',
      LOG_LEVEL: 'info',
    };
    // Host A: the harness's worker under a fresh host id, with the same storage settings.
    await harness().restartWorker({ workerHostId: hostA, hostTimeoutMs: HOST_TIMEOUT_S * 1000, workspaceVolumes: volumes });
    workerB = await startWorkerB();
  });

  after(async () => {
    if (workerB) await stopEntryProcess(workerB);
    await engine?.remove();
    await harness().restartWorker();
    if (replicaId) {
      const docker = createDocker(process.env);
      await docker.getContainer(workspaceName(replicaId)).remove({ force: true }).catch(() => undefined);
      await docker.getVolume(workspaceName(replicaId)).remove().catch(() => undefined);
      await rm(join(SHARED_ROOT, workspaceName(replicaId)), { recursive: true, force: true });
    }
  });

  it('moves the workspace to the live host with its files, ends the cut turn interrupted and runs the waiting message there', async () => {
    const org = await newOrg('reprovision');
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'moves', coding_agent: 'agent_1', message: '!write notes.txt hello' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const id = (replicaId = created.body.replica.id as string);
    const name = workspaceName(id);

    await until('the first turn to complete', async () => (await messages(id)).map((m) => m.status).join() === 'completed' || undefined, 180_000);
    expect((await replica(id)).host_id, 'placed on the engine host').to.equal(hostB);
    const onB = await engine!.docker.getContainer(name).inspect();
    expect(onB.Config.Labels[HOST_LABEL]).to.equal(hostB);
    expect(await createDocker(process.env).getContainer(name).inspect().then(() => true, () => false), 'no container on this machine yet').to.equal(false);
    // The home is the shared directory, filled from the image's home and written by the turn.
    const home = join(SHARED_ROOT, name);
    expect(existsSync(join(home, '.bashrc')), 'the new volume was filled from the image').to.equal(true);

    // A long turn is running on B when its worker dies; another message waits behind it.
    const long = (await as(org.org_api_key).post(`/v1/replica/${id}/messages`, { message: '!sleep 600000' })).body;
    await until('the long turn to start', async () => (await db()('replica_messages').where({ id: long.message_id }).whereNotNull('agent_session').first('id')) || undefined, 60_000);
    await killed(workerB!);
    workerB = null;
    const next = (await as(org.org_api_key).post(`/v1/replica/${id}/messages`, { message: '!write after.txt moved' })).body;
    expect(next.status).to.equal('queued');

    const moved = await until('the workspace to move to host A', async () => {
      const row = await replica(id);
      return row.host_id === hostA && row.status === 'active' && (await createDocker(process.env).getContainer(name).inspect().then(() => true, () => false)) && row;
    }, 180_000);
    expect(moved.status).to.equal('active');
    const onA = await createDocker(process.env).getContainer(name).inspect();
    expect(onA.Config.Labels[HOST_LABEL]).to.equal(hostA);

    const done = await until('the waiting message to finish on host A', async () => {
      const rows = await messages(id);
      return rows.every((m) => !['queued', 'running'].includes(m.status)) && rows;
    }, 120_000);
    expect(done.map((m) => m.status)).to.deep.equal(['completed', 'interrupted', 'completed']);
    expect(done[1]!.error).to.include(`"${hostB}"`).and.include(`moved to host "${hostA}"`);
    // The file written on B is there on A, and the new turn wrote beside it.
    expect(await execInContainer(name, 'find ~ -name notes.txt -exec cat {} +')).to.include('hello');
    expect(await execInContainer(name, 'find ~ -name after.txt -exec cat {} +')).to.include('moved');

    // B's worker comes back: its container of the moved workspace goes, the shared data stays.
    expect(await engine!.docker.getContainer(name).inspect().then(() => true, () => false), 'the stale container is still on B').to.equal(true);
    workerB = await startWorkerB();
    expect(await engine!.docker.getContainer(name).inspect().then(() => true, () => false), 'removed before B takes work').to.equal(false);
    expect(readFileSync(join(home, '.bashrc'), 'utf8').length).to.be.above(0);
    expect(await execInContainer(name, 'find ~ -name notes.txt -exec cat {} +')).to.include('hello');
    expect((await replica(id)).host_id).to.equal(hostA);

    // Deleted, the workspace is forgotten on the shared storage too (a volume removal alone leaves a bind's data).
    expect((await as(org.org_api_key).delete(`/v1/replica/${id}`)).status).to.be.oneOf([200, 202, 204]);
    await until('the shared directory to go', async () => !existsSync(home) || undefined, 60_000);
  });
});
