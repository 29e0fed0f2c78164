/**
 * Following a warm-pool workspace through the public API: a pool whose warm hook prints lines
 * slowly, the stream of a member opened while it warms (its status, the hook's lines as they
 * come, then `complete` with the ready record, and the stream closes), a ready member's
 * stream (one `complete`), and the ids it refuses.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';
import { expectShape } from '../../support/originalShapes';
import { sseData } from '../../support/sse';
import { until } from '../../support/wait';

type Event = { type: string; status?: string; output?: string; workspace?: Record<string, unknown>; message?: string };

async function follow(key: string, workspaceId: string): Promise<{ events: Event[]; firstAt: number[] }> {
  const res = await fetch(`${harness().baseUrl}/v1/warm-pool-workspaces/${workspaceId}/stream`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/event-stream/);
  const events: Event[] = [];
  const firstAt: number[] = [];
  // The stream ends by itself after `complete`; the loop ends with it.
  for await (const event of sseData<Event>(res)) {
    events.push(event);
    firstAt.push(Date.now());
  }
  return { events, firstAt };
}

describe('warm pools: a warm workspace’s stream', function () {
  this.timeout(300_000);

  it('relays the warm hook’s output while warming, then completes with the ready record', async () => {
    const org = await newOrg('warm-stream');
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'streamed-pool' })).body.environment;
    const base = `/v1/environments/${env.id}`;
    // Well under the harness's 20 s hook deadline, slow enough to be followed line by line.
    expect((await api.post(`${base}/warm-hooks/save`, { content: 'for i in 1 2 3 4; do echo "warm line $i"; sleep 1; done; echo "to stderr" >&2' })).status).to.equal(201);
    const configId: string = (await api.put(`${base}/warm-pools`, { enabled: true })).body.warm_pool.id;
    try {
      const members = async () => (await api.get(`/v1/warm-pools/${configId}/workspaces`)).body.workspaces as Array<{ id: string; status: string }>;
      let warming: { id: string } | undefined;
      await until('a member to be warming', async () => Boolean((warming = (await members()).find((w) => w.status === 'warming'))), 120_000, 100);

      const { events, firstAt } = await follow(org.org_api_key, warming!.id);
      expect(events[0]).to.deep.equal({ type: 'status', status: 'warming' });
      const outputs = events.filter((e) => e.type === 'output');
      const text = outputs.map((e) => e.output).join('');
      expect(text).to.include('warm line 4\n');
      expect(text).to.include('to stderr\n');
      // Live, not all at the end: the lines came over seconds.
      const outputTimes = firstAt.filter((_, i) => events[i]!.type === 'output');
      expect(outputTimes[outputTimes.length - 1]! - outputTimes[0]!).to.be.above(1500);
      const last = events[events.length - 1]!;
      expect(last.type).to.equal('complete');
      expectShape('WarmPoolWorkspaceRecord', last.workspace);
      expect(last.workspace).to.include({ id: warming!.id, status: 'ready', organization_id: org.organization_id, warm_pool_config_id: configId, error_message: null });
      expect(events.filter((e) => e.type === 'complete')).to.have.length(1);

      // A member already ready: one `complete`, and the stream closes.
      const ready = await follow(org.org_api_key, warming!.id);
      expect(ready.events).to.have.length(1);
      expect(ready.events[0]).to.include({ type: 'complete' });
      expect(ready.events[0]!.workspace).to.include({ id: warming!.id, status: 'ready' });
    } finally {
      await api.put(`${base}/warm-pools`, { enabled: false });
    }
  });

  it('answers 404 for an unknown or another organization’s member and 400 for a malformed id', async () => {
    const org = await newOrg('warm-stream-refused');
    const other = await newOrg('warm-stream-other');
    const otherApi = as(other.org_api_key);
    const env = (await otherApi.post('/v1/environments', { name: 'their-pool' })).body.environment;
    const configId: string = (await otherApi.put(`/v1/environments/${env.id}/warm-pools`, { enabled: true })).body.warm_pool.id;
    try {
      let theirs: { id: string } | undefined;
      await until('their pool to have a member', async () => Boolean((theirs = (await otherApi.get(`/v1/warm-pools/${configId}/workspaces`)).body.workspaces[0])), 120_000, 100);
      const api = as(org.org_api_key);
      for (const id of [theirs!.id, randomUUID()]) {
        const res = await api.get(`/v1/warm-pool-workspaces/${id}/stream`);
        expect(res.status).to.equal(404);
        expect(errorOf(res).error).to.equal('Warm pool workspace not found');
      }
      const bad = await api.get('/v1/warm-pool-workspaces/not-a-uuid/stream');
      expect(bad.status).to.equal(400);
      expect(errorOf(bad).details).to.include('workspaceId');
    } finally {
      await otherApi.put(`/v1/environments/${env.id}/warm-pools`, { enabled: false });
    }
  });

  it("tells a member nothing of another member's personal pool: the same 404 as for an id that does not exist", async () => {
    const org = await newOrg('warm-personal');
    const member = (who: string) => harness().admin.createUser({ organizationId: org.organization_id, email: `${who}-${org.organization_id.slice(0, 8)}@example.com` });
    const alice = as((await member('alice')).personal_api_key);
    const bob = as((await member('bob')).personal_api_key);
    const env = (await alice.post('/v1/environments', { name: 'alice-pool', scope: 'user' })).body.environment;
    // Alice's pool and one of its workspaces, as the pool's workflow records them (disabled: nothing is built).
    const configId = randomUUID();
    const entryId = randomUUID();
    const db = harness().database.db;
    await db('warm_pool_configs').insert({ id: configId, organization_id: org.organization_id, environment_id: env.id, enabled: false, target_size: 1 });
    await db('warm_pool_workspaces').insert({ id: entryId, organization_id: org.organization_id, warm_pool_config_id: configId, environment_id: env.id, status: 'ready', generation: 1, env_hash: 'x' });
    expect((await alice.get(`/v1/warm-pools/${configId}/workspaces`)).body.workspaces.map((w: { id: string }) => w.id)).to.deep.equal([entryId]);

    // Bob's answer for Alice's id and for one that exists nowhere.
    const answers = async (path: (id: string) => string, theirs: string) =>
      Promise.all([theirs, randomUUID()].map(async (id) => {
        const res = await bob.get(path(id));
        return [res.status, res.body];
      }));
    const [pool, nowhere] = await answers((id) => `/v1/warm-pools/${id}/workspaces`, configId);
    expect(pool).to.deep.equal(nowhere);
    expect(pool).to.deep.equal([404, { error: 'Warm pool not found', details: null }]);
    const [entry, noEntry] = await answers((id) => `/v1/warm-pool-workspaces/${id}/stream`, entryId);
    expect(entry).to.deep.equal(noEntry);
    expect(entry).to.deep.equal([404, { error: 'Warm pool workspace not found', details: null }]);
  });
});
