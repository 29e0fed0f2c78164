/**
 * Presence across API processes: a second API, with its own Redis connection (the harness's
 * prefix) and its own PostgreSQL bus connection, sweeping on its own timer, beside the
 * harness's API. What one process hears, the other shows; an expiry is announced once.
 */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createPostgresBus, type EventBus } from '../../../src/events/bus';
import { createApp } from '../../../src/http/app';
import { organizationEventRoutes } from '../../../src/http/routes/organizationEvents';
import { presenceRoutes } from '../../../src/http/routes/presence';
import { silentLogger } from '../../../src/logger';
import { createRedisPresenceStore } from '../../../src/presence';
import { createPresenceService, type PresenceService } from '../../../src/services/presence';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { EventStreamReader } from '../replicas/activitySupport';

describe('presence across API processes', function () {
  let bus: EventBus;
  let presence: PresenceService;
  let server: Server;
  let secondUrl: string;
  const streams: EventStreamReader[] = [];

  before(async () => {
    const { config, database } = harness();
    bus = createPostgresBus(config.databaseUrl!, silentLogger);
    presence = createPresenceService({
      repos: database.repos,
      store: createRedisPresenceStore({ url: config.redisUrl!, prefix: config.redisPrefix, ttlMs: config.presenceTtlMs, logger: silentLogger }),
      bus,
      ttlMs: config.presenceTtlMs,
      logger: silentLogger,
    });
    presence.startSweeping();
    const app = createApp({
      logger: silentLogger,
      identity: harness().api.services.identity,
      routes: [...presenceRoutes(presence), ...organizationEventRoutes(presence, { logger: silentLogger })],
      bodyLimitBytes: 1 << 20,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    for (const stream of streams) stream.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await presence.close();
    await bus.close();
  });

  const call = (base: string, method: string, path: string, key: string, body?: unknown) =>
    fetch(base + path, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }).then(
      async (res) => ({ status: res.status, body: (await res.json()) as any }),
    );

  it('a heartbeat to one process shows on the other at once, and its expiry is announced once', async () => {
    const org = await newOrg('presence-processes');
    const bob = await harness().admin.createUser({ organizationId: org.organization_id, email: 'bob-processes@example.com', displayName: 'Bob' });
    const first = harness().baseUrl;
    const onFirst = await EventStreamReader.open(`${first}/v1/events`, bob.personal_api_key);
    const onSecond = await EventStreamReader.open(`${secondUrl}/v1/events`, org.org_api_key);
    streams.push(onFirst, onSecond);

    const put = await call(secondUrl, 'PUT', '/v1/presence', org.admin.personal_api_key, { location: { type: 'environment', id: org.global_environment_id }, typing: true });
    expect(put.status).to.equal(200);
    expect((await call(first, 'GET', '/v1/presence', bob.personal_api_key, undefined)).body.members).to.deep.equal([put.body.presence]);
    const types = (s: EventStreamReader) => s.messages.map((m) => `${m.data.type} ${m.data.payload.change ?? m.data.payload.reason}`);
    for (const s of [onFirst, onSecond]) await s.until('the join', () => types(s).length === 1, 10_000);

    // Both processes sweep; the member expires; each stream hears of it exactly once.
    await until('the expiry on both', async () => [onFirst, onSecond].every((s) => types(s).includes('presence.left expired')), 8000, 50);
    // Absence cannot be awaited: give every sweeper two more rounds (750 ms each) to repeat it,
    // then make another change; a repeated departure would have been published before it.
    const expiresAt = Date.parse(put.body.presence.expires_at);
    await until('two more sweeps', async () => Date.now() > expiresAt + 2000, 5000, 50);
    await call(first, 'PUT', '/v1/presence', bob.personal_api_key, { location: { type: 'environment', id: org.global_environment_id } });
    for (const s of [onFirst, onSecond]) await s.until('Bob', () => types(s).length === 3, 10_000);
    for (const s of [onFirst, onSecond]) expect(types(s)).to.deep.equal(['presence.changed joined', 'presence.left expired', 'presence.changed joined']);
  });
});
