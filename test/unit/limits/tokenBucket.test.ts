import { expect } from 'chai';
import { loadConfig } from '../../../src/config';
import { addressBucket, clientAddress } from '../../../src/limits/clientAddress';
import { createMemoryBucketStore, settle } from '../../../src/limits/tokenBucket';

describe('token buckets', () => {
  const policy = { burst: 3, perSecond: 2 };

  it('lets a burst through, refuses the next request, and refills at the rate', async () => {
    let now = 1_000;
    const store = createMemoryBucketStore({ now: () => now });
    const taken = [];
    for (let i = 0; i < 3; i++) taken.push(await store.take('a', policy, 1));
    expect(taken.map((v) => [v.allowed, v.remaining])).to.deep.equal([
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    const refused = await store.take('a', policy, 1);
    expect(refused).to.deep.equal({ allowed: false, remaining: 0, retryAfterMs: 500, nextTokenMs: 500 });
    expect(store.emptyFor('a', policy)).to.equal(500);
    now += 499;
    expect((await store.take('a', policy, 1)).allowed).to.equal(false);
    now += 1;
    expect(store.emptyFor('a', policy)).to.equal(0);
    expect(await store.take('a', policy, 1)).to.include({ allowed: true, remaining: 0 });
    now += 10_000;
    expect(await store.take('a', policy, 1)).to.include({ allowed: true, remaining: 2 });
  });

  it('keeps buckets apart', async () => {
    const store = createMemoryBucketStore({ now: () => 0 });
    for (let i = 0; i < 3; i++) await store.take('a', policy, 1);
    expect((await store.take('a', policy, 1)).allowed).to.equal(false);
    expect((await store.take('b', policy, 1)).allowed).to.equal(true);
  });

  it('refuses a cost it cannot pay without taking anything, and drains into debt without refusing', async () => {
    let now = 0;
    const store = createMemoryBucketStore({ now: () => now });
    expect(await store.take('a', policy, 5)).to.deep.equal({ allowed: false, remaining: 3, retryAfterMs: 1000, nextTokenMs: 0 });
    // 3 - 5: two tokens owed, so the next token is 1.5 s away.
    expect(await store.drain('a', policy, 5)).to.deep.equal({ allowed: true, remaining: 0, retryAfterMs: 0, nextTokenMs: 1500 });
    expect(store.emptyFor('a', policy)).to.equal(1500);
    expect(await store.take('a', policy, 1)).to.deep.equal({ allowed: false, remaining: 0, retryAfterMs: 1500, nextTokenMs: 1500 });
    // Debt stops at minus the burst.
    await store.drain('a', policy, 100);
    expect(store.emptyFor('a', policy)).to.equal(2000);
    now += 2000;
    expect((await store.take('a', policy, 1)).allowed).to.equal(true);
  });

  it('answers when the next whole token is due', () => {
    const { verdict } = settle({ tokens: 1.25, at: 0 }, { burst: 10, perSecond: 1 }, 1, 0, 'take');
    expect(verdict).to.deep.equal({ allowed: true, remaining: 0, retryAfterMs: 0, nextTokenMs: 750 });
  });
});

describe('client addresses', () => {
  it('uses the socket address unless the operator trusts proxies', () => {
    expect(clientAddress('10.0.0.5', '1.2.3.4', 0)).to.equal('10.0.0.5');
    expect(clientAddress('10.0.0.5', 'spoofed, 1.2.3.4', 1)).to.equal('1.2.3.4');
    expect(clientAddress('10.0.0.5', 'spoofed, 1.2.3.4, 10.0.0.9', 2)).to.equal('1.2.3.4');
    expect(clientAddress('10.0.0.5', '1.2.3.4', 3)).to.equal('1.2.3.4');
    expect(clientAddress('10.0.0.5', 'not-an-address', 1)).to.equal('10.0.0.5');
  });

  it('limits IPv6 clients per /64 and unmaps IPv4-mapped addresses', () => {
    expect(addressBucket('::ffff:127.0.0.1')).to.equal('127.0.0.1');
    expect(addressBucket('2001:db8:0:1:aaaa::1')).to.equal('2001:db8:0:1::/64');
    expect(addressBucket('2001:DB8:0:1:ffff:ffff:ffff:ffff')).to.equal('2001:db8:0:1::/64');
    expect(addressBucket('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(addressBucket('::1')).to.equal('0:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).to.equal('fe80:0:0:0::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).to.equal('64:ff9b:0:0::/64');
  });
});

describe('rate limit settings', () => {
  it('are on with generous defaults, and each one is a setting', () => {
    expect(loadConfig({}).rateLimit).to.deep.equal({
      key: { burst: 1000, perSecond: 100 },
      ip: { burst: 1000, perSecond: 50 },
      failedAuthCost: 10,
      proxyHops: 0,
    });
    const tuned = loadConfig({
      HANGAR_RATE_LIMIT_KEY_BURST: '5',
      HANGAR_RATE_LIMIT_KEY_PER_SECOND: '1',
      HANGAR_RATE_LIMIT_IP_BURST: '20',
      HANGAR_RATE_LIMIT_IP_PER_SECOND: '0.5',
      HANGAR_RATE_LIMIT_FAILED_AUTH_COST: '4',
      HANGAR_RATE_LIMIT_PROXY_HOPS: '1',
    }).rateLimit;
    expect(tuned).to.deep.equal({ key: { burst: 5, perSecond: 1 }, ip: { burst: 20, perSecond: 0.5 }, failedAuthCost: 4, proxyHops: 1 });
  });

  it('can be switched off, and refuse nonsense', () => {
    expect(loadConfig({ HANGAR_RATE_LIMIT: 'off' }).rateLimit).to.equal(null);
    expect(() => loadConfig({ HANGAR_RATE_LIMIT: 'sometimes' })).to.throw(/HANGAR_RATE_LIMIT must be on or off/);
    expect(() => loadConfig({ HANGAR_RATE_LIMIT_KEY_BURST: '0' })).to.throw(/HANGAR_RATE_LIMIT_KEY_BURST must be between/);
    expect(() => loadConfig({ HANGAR_RATE_LIMIT_KEY_PER_SECOND: '-1' })).to.throw(/HANGAR_RATE_LIMIT_KEY_PER_SECOND must be a number/);
    expect(() => loadConfig({ HANGAR_RATE_LIMIT_KEY_PER_SECOND: '0' })).to.throw(/HANGAR_RATE_LIMIT_KEY_PER_SECOND must be between/);
    expect(() => loadConfig({ HANGAR_RATE_LIMIT_IP_BURST: '5', HANGAR_RATE_LIMIT_FAILED_AUTH_COST: '6' })).to.throw(/must not exceed/);
  });

  it('keep verified API keys for a minute by default; 0 turns the cache off', () => {
    expect(loadConfig({}).apiKeyCache).to.deep.equal({ ttlMs: 60_000, maxEntries: 10_000 });
    expect(loadConfig({ HANGAR_API_KEY_CACHE_SECONDS: '0' }).apiKeyCache.ttlMs).to.equal(0);
  });
});
