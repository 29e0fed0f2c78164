/**
 * Warm pools across worker hosts, on a Hangar of its own whose pools keep two workspaces and
 * whose hosts count as gone after 8 s. Two workers with different host ids share the machine's
 * one engine, but a worker removes only its own host's containers: another host's entries are
 * removed on that host's queue, so a drain that left them would leave their containers here.
 * A stopped host's entries stop counting toward the pool (it builds on the live host), expire
 * once the host is gone, and their containers go when the host's worker starts again.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { startWorker, type WorkerProcess } from '../../../src/processes';
import { createDocker } from '../../../src/sandbox';
import { workspaceName } from '../../../src/sandbox/workspace';
import { startHarness, type Harness } from '../../support/harness';
import { until } from '../../support/wait';

const HOST_TIMEOUT_MS = 8_000;

describe('warm pools across worker hosts', function () {
  this.timeout(300_000);
  const suffix = randomBytes(3).toString('hex');
  // Placement breaks ties by id: A's first.
  const hostA = `pool-a-${suffix}`;
  const hostB = `pool-b-${suffix}`;
  let h: Harness;
  let workerB: WorkerProcess | null = null;

  const startB = async () => {
    const logger = createLogger({ level: 'debug', write: (line) => h.logs.push(line) }).child({ worker: hostB });
    workerB = await startWorker({
      config: { ...h.config, workerHostId: hostB, hostTimeoutMs: HOST_TIMEOUT_MS, sandboxOwner: `hangar-tests-poolb-${suffix}`, sandboxPoolSize: 0 },
      logger,
      database: h.database,
      temporalAddress: h.temporal.address,
    });
  };

  before(async function () {
    this.timeout(120_000);
    h = await startHarness({ HANGAR_WARM_POOL_SIZE: '2' });
    await h.restartWorker({ workerHostId: hostA, hostTimeoutMs: HOST_TIMEOUT_MS });
    await startB();
  });
  after(async function () {
    this.timeout(120_000);
    await workerB?.shutdown();
    await h?.close();
  });

  const exists = async (entryId: string) => (await createDocker().listContainers({ all: true, filters: { name: [`^/${workspaceName(entryId)}$`] } })).length > 0;

  it('drains entries on every host, builds on live hosts only, and clears a returning host of expired entries', async () => {
    const org = await h.admin.createOrganization({ name: 'pools-on-hosts', adminEmail: 'pools-hosts@example.com' });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(h.baseUrl + path, {
        method,
        headers: { authorization: `Bearer ${org.org_api_key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    const env = (await api('POST', '/v1/environments', { name: 'pooled-on-hosts' })).body.environment;
    const base = `/v1/environments/${env.id}`;
    const db = h.database.db;
    const entries = (statuses: string[]) => db('warm_pool_workspaces').where({ environment_id: env.id }).whereIn('status', statuses).orderBy('created_at').select('id', 'host_id', 'status', 'error_message');
    const readyOn = async () => (await entries(['ready'])).map((e) => e.host_id).sort();

    // Two entries, one on each host (the second goes to the less loaded one).
    expect((await api('PUT', `${base}/warm-pools`, { enabled: true })).status).to.equal(200);
    await until('one ready entry on each host', async () => JSON.stringify(await readyOn()) === JSON.stringify([hostA, hostB].sort()), 180_000, 250);
    const first = await entries(['ready']);
    for (const e of first) expect(await exists(e.id), `the container of ${e.id} on ${e.host_id}`).to.equal(true);

    // Disabling drains both: whichever worker runs the drain, the other host removes its own.
    expect((await api('PUT', `${base}/warm-pools`, { enabled: false })).status).to.equal(200);
    await until('both entries expired and their containers removed', async () => {
      const rows = await db('warm_pool_workspaces').whereIn('id', first.map((e) => e.id)).pluck('status');
      return rows.every((s: string) => s === 'expired') && (await Promise.all(first.map((e) => exists(e.id)))).every((x) => !x);
    }, 60_000, 250);

    // Again one on each host; then host B stops.
    expect((await api('PUT', `${base}/warm-pools`, { enabled: true })).status).to.equal(200);
    await until('one ready entry on each host again', async () => JSON.stringify(await readyOn()) === JSON.stringify([hostA, hostB].sort()), 180_000, 250);
    const onB = (await entries(['ready'])).find((e) => e.host_id === hostB)!;
    await workerB!.shutdown();
    workerB = null;

    // A look at the pool (any change signals it) counts only what a claim can reach: it builds on A.
    expect((await api('PUT', `${base}/warm-pools`, { enabled: true })).status).to.equal(200);
    await until('two ready entries on the live host', async () => (await readyOn()).filter((host) => host === hostA).length === 2, 120_000, 250);

    // Once B has not been seen for the host timeout, its entry expires; its container waits for B.
    await until('host B to be silent for the host timeout', async () => {
      const row = await db('worker_hosts').where({ id: hostB }).first('last_seen');
      return Date.now() - new Date(row.last_seen).getTime() > HOST_TIMEOUT_MS + 1000;
    }, HOST_TIMEOUT_MS * 3, 250);
    expect((await api('PUT', `${base}/warm-pools`, { enabled: true })).status).to.equal(200);
    const expired = await until('the entry on the gone host to expire', async () => {
      const row = await db('warm_pool_workspaces').where({ id: onB.id }).first('status', 'error_message');
      return row.status === 'expired' && row;
    }, 60_000, 250);
    expect(expired.error_message).to.equal('its worker host is gone');
    expect(await exists(onB.id), 'the gone host keeps the container until it is back').to.equal(true);

    // B comes back: its worker removes the container at start, and the pool stays at its target.
    await startB();
    await until('host B to remove the expired entry\'s container', async () => !(await exists(onB.id)), 60_000, 250);
    expect(await readyOn()).to.deep.equal([hostA, hostA]);
    const stats = (await api('GET', `${base}/warm-hooks`)).body.warm_pool;
    expect(stats.ready_count).to.equal(2);
  });
});
