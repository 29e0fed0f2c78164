import { expect } from 'chai';
import { createPostgresBus, type EventBus } from '../../../src/events/bus';
import { createReplicaEventEmitter, type ReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { silentLogger } from '../../../src/logger';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { client, EventStreamReader, insertReplica, startActivityApp, type ActivityApp } from './activitySupport';

const db = () => harness().database.db;
const storedIds = async (replicaId: string) => (await db()('replica_events').where({ replica_id: replicaId }).orderBy('id').pluck('id')).map(String);

/** `workers` emitters in parallel, each emitting `each` events; other replicas' events interleave. */
async function emitConcurrently(emitter: ReplicaEventEmitter, replicaId: string, workers: number, each: number, noiseReplicaId?: string) {
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; i < each; i++) {
        await emitter.emit(replicaId, 'chat.turn.delta', { worker: w, i });
        if (noiseReplicaId && i % 3 === 0) await emitter.emit(noiseReplicaId, 'noise', { w, i });
      }
    }),
  );
}

describe('replica events stream', function () {
  let app: ActivityApp;
  let emitter: ReplicaEventEmitter;
  before(async () => {
    app = await startActivityApp();
    emitter = createReplicaEventEmitter(harness().database.repos.replicaEvents, harness().database.bus);
  });
  after(async () => {
    await app.close();
  });

  const open = (replicaId: string, key: string, query = '', headers: Record<string, string> = {}) =>
    EventStreamReader.open(`${app.baseUrl}/v1/replica/${replicaId}/events${query}`, key, headers);

  it('streams live events as `id:` + `data: {id, ts, type, payload}`, without replaying the past', async () => {
    const org = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const before = await emitter.emit(replica, 'engine.ready', { version: 'v1' });
    const stream = await open(replica, org.org_api_key);
    try {
      expect(stream.status).to.equal(200);
      expect(stream.contentType).to.match(/^text\/event-stream/);
      const emitted = [
        await emitter.emit(replica, 'chat.created', { chat: { id: 'c1' }, clientRequestId: 'r1' }),
        await emitter.emit(replica, 'chat.turn.delta', { chatId: 'c1', event: { type: 'agent_1-assistant', payload: { text: 'line\nbreak' } } }),
      ];
      await stream.until('two events', () => stream.messages.length >= 2);
      expect(stream.messages.map((m) => m.id)).to.deep.equal(emitted.map((e) => e.id));
      expect(stream.messages.every((m) => m.event === null)).to.equal(true);
      expect(stream.messages.map((m) => m.data)).to.deep.equal(emitted);
      expect(stream.ids).not.to.include(before.id);
      expect(stream.retry).to.be.a('number');
    } finally {
      stream.close();
    }
  });

  it('replays after ?after= or Last-Event-ID (the header wins), in order', async () => {
    const org = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const emitted = [];
    for (let i = 0; i < 5; i++) emitted.push(await emitter.emit(replica, 'hooks.progress', { running: i, completed: i }));
    const all = await open(replica, org.org_api_key, '?after=0');
    const fromQuery = await open(replica, org.org_api_key, `?after=${emitted[1]!.id}`);
    const fromHeader = await open(replica, org.org_api_key, `?after=0`, { 'Last-Event-ID': emitted[3]!.id });
    try {
      await all.until('all five', () => all.messages.length >= 5);
      await fromQuery.until('three', () => fromQuery.messages.length >= 3);
      await fromHeader.until('one', () => fromHeader.messages.length >= 1);
      const live = await emitter.emit(replica, 'chat.deleted', { chatId: 'x' });
      for (const s of [all, fromQuery, fromHeader]) await s.until('the live event', () => s.ids.includes(live.id));
      expect(all.ids).to.deep.equal([...emitted.map((e) => e.id), live.id]);
      expect(fromQuery.ids).to.deep.equal([...emitted.slice(2).map((e) => e.id), live.id]);
      expect(fromHeader.ids).to.deep.equal([emitted[4]!.id, live.id]);
    } finally {
      for (const s of [all, fromQuery, fromHeader]) s.close();
    }
  });

  it('loses nothing across reconnects while several emitters write concurrently', async () => {
    const org = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const noise = await insertReplica(org.organization_id);
    const received: string[] = [];
    let lastId: string | null = null;
    const emitting = emitConcurrently(emitter, replica, 6, 60, noise);
    let done = false;
    void emitting.then(() => (done = true));
    // Reconnect over and over, each time from the last id received, as EventSource does.
    for (let round = 0; !done || round < 3; round++) {
      const stream = await open(replica, org.org_api_key, lastId === null ? '?after=0' : '', lastId === null ? {} : { 'Last-Event-ID': lastId });
      await stream.until('some events', () => stream.messages.length >= 15 || done, 30_000);
      stream.close();
      received.push(...stream.ids);
      if (stream.ids.length > 0) lastId = stream.ids[stream.ids.length - 1]!;
    }
    await emitting;
    const tail = await open(replica, org.org_api_key, '', { 'Last-Event-ID': lastId! });
    const stored = await storedIds(replica);
    expect(stored).to.have.length(360);
    try {
      await tail.until('the rest', () => received.length + tail.messages.length >= stored.length);
      received.push(...tail.ids);
    } finally {
      tail.close();
    }
    expect(received).to.deep.equal(stored);
  });

  it('delivers to every API process, each over its own bus, in the same order', async () => {
    const url = harness().config.databaseUrl!;
    const buses: EventBus[] = [createPostgresBus(url, silentLogger), createPostgresBus(url, silentLogger), createPostgresBus(url, silentLogger)];
    const apps = [await startActivityApp({ bus: buses[0] }), await startActivityApp({ bus: buses[1] })];
    const third = createReplicaEventEmitter(harness().database.repos.replicaEvents, buses[2]!);
    const org = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const noise = await insertReplica(org.organization_id);
    const streams = await Promise.all(apps.map((a) => EventStreamReader.open(`${a.baseUrl}/v1/replica/${replica}/events`, org.org_api_key)));
    try {
      // Both streams are live before anything is emitted: a NOTIFY reaches only listeners.
      await Promise.all(streams.map((s) => s.until('the stream to open', () => s.retry !== null)));
      await emitConcurrently(third, replica, 4, 50, noise);
      const stored = await storedIds(replica);
      for (const s of streams) await s.until('every event', () => s.messages.length >= stored.length);
      expect(streams[0]!.ids).to.deep.equal(stored);
      expect(streams[1]!.ids).to.deep.equal(stored);
    } finally {
      for (const s of streams) s.close();
      for (const a of apps) await a.close();
      for (const b of buses) await b.close();
    }
  });

  it('holds back later events until an earlier-numbered one commits, then sends both in order', async () => {
    const org = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const stream = await open(replica, org.org_api_key);
    let releaseFirst: () => void = () => {};
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstId = '';
    let taken: () => void = () => {};
    const idTaken = new Promise<void>((resolve) => (taken = resolve));
    // The first event takes its id inside a transaction that stays open.
    const transaction = db().transaction(async (trx) => {
      firstId = (await emitter.emit(replica, 'chat.created', { n: 1 }, trx)).id;
      taken();
      await held;
    });
    try {
      await idTaken;
      const second = await emitter.emit(replica, 'chat.updated', { n: 2 });
      expect(BigInt(second.id) > BigInt(firstId)).to.equal(true);
      // The second event is committed and announced; a reader that sent it now would skip the
      // first for good. Give the stream time to (wrongly) do so.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.ids).to.deep.equal([]);
      releaseFirst();
      await transaction;
      await stream.until('both events', () => stream.messages.length >= 2);
      expect(stream.ids).to.deep.equal([firstId, second.id]);
    } finally {
      releaseFirst();
      await transaction;
      stream.close();
    }
  });

  it('sends comment heartbeats and ends when the replica is deleted', async () => {
    const fast = await startActivityApp({ heartbeatMs: 100 });
    try {
      const org = await newOrg();
      const replica = await insertReplica(org.organization_id);
      const stream = await EventStreamReader.open(`${fast.baseUrl}/v1/replica/${replica}/events`, org.org_api_key);
      await stream.until('two heartbeats', () => stream.comments.filter((c) => c === 'heartbeat').length >= 2);
      expect(stream.messages).to.deep.equal([]);
      await db()('replicas').where({ id: replica }).update({ deleted_at: new Date() });
      await stream.until('the end of the stream', () => stream.ended);
    } finally {
      await fast.close();
    }
  });

  it('lets go of its bus subscription when the client goes away', async () => {
    const inner = harness().database.bus;
    let live = 0;
    const counting: EventBus = {
      publish: (channel, message) => inner.publish(channel, message),
      async subscribe(channel, handler) {
        const unsubscribe = await inner.subscribe(channel, handler);
        live++;
        return async () => {
          live--;
          await unsubscribe();
        };
      },
      close: async () => {},
    };
    const counted = await startActivityApp({ bus: counting });
    try {
      const org = await newOrg();
      const replica = await insertReplica(org.organization_id);
      const streams = await Promise.all([1, 2, 3].map(() => EventStreamReader.open(`${counted.baseUrl}/v1/replica/${replica}/events`, org.org_api_key)));
      expect(live).to.equal(3);
      for (const s of streams) s.close();
      await streams[0]!.until('every subscription released', () => live === 0);
    } finally {
      await counted.close();
    }
  });

  it('answers bad cursors, unknown replicas and missing keys with JSON errors', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const replica = await insertReplica(org.organization_id);
    const api = client(app, org.org_api_key);
    const badQuery = await api.get(`/v1/replica/${replica}/events?after=abc`);
    expect(badQuery.status).to.equal(400);
    expect(badQuery.body.details).to.match(/^query\.after: must match pattern/);
    const badHeader = await api.get(`/v1/replica/${replica}/events`, { 'Last-Event-ID': '12; DROP' });
    expect(badHeader.status).to.equal(400);
    expect(badHeader.body.details).to.match(/last-event-id/);
    const foreign = await client(app, other.org_api_key).get(`/v1/replica/${replica}/events`);
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({ error: 'Replica not found', details: null });
    expect((await client(app).get(`/v1/replica/${replica}/events`)).status).to.equal(401);
  });
});
