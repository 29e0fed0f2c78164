import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { sealedField } from '../../../src/crypto/sealedFields';
import { createDocker } from '../../../src/sandbox';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { postSse } from '../../support/sse';
import { until } from '../../support/wait';

describe('start hooks and warm hooks', () => {
  it('saves versions, clears on empty content and never persists a test', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    expect((await api.get('/v1/environments/global/start-hooks')).body).to.deep.equal({ start_hook: null });
    const v1 = await api.post('/v1/environments/global/start-hooks/save', { content: 'echo one' });
    expect(v1.status).to.equal(201);
    expect(v1.body.start_hook).to.include({ version: 1, content: 'echo one', is_active: true });
    const v2 = await api.post('/v1/environments/global/start-hooks/save', { content: 'echo two' });
    expect(v2.body.start_hook).to.include({ version: 2, content: 'echo two' });

    const tested = await api.post('/v1/environments/global/start-hooks/test', { content: 'echo tested' });
    expect(tested.status).to.equal(200);
    expect((await api.get('/v1/environments/global/start-hooks')).body.start_hook).to.include({ version: 2, content: 'echo two' });

    const cleared = await api.post('/v1/environments/global/start-hooks/save', { content: '  ' });
    expect(cleared.body).to.deep.equal({ start_hook: null });
    expect((await api.get('/v1/environments/global/start-hooks')).body).to.deep.equal({ start_hook: null });
  });

  it('runs the chain Global → source → supplied with resolved variables and files', async () => {
    const org = await newOrg();
    const admin = as(org.admin.personal_api_key);
    const { db } = harness().database;
    const team = (await admin.post('/v1/environments', { name: 'team' })).body.environment;
    const personal = (await admin.post('/v1/environments', { name: 'mine', scope: 'user', source_environment_id: team.id })).body.environment;
    await admin.post('/v1/environments/global/start-hooks/save', { content: 'echo "global sees $GREETING"' });
    await admin.post(`/v1/environments/${team.id}/start-hooks/save`, { content: 'echo "source hook"; cat ~/notes/todo.txt' });
    // Variables and files go through the sub-resource API in its own tests; here they are
    // sealed rows, as that API writes them.
    const box = createSecretBox(harness().config.encryptionKeys);
    const variable = (id: string, value: string) => box.seal(value, sealedField('environment_variables', 'value_sealed', id));
    const [greeting, token, todo] = [randomUUID(), randomUUID(), randomUUID()];
    await db('environment_variables').insert([
      { id: greeting, organization_id: org.organization_id, environment_id: org.global_environment_id, key: 'GREETING', value_sealed: variable(greeting, 'hello from global') },
      { id: token, organization_id: org.organization_id, environment_id: team.id, key: 'TEAM_TOKEN', value_sealed: variable(token, 't0ken') },
    ]);
    await db('environment_files').insert({
      id: todo, organization_id: org.organization_id, environment_id: team.id, name: 'todo.txt', path: '~/notes/todo.txt',
      content_sealed: box.seal('buy milk', sealedField('environment_files', 'content_sealed', todo)), size_bytes: 8,
    });

    const res = await admin.post(`/v1/environments/${personal.id}/start-hooks/test`, { content: 'echo "personal: $TEAM_TOKEN"; id -u' });
    expect(res.status).to.equal(200);
    const { test } = res.body;
    expect(test).to.include({ exit_code: 0, timed_out: false });
    const order = ['global sees hello from global', 'source hook', 'buy milk', 'personal: t0ken', '1000'].map((s) => test.output.indexOf(s));
    expect(order.every((i: number) => i >= 0), test.output).to.equal(true);
    expect([...order].sort((a, b) => a - b)).to.deep.equal(order);
  });

  it('lets a later layer\'s file win where it clashes with an earlier layer\'s folder', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const team = (await api.post('/v1/environments', { name: 'team' })).body.environment;
    expect((await api.post('/v1/environments/global/files', { path: '~/config', content: 'global file' })).status).to.equal(201);
    expect((await api.post(`/v1/environments/${team.id}/files`, { path: '~/config/app.toml', content: 'team file' })).status).to.equal(201);
    const { test } = (await api.post(`/v1/environments/${team.id}/start-hooks/test`, { content: 'cat ~/config/app.toml' })).body;
    expect(test).to.include({ exit_code: 0 });
    expect(test.output).to.include('team file');
  });

  it('stops the chain at the first failing step and reports its exit code', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    await api.post('/v1/environments/global/start-hooks/save', { content: 'echo global; exit 3' });
    const env = (await api.post('/v1/environments', { name: 'e' })).body.environment;
    const { test } = (await api.post(`/v1/environments/${env.id}/start-hooks/test`, { content: 'echo never-runs' })).body;
    expect(test.exit_code).to.equal(3);
    expect(test.output).to.include('global');
    expect(test.output).not.to.include('never-runs');
  });

  it('kills a run at the deadline and removes its container', async () => {
    const org = await newOrg();
    const res = await as(org.org_api_key).post('/v1/environments/global/start-hooks/test', { content: 'echo "in $(hostname)"; sleep 600' });
    expect(res.body.test).to.include({ timed_out: true });
    // A container's host name is its short id: that container must be gone.
    const id = /in ([0-9a-f]{12})/.exec(res.body.test.output)?.[1];
    expect(id, res.body.test.output).to.be.a('string');
    const docker = createDocker();
    await until('the timed-out container to be removed', async () => (await docker.listContainers({ all: true, filters: { id: [id!] } })).length === 0, 10_000);
  });

  it('caps the output with a visible marker', async () => {
    const org = await newOrg();
    const { test } = (await as(org.org_api_key).post('/v1/environments/global/start-hooks/test', { content: 'head -c 3000000 /dev/zero | tr "\\0" x; echo' })).body;
    expect(Buffer.byteLength(test.output)).to.be.at.most(1024 * 1024 + 200);
    expect(test.output).to.match(/truncated/i);
    expect(test.exit_code).to.equal(0);
  });

  it('contains a fork bomb and a memory hog while the service keeps answering', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const bomb = api.post('/v1/environments/global/start-hooks/test', { content: 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived' });
    const hog = api.post('/v1/environments/global/start-hooks/test', { content: 'head -c 3000m /dev/zero | tail > /dev/null; echo "tail exited $?"' });
    // The host stays responsive while both run.
    for (let i = 0; i < 5; i++) expect((await request('GET', '/healthz')).status).to.equal(200);
    const [bombRes, hogRes] = await Promise.all([bomb, hog]);
    expect(bombRes.status).to.equal(200);
    expect(hogRes.status).to.equal(200);
    expect(hogRes.body.test.output).to.match(/tail exited (137|1)/);
    expect((await request('GET', '/readyz')).status).to.equal(200);
  });

  it('rejects bad input: missing or non-string content, oversized scripts, unknown or foreign environments', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const api = as(org.org_api_key);
    const path = '/v1/environments/global/start-hooks/test';
    const missing = await api.post(path, {});
    expect(missing.status).to.equal(400);
    expect(errorOf(missing).details).to.equal('body.content: is required');
    const nonString = await api.post(path, { content: 42 });
    expect(errorOf(nonString).details).to.match(/^body\.content: must be string/);
    const noBody = await request('POST', path, { key: org.org_api_key });
    expect(noBody.status).to.equal(400);
    const oversized = await api.post(path, { content: 'x'.repeat(65_537) });
    expect(oversized.status).to.equal(400);
    expect(errorOf(oversized).details).to.match(/body\.content: must NOT have more than 65536 characters/);
    const unknown = await api.post('/v1/environments/00000000-0000-4000-8000-000000000000/start-hooks/test', { content: 'true' });
    expect(unknown.status).to.equal(404);
    const env = (await as(other.org_api_key).post('/v1/environments', { name: 'theirs' })).body.environment;
    const foreign = await api.post(`/v1/environments/${env.id}/start-hooks/test`, { content: 'true' });
    expect(foreign.status).to.equal(404);
    errorOf(foreign);
    expect((await request('POST', path, { body: { content: 'true' } })).status).to.equal(401);
  });

  it('streams progress, output and the result as server-sent events', async () => {
    const org = await newOrg();
    const res = await postSse('/v1/environments/global/start-hooks/test/stream', org.org_api_key, { content: 'for i in 1 2 3; do echo line-$i; done; exit 4' });
    expect(res.status).to.equal(200);
    expect(res.contentType).to.match(/^text\/event-stream/);
    const names = res.events.map((e) => e.event);
    expect(names[0]).to.equal('progress');
    expect(names.at(-1)).to.equal('complete');
    // Each event's data names its type, as the original's do.
    expect(res.events.every((e) => e.data.type === e.event)).to.equal(true);
    const streamed = res.events.filter((e) => e.event === 'output').map((e) => e.data.output).join('');
    expect(streamed).to.include('line-1\nline-2\nline-3');
    expect(res.events.some((e) => e.event === 'progress' && e.data.state === 'finished' && e.data.exit_code === 4)).to.equal(true);
    expect(res.events.at(-1)!.data).to.include({ exit_code: 4, timed_out: false });

    const notFound = await postSse('/v1/environments/00000000-0000-4000-8000-000000000000/start-hooks/test/stream', org.org_api_key, { content: 'true' });
    expect(notFound.status).to.equal(404);
    expect(notFound.json.error).to.equal('Environment not found');
  });

  it('cancels the test workflow, and so its sandbox, when the client hangs up', async () => {
    const org = await newOrg();
    const connection = await Connection.connect({ address: harness().temporal.address });
    const client = new Client({ connection });
    const statusOf = async (status: string) => {
      const found: string[] = [];
      const query = `WorkflowType = 'hookTestWorkflow' AND ExecutionStatus = '${status}'`;
      for await (const wf of client.workflow.list({ query })) found.push(wf.workflowId);
      return found;
    };
    try {
      const before = new Set(await statusOf('Canceled'));
      const running = new Set(await statusOf('Running'));
      const abort = new AbortController();
      const call = request('POST', '/v1/environments/global/start-hooks/test', { key: org.org_api_key, body: { content: 'sleep 600' }, signal: abort.signal }).catch((e: Error) => e);
      const started = await until('the test workflow to run', async () => (await statusOf('Running')).find((id) => !running.has(id)));
      abort.abort();
      expect(await call).to.be.instanceOf(Error);
      await until('the workflow to be cancelled', async () => (await statusOf('Canceled')).some((id) => id === started && !before.has(id)), 20_000);
    } finally {
      await connection.close();
    }
  });

  it('records each test as a Temporal workflow', async () => {
    const org = await newOrg();
    await as(org.org_api_key).post('/v1/environments/global/start-hooks/test', { content: 'echo visible' });
    const connection = await Connection.connect({ address: harness().temporal.address });
    try {
      const client = new Client({ connection });
      const ids: string[] = [];
      for await (const wf of client.workflow.list({ query: `WorkflowType = 'hookTestWorkflow'` })) ids.push(wf.workflowId);
      expect(ids.some((id) => id.startsWith('start-hook-test/'))).to.equal(true);
    } finally {
      await connection.close();
    }
  });

  it('saves and tests warm hooks, persisting even a failing save-and-test, and sets the warm pool', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'pooled' })).body.environment;
    const base = `/v1/environments/${env.id}`;
    expect((await api.get(`${base}/warm-hooks`)).body).to.deep.equal({ warm_hook: null, warm_pool: null });
    const saved = await api.post(`${base}/warm-hooks/save`, { content: 'echo warm' });
    expect(saved.status).to.equal(201);
    expect(saved.body.warm_hook).to.include({ version: 1 });
    const test = await api.post(`${base}/warm-hooks/test`, { content: 'echo warm-test' });
    expect(test.body.test).to.include({ exit_code: 0 });
    const failing = await api.post(`${base}/warm-hooks/save-test`, { content: 'echo failing; exit 9' });
    expect(failing.status).to.equal(201);
    expect(failing.body.warm_hook).to.include({ version: 2, content: 'echo failing; exit 9' });
    expect(failing.body.test).to.include({ exit_code: 9 });

    const pool = await api.put(`${base}/warm-pools`, { enabled: true });
    expect(pool.status).to.equal(200);
    expect(pool.body.warm_pool).to.include({ environment_id: env.id, enabled: true, target_size: 5, generation: 1 });
    const state = (await api.get(`${base}/warm-hooks`)).body;
    expect(state.warm_hook).to.include({ version: 2 });
    expect(state.warm_pool).to.include({ enabled: true });
    expect((await api.put(`${base}/warm-pools`, { enabled: 'yes' })).status).to.equal(400);
    // Disabled again, so the pool does not keep workspaces for the rest of the suite.
    expect((await api.put(`${base}/warm-pools`, { enabled: false })).body.warm_pool).to.include({ enabled: false });
  });
});
