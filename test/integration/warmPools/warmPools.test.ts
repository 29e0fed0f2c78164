/**
 * Warm pools through the public API, with real PostgreSQL, Temporal and Docker, on a Hangar of
 * its own whose pools keep one workspace (HANGAR_WARM_POOL_SIZE=1): enable → a ready workspace
 * with the repository and the warm hooks' work → a replica claims it (start hook at claim, the
 * engine secret for login shells, agent turns in it) → the pool refills → a warm-hook save
 * makes the entry stale and it is replaced → disable drains the pool, leaving no container.
 */
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { hashEngineSecret } from '../../../src/domain/replicas';
import { createBareRepo } from '../../support/gitRepo';
import { startHarness, type Harness } from '../../support/harness';
import { execInContainer } from '../../support/containerExec';
import { until } from '../../support/wait';

const exec = execInContainer;

const containerExists = async (name: string) => (await createDocker().listContainers({ all: true, filters: { name: [`^/${name}$`] } })).length > 0;

describe('warm pools: ready workspaces claimed by new replicas', function () {
  this.timeout(300_000);
  let h: Harness;

  before(async function () {
    this.timeout(120_000);
    h = await startHarness({ HANGAR_WARM_POOL_SIZE: '1' });
  });
  after(async function () {
    this.timeout(120_000);
    await h?.close();
  });

  const call = async (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(h.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  it('keeps a ready workspace, hands it to a replica, refills, replaces stale entries and drains on disable', async () => {
    const org = await h.admin.createOrganization({ name: 'pools', adminEmail: 'pools@example.com' });
    const api = (method: string, path: string, body?: unknown) => call(org.org_api_key, method, path, body);
    const repo = await createBareRepo('app', { 'README.md': '# app\n' });
    const repository = await h.admin.addRepository({ organizationId: org.organization_id, url: repo.url });
    const env = (await api('POST', '/v1/environments', { name: 'pooled', repository_id: repository.id })).body.environment;
    const base = `/v1/environments/${env.id}`;
    await api('POST', `${base}/variables`, { key: 'GREETING', value: 'hello-from-env' });
    await api('POST', '/v1/environments/global/warm-hooks/save', { content: 'echo "global warm" > ~/global-warm.txt' });
    expect((await api('POST', `${base}/warm-hooks/save`, { content: 'echo "env warm $GREETING" > ~/env-warm.txt; ls ~/workspaces/app > ~/warm-saw-repo.txt' })).status).to.equal(201);
    await api('POST', `${base}/start-hooks/save`, { content: 'cat ~/env-warm.txt > ~/start-saw-warm.txt; echo started > ~/start.txt' });

    const enabled = await api('PUT', `${base}/warm-pools`, { enabled: true });
    expect(enabled.status).to.equal(200);
    expect(enabled.body.warm_pool).to.include({ enabled: true, target_size: 1, generation: 1 });
    const configId: string = enabled.body.warm_pool.id;

    const pool = async () => (await api('GET', `${base}/warm-hooks`)).body.warm_pool;
    await until('the pool to have a ready workspace', async () => (await pool()).ready_count === 1, 180_000, 250);
    const listed = (await api('GET', `/v1/warm-pools/${configId}/workspaces`)).body.workspaces;
    const ready = listed.find((w: { status: string }) => w.status === 'ready');
    expect(ready).to.include({ organization_id: org.organization_id, warm_pool_config_id: configId, generation: 1, sandbox_id: `hangar-ws-${ready.id}`, error_message: null });
    // The warm hooks ran (Global's, then the environment's with its variables) after the checkout.
    expect(await exec(ready.sandbox_id, 'cat ~/global-warm.txt ~/env-warm.txt ~/warm-saw-repo.txt')).to.equal('global warm\nenv warm hello-from-env\nREADME.md\n');
    expect(await exec(ready.sandbox_id, 'test -e ~/start.txt && echo yes || echo no')).to.equal('no\n');

    // A replica of that environment claims it.
    const created = await call(org.org_api_key, 'POST', '/v1/replica', { name: 'warm-one', environment_id: env.id, message: '!write notes.txt from-agent\n!echo-env HANGAR_ENGINE_SECRET\nDone' }, { 'X-Api-Version': '2026-05-17' });
    expect(created.status).to.equal(201);
    const replicaId: string = created.body.replica.id;
    const db = h.database.db;
    await until('the replica to be active', async () => (await db('replicas').where({ id: replicaId }).first())?.status === 'active', 60_000, 20);
    const row = await db('replicas').where({ id: replicaId }).first();
    expect(row.workspace_key).to.equal(ready.id);
    expect((await db('warm_pool_workspaces').where({ id: ready.id }).first())).to.include({ status: 'assigned', replica_id: replicaId });

    // The start hook ran at claim, in the warm container; the engine secret reaches login shells.
    expect(await exec(ready.sandbox_id, 'cat ~/start.txt ~/start-saw-warm.txt')).to.equal('started\nenv warm hello-from-env\n');
    const secret = (await exec(ready.sandbox_id, 'printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    expect(hashEngineSecret(secret)).to.equal(row.engine_secret_hash);
    expect((await exec(ready.sandbox_id, 'printf %s "$HANGAR_WORKSPACE_ID"')).trim()).to.equal(replicaId);
    // The first turn runs in it, with the per-replica variables.
    await until('the agent to write in the warm checkout', async () => (await exec(ready.sandbox_id, 'cat ~/workspaces/app/notes.txt 2>/dev/null')).includes('from-agent'), 60_000);
    const hooks = (await api('GET', `/v1/replica/${replicaId}/hooks`)).body;
    expect(hooks.warm_hooks.logs.map((l: { hookType: string; exitCode: number }) => [l.hookType, l.exitCode])).to.deep.equal([['global', 0], ['repository', 0]]);
    expect(hooks.start_hooks.logs).to.have.length(1);
    await until('the agent to see its engine secret', async () => {
      const chats = (await api('GET', `/v1/replica/${replicaId}/chats`)).body.chats;
      const history = (await api('GET', `/v1/replica/${replicaId}/history?chat_id=${chats[0].id}`)).body;
      return JSON.stringify(history.events).includes('HANGAR_ENGINE_SECRET=set');
    }, 60_000);

    // The pool refills with a new entry.
    await until('the pool to refill', async () => (await pool()).ready_count === 1, 180_000, 250);
    const refill = (await api('GET', `/v1/warm-pools/${configId}/workspaces`)).body.workspaces.find((w: { status: string }) => w.status === 'ready');
    expect(refill.id).to.not.equal(ready.id);

    // Saving a warm hook bumps the generation: the entry is stale, then replaced.
    expect((await api('POST', `${base}/warm-hooks/save`, { content: 'echo "second warm" > ~/env-warm.txt' })).status).to.equal(201);
    const bumped = await pool();
    expect(bumped.generation).to.equal(2);
    expect(bumped.ready_count + bumped.stale_count).to.be.at.least(1);
    await until('the stale entry to be replaced', async () => {
      const p = await pool();
      return p.ready_count === 1 && p.stale_count === 0;
    }, 180_000, 250);
    const current = (await api('GET', `/v1/warm-pools/${configId}/workspaces`)).body.workspaces.find((w: { status: string }) => w.status === 'ready');
    expect(current.generation).to.equal(2);
    expect(await exec(current.sandbox_id, 'cat ~/env-warm.txt')).to.equal('second warm\n');
    await until('the stale container to be removed', async () => !(await containerExists(refill.sandbox_id)), 30_000);

    // Disable: the ready entries are expired and their containers removed.
    expect((await api('PUT', `${base}/warm-pools`, { enabled: false })).body.warm_pool).to.include({ enabled: false });
    await until('the pool to drain', async () => {
      const p = await pool();
      return p.ready_count === 0 && p.warming_count === 0 && p.stale_count === 0;
    }, 60_000);
    await until('no pool container left', async () => !(await containerExists(current.sandbox_id)), 30_000);
    expect((await db('warm_pool_workspaces').where({ id: current.id }).first()).status).to.equal('expired');

    // Deleting the replica removes the claimed container.
    expect((await api('DELETE', `/v1/replica/${replicaId}`)).body).to.deep.equal({ success: true });
    await until('the claimed container to be removed', async () => !(await containerExists(ready.sandbox_id)), 60_000);
  });

  it('answers 404 for an unknown pool', async () => {
    const org = await h.admin.createOrganization({ name: 'pools-2', adminEmail: 'pools2@example.com' });
    expect((await call(org.org_api_key, 'GET', '/v1/warm-pools/00000000-0000-4000-8000-000000000000/workspaces')).status).to.equal(404);
  });
});
