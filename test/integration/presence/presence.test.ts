/**
 * Presence through the public API on the shared harness: Redis (REDIS_URL, a prefix of the
 * run's own), a 3-second expiry (HANGAR_PRESENCE_TTL_SECONDS=3) and the PostgreSQL event bus.
 * Each test makes its own organizations.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { EventStreamReader, insertReplica } from '../replicas/activitySupport';

type Member = { user_id: string; display_name: string; typing: boolean; location: { type: string; id: string }; expires_at: string; last_seen_at: string };
type Message = EventStreamReader['messages'][number];

/** An organization with its admin (Ada) and a second member (Bob), each with a personal key. */
async function team() {
  const org = await newOrg('presence');
  const bob = await harness().admin.createUser({ organizationId: org.organization_id, email: `bob-${randomUUID().slice(0, 8)}@example.com`, displayName: 'Bob' });
  return { org, ada: { user_id: org.admin.user_id, key: org.admin.personal_api_key }, bob: { user_id: bob.user_id, key: bob.personal_api_key } };
}

const openOrgStream = (key: string) => EventStreamReader.open(`${harness().baseUrl}/v1/events`, key);
const openWorkspaceStream = (replicaId: string, key: string) => EventStreamReader.open(`${harness().baseUrl}/v1/replica/${replicaId}/events`, key);
const beat = (key: string, location: { type: string; id: string }, typing?: boolean) => as(key).put('/v1/presence', { location, ...(typing === undefined ? {} : { typing }) });
const online = async (key: string, query = '') => (await as(key).get<{ members: Member[] }>(`/v1/presence${query}`)).body.members;

/** The presence messages about one user: `type change-or-reason`. */
const newsOf = (stream: EventStreamReader, userId: string) =>
  stream.messages
    .filter((m) => m.data?.type?.startsWith('presence.') && m.data.payload.member.user_id === userId)
    .map((m) => `${m.data.type} ${m.data.payload.change ?? m.data.payload.reason}`);

describe('presence', function () {
  const streams: EventStreamReader[] = [];
  const follow = async (opening: Promise<EventStreamReader>) => {
    const stream = await opening;
    streams.push(stream);
    expect(stream.status).to.equal(200);
    return stream;
  };
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it('a second member sees a heartbeat, on GET and on the organization stream; another organization never does', async () => {
    const { org, ada, bob } = await team();
    const other = await newOrg('presence-other');
    const bobStream = await follow(openOrgStream(bob.key));
    const otherStream = await follow(openOrgStream(other.admin.personal_api_key));
    const otherOrgKeyStream = await follow(openOrgStream(other.org_api_key));

    const environment = { type: 'environment', id: org.global_environment_id };
    const put = await beat(ada.key, environment);
    expect(put.status).to.equal(200);
    expect(put.body.presence).to.deep.include({ user_id: ada.user_id, display_name: 'Admin', avatar_url: null, location: environment, typing: false });
    const ttl = Date.parse(put.body.presence.expires_at) - Date.parse(put.body.presence.last_seen_at);
    expect(ttl).to.equal(3000);

    // Deadlines for a busy machine: how fast the news travels is bench/ material, not a test's.
    await until('Bob to see Ada on GET', async () => (await online(bob.key)).some((m) => m.user_id === ada.user_id), 10_000, 20);
    await bobStream.until('Ada on Bob’s stream', () => newsOf(bobStream, ada.user_id).length > 0, 10_000);
    const joined = bobStream.messages.find((m) => m.data.type === 'presence.changed')!;
    expect(joined.event).to.equal('presence.changed');
    expect(joined.id).to.equal(null);
    expect(joined.data).to.deep.equal({ ts: joined.data.ts, type: 'presence.changed', payload: { change: 'joined', member: put.body.presence, previous_location: null } });
    expect(await online(org.org_api_key)).to.deep.equal([put.body.presence]);

    // The other organization: its own member's news arrives on its streams, Ada's never did.
    // (One bus connection publishes in order: had Ada's been routed there, it would be first.)
    const eve = await beat(other.admin.personal_api_key, { type: 'environment', id: other.global_environment_id });
    expect(eve.status).to.equal(200);
    for (const stream of [otherStream, otherOrgKeyStream]) {
      await stream.until('the other organization’s own member', () => newsOf(stream, other.admin.user_id).length > 0, 10_000);
      expect(stream.messages.map((m) => m.data.payload.member.user_id)).to.deep.equal([other.admin.user_id]);
    }
    expect((await online(other.admin.personal_api_key)).map((m) => m.user_id)).to.deep.equal([other.admin.user_id]);
    expect((await online(other.org_api_key)).map((m) => m.user_id)).to.deep.equal([other.admin.user_id]);
    expect(newsOf(bobStream, other.admin.user_id)).to.deep.equal([]);
  });

  it('a member who stops heartbeating is gone after the expiry, and the others hear presence.left', async () => {
    const { org, ada, bob } = await team();
    const bobStream = await follow(openOrgStream(bob.key));
    const put = await beat(ada.key, { type: 'environment', id: org.global_environment_id });
    const expiresAt = Date.parse(put.body.presence.expires_at);
    expect((await online(bob.key)).map((m) => m.user_id)).to.deep.equal([ada.user_id]);

    await until('Ada to disappear from GET', async () => (await online(bob.key)).length === 0, 15_000, 50);
    expect(Date.now()).to.be.at.least(expiresAt);
    // Noticed by a sweep (every 750 ms with a 3 s expiry), since Ada writes nothing more.
    await bobStream.until('presence.left', () => newsOf(bobStream, ada.user_id).includes('presence.left expired'), 15_000);
    expect(newsOf(bobStream, ada.user_id)).to.deep.equal(['presence.changed joined', 'presence.left expired']);
    const left = bobStream.messages.at(-1)!.data.payload;
    expect(left.member).to.deep.equal(put.body.presence);

    // Coming back is a new join.
    await beat(ada.key, { type: 'environment', id: org.global_environment_id });
    await bobStream.until('the return', () => newsOf(bobStream, ada.user_id).length === 3, 10_000);
    expect(newsOf(bobStream, ada.user_id)[2]).to.equal('presence.changed joined');
  });

  it('broadcasts typing toggles and moves, not heartbeats that change nothing', async () => {
    const { org, ada, bob } = await team();
    const workspace = await insertReplica(org.organization_id);
    const bobStream = await follow(openOrgStream(bob.key));
    const environment = { type: 'environment', id: org.global_environment_id };
    await beat(ada.key, environment);
    await beat(ada.key, environment, false);
    await beat(ada.key, environment, true);
    await beat(ada.key, environment, true);
    await beat(ada.key, environment, false);
    await beat(ada.key, { type: 'workspace', id: workspace }, false);
    await bobStream.until('four changes', () => newsOf(bobStream, ada.user_id).length >= 4, 10_000);
    // Bob's own heartbeat comes after all of Ada's: when it arrives, nothing of hers is pending.
    await beat(bob.key, environment);
    await bobStream.until('Bob himself', () => newsOf(bobStream, bob.user_id).length > 0, 10_000);
    expect(newsOf(bobStream, ada.user_id)).to.deep.equal(['presence.changed joined', 'presence.changed typing', 'presence.changed typing', 'presence.changed moved']);
    const ofAda = bobStream.messages.filter((m: Message) => m.data.payload.member.user_id === ada.user_id).map((m) => m.data.payload);
    expect(ofAda.map((p) => p.member.typing)).to.deep.equal([false, true, false, false]);
    expect(ofAda[3]).to.deep.include({ change: 'moved', previous_location: environment });
    expect(ofAda[3].member.location).to.deep.equal({ type: 'workspace', id: workspace });

    const inWorkspace = await online(bob.key, `?location_type=workspace&location_id=${workspace}`);
    expect(inWorkspace.map((m) => m.user_id)).to.deep.equal([ada.user_id]);
    expect(await online(bob.key, `?location_type=environment&location_id=${org.global_environment_id}`)).to.deep.equal((await online(bob.key)).filter((m) => m.user_id === bob.user_id));
  });

  it('the workspace stream carries presence in that workspace without ids, beside its stored events', async () => {
    const { org, ada, bob } = await team();
    const workspace = await insertReplica(org.organization_id);
    const elsewhere = await insertReplica(org.organization_id);
    const emitter = createReplicaEventEmitter(harness().database.repos.replicaEvents, harness().database.bus);
    const wsStream = await follow(openWorkspaceStream(workspace, bob.key));
    const elsewhereStream = await follow(openWorkspaceStream(elsewhere, bob.key));
    const orgStream = await follow(openOrgStream(bob.key));

    await beat(ada.key, { type: 'workspace', id: workspace });
    await wsStream.until('Ada joining the workspace', () => newsOf(wsStream, ada.user_id).length === 1, 10_000);
    const stored = await emitter.emit(workspace, 'chat.created', { chat: { id: 'c1' } });
    await wsStream.until('the stored event', () => wsStream.ids.includes(stored.id));
    await beat(ada.key, { type: 'workspace', id: workspace }, true);
    await beat(ada.key, { type: 'environment', id: org.global_environment_id });
    await beat(ada.key, { type: 'workspace', id: workspace });
    expect((await as(ada.key).delete('/v1/presence')).body).to.deep.equal({ success: true });
    await wsStream.until('Ada leaving', () => newsOf(wsStream, ada.user_id).includes('presence.left left'), 10_000);

    expect(newsOf(wsStream, ada.user_id)).to.deep.equal(['presence.changed joined', 'presence.changed typing', 'presence.left moved', 'presence.changed joined', 'presence.left left']);
    const presence = wsStream.messages.filter((m) => m.data.type?.startsWith('presence.'));
    // No `id:` and no id in the data: Last-Event-ID stays on the stored events.
    expect(presence.every((m) => m.id === null && m.event === null && !('id' in m.data))).to.equal(true);
    expect(wsStream.messages.filter((m) => m.id !== null).map((m) => m.data)).to.deep.equal([stored]);
    expect(newsOf(orgStream, ada.user_id)).to.include.members(['presence.left left']);
    expect(newsOf(orgStream, ada.user_id)).not.to.include('presence.left moved');
    expect(await online(bob.key)).to.deep.equal([]);
    expect((await as(ada.key).delete('/v1/presence')).status).to.equal(200);
    // Another workspace's stream heard nothing of this one.
    expect(newsOf(elsewhereStream, ada.user_id)).to.deep.equal([]);
  });

  it('an organization key has no presence of its own, but reads and follows the organization’s', async () => {
    const { org } = await team();
    for (const answer of [await beat(org.org_api_key, { type: 'environment', id: org.global_environment_id }), await as(org.org_api_key).delete('/v1/presence')]) {
      expect(answer.status).to.equal(403);
      expect(errorOf(answer).details).to.match(/personal API key/);
    }
    expect((await as(org.org_api_key).get('/v1/presence')).status).to.equal(200);
    expect((await request('GET', '/v1/presence')).status).to.equal(401);
    expect((await request('GET', '/v1/events')).status).to.equal(401);
  });

  it('a location the member may not see is the same 404 as an unknown one', async () => {
    const { org, ada, bob } = await team();
    const other = await newOrg('presence-other');
    const personalEnv = (await as(ada.key).post('/v1/environments', { name: 'mine', scope: 'user' })).body.environment.id;
    const personalWorkspace = await insertReplica(org.organization_id, { userId: ada.user_id });
    const otherWorkspace = await insertReplica(other.organization_id);

    const unknownEnv = await beat(bob.key, { type: 'environment', id: randomUUID() });
    const unknownWs = await beat(bob.key, { type: 'workspace', id: randomUUID() });
    expect(unknownEnv.status).to.equal(404);
    expect(unknownWs.status).to.equal(404);
    for (const [location, unknown] of [
      [{ type: 'environment', id: personalEnv }, unknownEnv],
      [{ type: 'environment', id: other.global_environment_id }, unknownEnv],
      [{ type: 'workspace', id: personalWorkspace }, unknownWs],
      [{ type: 'workspace', id: otherWorkspace }, unknownWs],
      // An environment id named as a workspace, and the other way round.
      [{ type: 'workspace', id: org.global_environment_id }, unknownWs],
    ] as const) {
      const answer = await beat(bob.key, location);
      expect(answer.status, JSON.stringify(location)).to.equal(404);
      expect(answer.body).to.deep.equal(unknown.body);
    }
    expect(await online(bob.key)).to.deep.equal([]);
    // Ada may be in her own.
    expect((await beat(ada.key, { type: 'environment', id: personalEnv })).status).to.equal(200);
    expect((await beat(ada.key, { type: 'workspace', id: personalWorkspace })).status).to.equal(200);
    // Another organization's member cannot follow this organization's workspace either.
    const foreign = await openWorkspaceStream(personalWorkspace, other.admin.personal_api_key);
    streams.push(foreign);
    expect(foreign.status).to.equal(404);
  });

  it('answers a bad body or query with 400 and the Error body', async () => {
    const { org, ada } = await team();
    const environment = { type: 'environment', id: org.global_environment_id };
    for (const body of [
      {},
      { typing: true },
      { location: { type: 'repository', id: randomUUID() } },
      { location: { type: 'environment', id: 'not-a-uuid' } },
      { location: { type: 'environment' } },
      { location: environment, typing: 'yes' },
      { location: environment, extra: 1 },
      { location: { ...environment, extra: 1 } },
    ]) {
      const answer = await as(ada.key).put('/v1/presence', body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(answer).error).to.be.a('string');
    }
    const notJson = await request('PUT', '/v1/presence', { key: ada.key, rawBody: '{', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).to.equal(400);
    errorOf(notJson);
    for (const query of ['?location_type=workspace', `?location_id=${randomUUID()}`, '?location_type=team&location_id=' + randomUUID(), '?location_type=workspace&location_id=x']) {
      const answer = await as(ada.key).get(`/v1/presence${query}`);
      expect(answer.status, query).to.equal(400);
      errorOf(answer);
    }
    expect(await online(ada.key)).to.deep.equal([]);
  });
});
