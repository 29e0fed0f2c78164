/**
 * The typed client (client/) against the running API: its types are what the API serves, and
 * its calls, errors and event following work over real HTTP.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createHangarClient, HangarError, type ReplicaEvent } from '../../../client/src';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { CLIENT_TYPES, clientTypes } from '../../../scripts/client';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { insertReplica } from '../replicas/activitySupport';

describe('the typed client', function () {
  it('has the types of the document the API serves (npm run client:generate when not)', async () => {
    const served = (await (await fetch(`${harness().baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    expect(await clientTypes(served)).to.equal(readFileSync(CLIENT_TYPES, 'utf8'));
  });

  it('calls operations with typed parameters and answers', async () => {
    const org = await newOrg('typed-client');
    const hangar = createHangarClient({ baseUrl: harness().baseUrl, apiKey: org.org_api_key });
    const created = await hangar.call(hangar.api.POST('/v1/environments', { body: { name: 'from-the-client' } }));
    const environments = await hangar.call(hangar.api.GET('/v1/environments'));
    expect(environments.environments.map((e) => e.id)).to.include(created.environment.id);
    const replica = await insertReplica(org.organization_id);
    const got = await hangar.call(hangar.api.GET('/v1/replica/{id}', { params: { path: { id: replica } } }));
    expect((got.replica as { id?: string }).id).to.equal(replica);
  });

  it("throws HangarError with the spec's Error body and status", async () => {
    const org = await newOrg('typed-client');
    const hangar = createHangarClient({ baseUrl: harness().baseUrl, apiKey: org.org_api_key });
    const missing = await hangar.call(hangar.api.GET('/v1/replica/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } })).catch((err: unknown) => err);
    expect(missing).to.be.instanceOf(HangarError);
    expect((missing as HangarError).status).to.equal(404);
    expect((missing as HangarError).error).to.be.a('string').with.length.above(0);

    const wrongKey = createHangarClient({ baseUrl: harness().baseUrl, apiKey: 'not-a-key' });
    const refused = await wrongKey.call(wrongKey.api.GET('/v1/environments')).catch((err: unknown) => err);
    expect((refused as HangarError).status).to.equal(401);
  });

  it("follows a replica's events from an id on, and stops when asked", async () => {
    const org = await newOrg('typed-client');
    const hangar = createHangarClient({ baseUrl: harness().baseUrl, apiKey: org.org_api_key });
    const replica = await insertReplica(org.organization_id);
    const emitter = createReplicaEventEmitter(harness().database.repos.replicaEvents, harness().database.bus);
    const first = await emitter.emit(replica, 'engine.ready', { version: 'v1' });
    const second = await emitter.emit(replica, 'chat.created', { chat: { id: 'c1' } });

    const controller = new AbortController();
    const seen: ReplicaEvent[] = [];
    const following = (async () => {
      for await (const event of hangar.events(replica, { after: first.id, signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 2) controller.abort();
      }
    })();
    const third = await emitter.emit(replica, 'chat.turn.delta', { chatId: 'c1', text: 'hello\nworld' });
    await following;
    expect(seen.map((e) => e.id)).to.deep.equal([second.id, third.id]);
    expect(seen[1]).to.deep.include({ type: 'chat.turn.delta' });
    expect(seen[1]!.payload).to.deep.equal({ chatId: 'c1', text: 'hello\nworld' });
  });
});
