/**
 * A workspace's whole life through the public API, with real PostgreSQL, Temporal and
 * Docker: create → active → message → the agent acts in the container → events seen →
 * sleep → wake (history intact) → archive → delete.
 */
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { createBareRepo } from '../../support/gitRepo';
import { execInContainer } from '../../support/containerExec';
import { sseData } from '../../support/sse';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };

const exec = (replicaId: string, cmd: string) => execInContainer(`hangar-ws-${replicaId}`, cmd);

/** Reads GET /v1/replica/{id}/events?after=0 until `enough` says so; returns the event types. */
async function readEvents(key: string, replicaId: string, enough: (types: string[]) => boolean): Promise<string[]> {
  const res = await fetch(`${harness().baseUrl}/v1/replica/${replicaId}/events?after=0`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
  const types: string[] = [];
  for await (const event of sseData<{ type: string }>(res)) {
    types.push(event.type);
    if (enough(types)) break;
  }
  return types;
}

async function statusOf(key: string, id: string): Promise<string> {
  const rows = await harness().database.db('replicas').where({ id }).select('status');
  void key;
  return rows[0]?.status;
}

describe('replicas: a workspace from create to delete', function () {
  this.timeout(240_000);

  it('provisions a container with the repository, runs agent turns that act in it, sleeps, wakes with history and archives', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const repo = await createBareRepo('app', { 'README.md': '# app\n' });
    const repository = await harness().admin.addRepository({ organizationId: org.organization_id, url: repo.url });
    const env = (await api.post('/v1/environments', { name: 'app', repository_id: repository.id })).body.environment;
    await api.post(`/v1/environments/${env.id}/variables`, { key: 'GREETING', value: 'hello-from-env' });
    await api.post(`/v1/environments/${env.id}/start-hooks/save`, { content: 'echo "start hook ran" > ~/hook-ran.txt' });

    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: V,
      body: { name: 'first-workspace', environment_id: env.id, coding_agent: 'agent_1', message: '!write notes.txt written-by-agent\n!commit add notes\nDone' },
    });
    expect(created.status).to.equal(201);
    const replica = created.body.replica;
    expect(replica).to.include({ name: 'first-workspace', status: 'preparing', source: 'api' });
    expect(replica.repositories).to.deep.equal([{ id: repository.id, name: 'app', url: repo.url }]);

    await until('the workspace to be active', async () => (await statusOf(org.org_api_key, replica.id)) === 'active', 120_000);
    // The first message runs as the first turn: the agent commits in the checkout.
    await until('the first turn to finish', async () => {
      const chats = (await api.get(`/v1/replica/${replica.id}`)).body.replica.chats;
      return chats.length === 1 && !chats[0].processing && (await exec(replica.id, 'cd ~/workspaces/app && git log --format=%s')).includes('add notes');
    }, 60_000);
    expect(await exec(replica.id, 'cat ~/workspaces/app/notes.txt')).to.include('written-by-agent');
    expect(await exec(replica.id, 'cat ~/hook-ran.txt; echo "$GREETING"')).to.include('start hook ran').and.include('hello-from-env');

    // The events stream, replayed from its start, shows the whole story so far.
    const seen = await readEvents(org.org_api_key, replica.id, (types) => types.includes('chat.turn.completed'));
    for (const type of ['replica.status.changed', 'chat.created', 'chat.turn.accepted', 'chat.turn.started', 'chat.turn.delta', 'chat.turn.completed']) {
      expect(seen, type).to.include(type);
    }

    const details = (await api.get(`/v1/replica/${replica.id}?include=environment`)).body.replica;
    expect(details).to.include({ status: 'active', coding_agent: 'agent_1', waking: false });
    expect(details.environment.env_vars_set).to.deep.equal(['GREETING']);
    expect(JSON.stringify(details.environment)).not.to.include('hello-from-env');
    expect(details.environment.coding_agents.agent_1).to.deep.equal({ available: false, auth_method: 'none' });
    expect(details.environment.hooks.environment_start_hooks).to.deep.equal({ status: 'completed', count: 1 });

    // A follow-up message in the same chat.
    const sent = await api.post(`/v1/replica/${replica.id}/messages`, { message: '!run echo second > second.txt\nsecond turn' });
    expect(sent.status).to.equal(200);
    expect(sent.body).to.include({ chat_id: details.chats[0].id });
    await until('the second turn', async () => (await exec(replica.id, 'cat ~/workspaces/app/second.txt 2>/dev/null')).includes('second'), 60_000);

    // Sleep: the container stops, the volume stays.
    expect((await api.post(`/v1/replica/${replica.id}/sleep`)).body).to.deep.equal({ success: true });
    await until('sleeping', async () => (await statusOf(org.org_api_key, replica.id)) === 'sleeping', 60_000);
    const inspect = await createDocker().getContainer(`hangar-ws-${replica.id}`).inspect();
    expect(inspect.State.Running).to.equal(false);

    // Reading the chats wakes it; history is intact.
    const asleep = await api.get(`/v1/replica/${replica.id}/chats`);
    expect(asleep.body.waking).to.equal(true);
    await until('awake again', async () => (await statusOf(org.org_api_key, replica.id)) === 'active', 60_000);
    expect(await exec(replica.id, 'cat ~/workspaces/app/notes.txt')).to.include('written-by-agent');
    const history = (await api.get(`/v1/replica/${replica.id}/history`)).body;
    expect(history.total).to.be.greaterThan(0);

    // Archive removes the container and its volume.
    expect((await api.post(`/v1/workspaces/${replica.id}/archive`)).status).to.equal(200);
    await until('archived', async () => (await statusOf(org.org_api_key, replica.id)) === 'archived', 60_000);
    const leftovers = await createDocker().listContainers({ all: true, filters: { name: [`hangar-ws-${replica.id}`] } });
    expect(leftovers).to.have.length(0);

    // Delete: gone from every read at once.
    expect((await api.delete(`/v1/replica/${replica.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(`/v1/replica/${replica.id}`)).status).to.equal(404);
    await until('the row to be gone', async () => (await harness().database.db('replicas').where({ id: replica.id })).length === 0, 60_000);
  });

  it('accepts a workspace engine secret for POST /v1/replica and nothing else', async () => {
    const org = await newOrg();
    const parent = (await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'parent', message: 'hello' } })).body.replica;
    await until('the parent to be active', async () => (await statusOf(org.org_api_key, parent.id)) === 'active', 120_000);
    const secret = (await exec(parent.id, 'printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    expect(secret).to.have.length.greaterThan(20);

    const child = await request('POST', '/v1/replica', {
      headers: { ...V, authorization: `Bearer ${secret}`, 'x-workspace-id': parent.id },
      body: { name: 'child', message: 'from inside' },
    });
    expect(child.status).to.equal(201);
    const listed = (await as(org.org_api_key).get('/v1/replica')).body.replicas.map((r: { name: string }) => r.name);
    expect(listed).to.include('child');

    const wrong = await request('POST', '/v1/replica', { headers: { ...V, authorization: 'Bearer nope', 'x-workspace-id': parent.id }, body: { name: 'x', message: 'y' } });
    expect(wrong.status).to.equal(401);
    const elsewhere = await request('GET', '/v1/replica', { headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': parent.id } });
    expect(elsewhere.status).to.equal(401);
    for (const id of [parent.id, child.body.replica.id]) await as(org.org_api_key).delete(`/v1/replica/${id}`);
  });

  it('rejects bad input with the Error body', async () => {
    const org = await newOrg();
    const post = (body: unknown, headers: Record<string, string> = V) => request('POST', '/v1/replica', { key: org.org_api_key, headers, body });
    const cases: Array<[unknown, RegExp]> = [
      [{ message: 'x' }, /body\.name: is required/],
      [{ name: 'has space', message: 'x' }, /body\.name/],
      [{ name: 'ok' }, /body\.message: is required/],
      [{ name: 'ok', message: 'x', coding_agent: 'agent_9' }, /body\.coding_agent/],
      [{ name: 'ok', message: 'x', coding_agent: 'agent_3', fast_mode: true }, /fast mode/],
      [{ name: 'ok', message: 'x', coding_agent: 'agent_1', thinking_level: 'ultra' }, /ultra/],
      [{ name: 'ok', message: 'x', size: 'huge' }, /body\.size/],
      [{ name: 'ok', message: 'x', webhook_url: 'ftp://x' }, /body\.webhook_url/],
      [{ name: 'ok', message: 'x', surprise: 1 }, /body\.surprise: unknown field/],
      [{ name: 'ok', message: '/plan ' }, /message/],
    ];
    for (const [body, details] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details, JSON.stringify(body)).to.match(details);
    }
    const missingEnv = await post({ name: 'ok', message: 'x', environment_id: '00000000-0000-4000-8000-000000000000' });
    expect(missingEnv.status).to.equal(404);
    expect((await post({ name: 'ok', message: 'x' }, { 'X-Api-Version': '1999-01-01' })).status).to.equal(400);
    expect((await request('POST', '/v1/replica', { body: { name: 'ok', message: 'x' } })).status).to.equal(401);
    const other = await newOrg();
    const theirs = (await request('POST', '/v1/replica', { key: other.org_api_key, headers: V, body: { name: 'theirs', message: 'x' } })).body.replica;
    expect((await as(org.org_api_key).get(`/v1/replica/${theirs.id}`)).status).to.equal(404);
    expect((await as(org.org_api_key).post(`/v1/replica/${theirs.id}/messages`, { message: 'hi' })).status).to.equal(404);
    expect((await as(org.org_api_key).delete(`/v1/replica/${theirs.id}`)).status).to.equal(404);
    await as(other.org_api_key).delete(`/v1/replica/${theirs.id}`);
  });
});
