import { expect } from 'chai';
import type { ActiveKey } from '../../../src/db/identityRepository';
import { createMemoryBus, type EventBus } from '../../../src/events/bus';
import { silentLogger } from '../../../src/logger';
import { createApiKeyCache, type ApiKeyCache } from '../../../src/services/apiKeyCache';
import { until } from '../../support/wait';

const key = (keyId: string, organizationId = 'org-1', userId: string | null = 'user-1'): ActiveKey => ({
  keyId,
  kind: userId ? 'personal' : 'org',
  organizationId,
  userId,
  role: 'member',
  lastUsedAt: null,
});

/** A bus that can stop delivering, as a dropped LISTEN connection would. */
function deafenable(bus: EventBus) {
  let deaf = false;
  return {
    bus: {
      publish: (channel: string, message: string) => (deaf ? Promise.resolve() : bus.publish(channel, message)),
      subscribe: bus.subscribe.bind(bus),
      close: bus.close.bind(bus),
    } satisfies EventBus,
    deafen: (value: boolean) => void (deaf = value),
  };
}

describe('API key cache', () => {
  const caches: ApiKeyCache[] = [];
  const open = (bus: EventBus, ttlMs = 60_000) => {
    const cache = createApiKeyCache({ bus, ttlMs, maxEntries: 100, logger: silentLogger, heartbeatMs: 20 });
    caches.push(cache);
    return cache;
  };
  const ready = (cache: ApiKeyCache, hash = 'probe') =>
    until('the heartbeat', async () => {
      await cache.lookup(hash, async () => key('probe-key'));
      return cache.peek(hash) !== undefined;
    }, 2000, 10);
  const loader = (answer: ActiveKey | null) => {
    const calls = { count: 0 };
    return { calls, load: async () => (calls.count++, answer) };
  };

  afterEach(async () => {
    for (const cache of caches.splice(0)) await cache.close();
  });

  it('answers a verified key from memory, but looks an unknown one up every time', async () => {
    const cache = open(createMemoryBus());
    await ready(cache);
    const known = loader(key('k1'));
    expect(await cache.lookup('h1', known.load)).to.deep.include({ keyId: 'k1' });
    expect(await cache.lookup('h1', known.load)).to.deep.include({ keyId: 'k1' });
    expect(known.calls.count).to.equal(1);
    const unknown = loader(null);
    expect(await cache.lookup('h2', unknown.load)).to.equal(null);
    expect(await cache.lookup('h2', unknown.load)).to.equal(null);
    expect(unknown.calls.count).to.equal(2);
  });

  it('trusts nothing while it does not hear its own heartbeat', async () => {
    const quiet = deafenable(createMemoryBus());
    quiet.deafen(true);
    const cache = open(quiet.bus);
    const { calls, load } = loader(key('k1'));
    for (let i = 0; i < 3; i++) await cache.lookup('h1', load);
    expect(cache.peek('h1')).to.equal(undefined);
    expect(calls.count).to.equal(3);
  });

  it('forgets a revoked key in every process on the bus', async () => {
    const bus = createMemoryBus();
    const [here, there] = [open(bus), open(bus)];
    await ready(here);
    await ready(there);
    for (const cache of [here, there]) {
      await cache.lookup('h1', async () => key('k1'));
      await cache.lookup('h2', async () => key('k2'));
    }
    await here.announce({ keyId: 'k1' });
    for (const cache of [here, there]) {
      expect(cache.peek('h1')).to.equal(undefined);
      expect(cache.peek('h2')).to.deep.include({ keyId: 'k2' });
    }
  });

  it("forgets every key of a user or of an organization", async () => {
    const cache = open(createMemoryBus());
    await ready(cache);
    await cache.lookup('a', async () => key('ka', 'org-1', 'user-1'));
    await cache.lookup('b', async () => key('kb', 'org-1', 'user-2'));
    await cache.lookup('c', async () => key('kc', 'org-2', null));
    await cache.announce({ userId: 'user-1' });
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')].map((k) => k?.keyId)).to.deep.equal([undefined, 'kb', 'kc']);
    await cache.announce({ organizationId: 'org-1' });
    expect([cache.peek('b'), cache.peek('c')].map((k) => k?.keyId)).to.deep.equal([undefined, 'kc']);
  });

  it('does not keep a lookup that was in flight when a change arrived', async () => {
    const cache = open(createMemoryBus());
    await ready(cache);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = cache.lookup('h1', async () => {
      await gate;
      return key('k1');
    });
    await cache.announce({ keyId: 'k1' });
    release();
    expect(await pending).to.deep.include({ keyId: 'k1' });
    expect(cache.peek('h1')).to.equal(undefined);
  });

  it('empties itself and reads the database while the bus is quiet, and trusts it again once it is back', async () => {
    const line = deafenable(createMemoryBus());
    const cache = open(line.bus);
    await ready(cache);
    await cache.lookup('h1', async () => key('k1'));
    line.deafen(true);
    await until('the cache to stop trusting a quiet bus', async () => cache.peek('h1') === undefined, 2000, 10);
    const { calls, load } = loader(key('k1'));
    await cache.lookup('h1', load);
    await cache.lookup('h1', load);
    expect(calls.count).to.equal(2);
    line.deafen(false);
    await ready(cache, 'h1');
  });

  it('lets entries expire after their lifetime', async () => {
    const cache = open(createMemoryBus(), 50);
    await ready(cache);
    const { calls, load } = loader(key('k1'));
    await cache.lookup('h1', load);
    await until('the entry to expire', async () => cache.peek('h1') === undefined, 2000, 10);
    await cache.lookup('h1', load);
    expect(calls.count).to.equal(2);
  });
});
