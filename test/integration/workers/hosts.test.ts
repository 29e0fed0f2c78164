/**
 * Workspaces pinned to worker hosts. Two workers run in this process with different host ids;
 * both use the machine's one Docker engine, so what this proves is the routing: placement
 * spreads new workspaces over the live hosts, and every container activity (provisioning, agent
 * turns), canvas read and terminal of a workspace is served by the worker of its recorded host
 * (the container carries its creator's host label, the terminal session its opener's owner id).
 * Stopping one host's worker puts its workspaces in `error` when their next container work is
 * not picked up within the host timeout, and new workspaces go to the other host.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { HOST_LABEL } from '../../../activities/hosts';
import { createLogger } from '../../../src/logger';
import { startWorker, type WorkerProcess } from '../../../src/processes';
import { createDocker } from '../../../src/sandbox';
import { LABEL_OWNER } from '../../../src/sandbox/docker';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };
const HOST_TIMEOUT_MS = 10_000;

describe('workers: workspaces pinned to worker hosts', function () {
  this.timeout(300_000);

  const suffix = randomBytes(3).toString('hex');
  const hostA = `hosts-a-${suffix}`;
  const hostB = `hosts-b-${suffix}`;
  // Worker B's sandbox owner: a runtime removes other instances' containers of its owner.
  const ownerB = `hangar-tests-hostb-${suffix}`;
  let workerB: WorkerProcess | null = null;
  let org: Awaited<ReturnType<typeof newOrg>>;
  const onHost: Record<string, string> = {};

  const hostOf = async (replicaId: string): Promise<string | null> => (await harness().database.db('replicas').where({ id: replicaId }).first('host_id'))?.host_id ?? null;
  const statusOf = async (replicaId: string) => (await harness().database.db('replicas').where({ id: replicaId }).first('status', 'config')) as { status: string; config: { provisioning_error?: { message: string } } };

  async function createWorkspace(name: string, message: string): Promise<string> {
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name, coding_agent: 'agent_1', message } });
    expect(created.status).to.equal(201);
    return created.body.replica.id as string;
  }

  const turnsDone = (replicaId: string) =>
    until(`the first turn of ${replicaId} to finish`, async () => {
      const rows = await harness().database.db('replica_messages').where({ replica_id: replicaId }).pluck('status');
      return rows.length > 0 && rows.every((s: string) => ['completed', 'failed', 'interrupted'].includes(s)) && rows;
    }, 120_000);

  before(async () => {
    // Host A is the harness's own worker under a fresh host id (no workspace of earlier tests
    // counts toward its load); host B a second worker in this process.
    await harness().restartWorker({ workerHostId: hostA, hostTimeoutMs: HOST_TIMEOUT_MS });
    const logger = createLogger({ level: 'debug', write: (line) => harness().logs.push(line) }).child({ worker: hostB });
    workerB = await startWorker({
      config: { ...harness().config, workerHostId: hostB, hostTimeoutMs: HOST_TIMEOUT_MS, sandboxOwner: ownerB, sandboxPoolSize: 0 },
      logger,
      database: harness().database,
      temporalAddress: harness().temporal.address,
    });
    org = await newOrg('worker-hosts');
  });

  after(async () => {
    await workerB?.shutdown();
    await harness().restartWorker();
    const docker = createDocker(process.env);
    const leftovers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${ownerB}`] } });
    await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  });

  it('spreads new workspaces over the live hosts and serves each one from the worker of its host', async () => {
    const hosts = await harness().database.db('worker_hosts').whereIn('id', [hostA, hostB]).whereNull('stopped_at').pluck('task_queue');
    expect(hosts.sort()).to.deep.equal([`${harness().config.taskQueue}@${hostA}`, `${harness().config.taskQueue}@${hostB}`]);

    // One after the other, so each placement sees the load of the one before.
    const first = await createWorkspace('pinned-1', '!write where.txt first');
    await until('the first workspace to be placed', () => hostOf(first), 60_000);
    const second = await createWorkspace('pinned-2', '!write where.txt second');
    for (const id of [first, second]) {
      await until(`${id} to be active`, async () => (await statusOf(id)).status === 'active', 120_000);
      onHost[(await hostOf(id))!] = id;
    }
    expect(Object.keys(onHost).sort(), 'one workspace on each host').to.deep.equal([hostA, hostB].sort());

    const docker = createDocker(process.env);
    for (const [host, id] of Object.entries(onHost)) {
      // The container was made by the worker of its recorded host…
      const info = await docker.getContainer(workspaceName(id)).inspect();
      expect(info.Config.Labels[HOST_LABEL], `the container of ${id}`).to.equal(host);
      // …the agent's turn ran in it…
      expect(await turnsDone(id)).to.deep.equal(['completed']);
      expect(await execInContainer(workspaceName(id), 'find ~ -name where.txt -exec cat {} +')).to.match(/first|second/);
      // …its canvas is read through its host's queue…
      const canvas = await as(org.org_api_key).get(`/v1/replica/${id}/canvas`);
      expect(canvas.status, JSON.stringify(canvas.body)).to.equal(200);
      // …and its terminal is opened by its host's worker (both could reach the container here).
      const opened = await request('POST', `/v1/workspaces/${id}/terminal/sessions`, { key: org.org_api_key, body: { cols: 80, rows: 24 } });
      expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
      const session = await harness().database.db('terminal_sessions').where({ id: opened.body.session.id }).first('owner');
      const expectedOwner = host === hostB ? ownerB : harness().config.sandboxOwner;
      expect(session.owner.startsWith(`${expectedOwner}-`), `terminal owner ${session.owner} of ${id} on ${host}`).to.equal(true);
      await request('DELETE', `/v1/workspaces/${id}/terminal/sessions/${opened.body.session.id}`, { key: org.org_api_key });
    }
  });

  it('puts a stopped host\'s workspace in error within the host timeout and places new workspaces on the other host', async () => {
    const onB = onHost[hostB]!;
    const onA = onHost[hostA]!;
    expect(onB, 'the previous test placed a workspace on each host').to.be.a('string');
    await workerB!.shutdown();
    workerB = null;
    // A clean stop takes the host out of placement at once.
    expect((await harness().database.db('worker_hosts').where({ id: hostB }).first('stopped_at')).stopped_at).to.not.equal(null);

    const sentAt = Date.now();
    const sent = await as(org.org_api_key).post(`/v1/replica/${onB}/messages`, { message: '!write after.txt lost' });
    expect(sent.status, JSON.stringify(sent.body)).to.be.oneOf([200, 201, 202]);
    const failed = await until('the workspace on the stopped host to go to error', async () => {
      const row = await statusOf(onB);
      return row.status === 'error' && row;
    }, HOST_TIMEOUT_MS + 60_000);
    const elapsed = Date.now() - sentAt;
    expect(failed.config.provisioning_error?.message).to.include(`"${hostB}"`).and.include('did not pick up its work');
    expect(elapsed, 'error within the host timeout plus a workflow task or two').to.be.below(HOST_TIMEOUT_MS + 30_000);
    expect(elapsed).to.be.at.least(HOST_TIMEOUT_MS - 1000);
    // The API tells a later message why.
    const refused = await as(org.org_api_key).post(`/v1/replica/${onB}/messages`, { message: 'again' });
    expect(refused.status).to.equal(409);
    expect(JSON.stringify(refused.body)).to.include(hostB);

    // New workspaces go to the live host, and the workspace already there keeps working.
    const third = await createWorkspace('pinned-3', '!write where.txt third');
    await until('the new workspace to be active', async () => (await statusOf(third)).status === 'active', 120_000);
    expect(await hostOf(third)).to.equal(hostA);
    expect(await turnsDone(third)).to.deep.equal(['completed']);
    const more = await as(org.org_api_key).post(`/v1/replica/${onA}/messages`, { message: '!write still.txt alive' });
    expect(more.status, JSON.stringify(more.body)).to.be.oneOf([200, 201, 202]);
    await until('the workspace on the live host to take another turn', async () => (await execInContainer(workspaceName(onA), 'find ~ -name still.txt -exec cat {} + 2>/dev/null || true')).includes('alive'), 60_000);
  });
});
