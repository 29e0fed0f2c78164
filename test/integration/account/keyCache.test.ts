/**
 * API keys answered from memory, and revoked everywhere within a second: a second API process
 * holds a key in its cache, the key is revoked through another process's HTTP API, and the
 * second process refuses it on its next request. Both ways the news travels are covered: Redis
 * pub/sub (the shared harness sets REDIS_URL) and the database's bus (PostgreSQL NOTIFY; the
 * in-process bus on the embedded database).
 */
import { expect } from 'chai';
import { hashApiKey } from '../../../src/crypto/apiKeys';
import { randomBytes } from 'node:crypto';
import { harness } from '../../support/harness';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';

const get = (base: string, key: string) => fetch(`${base}/v1/environments`, { headers: { authorization: `Bearer ${key}` } }).then((res) => res.status);
const revoke = (base: string, adminKey: string, keyId: string) =>
  fetch(`${base}/v1/organization/api-keys/${keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${adminKey}` } }).then((res) => res.status);

/** Uses `key` through `api` until its cache holds it (the cache trusts itself once it hears its own heartbeat). */
async function cachedIn(api: ApiProcessHandle, key: string): Promise<void> {
  await until(
    'the key to be cached',
    async () => (await get(api.url, key)) === 200 && api.api.services.identity.holdsKey(hashApiKey(key)),
    10_000,
    50,
  );
}

/** Milliseconds until `key` is refused through `base`; fails past one second. */
/**
 * Waits for `key` to be refused by the API at `base`: the news of a revocation, well before the
 * other process's cache entry expires (60 s by default), however busy the machine.
 */
async function refusedSoon(base: string, key: string): Promise<void> {
  await until('the revoked key to be refused, long before the cached entry expires', async () => (await get(base, key)) === 401, 20_000, 10);
}

describe('API keys cached across API processes', function () {
  const opened: ApiProcessHandle[] = [];
  const open = async (overrides: Record<string, string> = {}) => {
    const api = await startApiProcess(overrides);
    opened.push(api);
    return api;
  };

  afterEach(async () => {
    for (const api of opened.splice(0)) await api.close();
  });

  it('a key revoked through one process is refused by another long before its cache entry expires (Redis)', async () => {
    expect(harness().config.redisUrl, 'the shared harness runs with Redis').to.be.a('string');
    const second = await open();
    const org = await newOrg('key-cache-redis');
    const key = await harness().admin.createKey({ organizationId: org.organization_id, kind: 'org' });
    await cachedIn(second, key.api_key);

    expect(await revoke(harness().baseUrl, org.org_api_key, key.key_id)).to.equal(200);
    await refusedSoon(second.url, key.api_key);
    expect(await get(harness().baseUrl, key.api_key)).to.equal(401);
    expect(await get(second.url, org.org_api_key)).to.equal(200);
  });

  it('a key revoked through one process is refused by another long before its cache entry expires (database bus, no Redis)', async () => {
    // Two processes of their own, so that neither hears the news on Redis.
    const withoutRedis = { REDIS_URL: '', HANGAR_REDIS_PREFIX: `hangar-keycache-${randomBytes(4).toString('hex')}:` };
    const [first, second] = [await open(withoutRedis), await open(withoutRedis)];
    const org = await newOrg('key-cache-bus');
    const key = await harness().admin.createKey({ organizationId: org.organization_id, kind: 'org' });
    await cachedIn(second, key.api_key);
    await cachedIn(first, key.api_key);

    expect(await revoke(first.url, org.org_api_key, key.key_id)).to.equal(200);
    expect(await get(first.url, key.api_key)).to.equal(401);
    await refusedSoon(second.url, key.api_key);
  });

  it('notices a key revoked behind the API’s back once its entry expires', async () => {
    const api = await open({ HANGAR_API_KEY_CACHE_SECONDS: '1' });
    const org = await newOrg('key-cache-ttl');
    const key = await harness().admin.createKey({ organizationId: org.organization_id, kind: 'org' });
    await cachedIn(api, key.api_key);
    await harness().database.db('api_keys').where({ id: key.key_id }).update({ revoked_at: new Date() });
    await until('the entry to expire', async () => (await get(api.url, key.api_key)) === 401, 15_000, 50);
  });

  it('answers a brand-new key at once, though a made-up key was refused a moment before', async () => {
    const api = await open();
    const org = await newOrg('key-cache-new');
    await cachedIn(api, org.org_api_key);
    expect(await get(api.url, 'hgr_org_madeUpKeyThatDoesNotExist000000000000')).to.equal(401);
    const created = await fetch(`${harness().baseUrl}/v1/organization/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fresh' }),
    }).then((res) => res.json() as Promise<{ api_key: { key: string } }>);
    expect(await get(api.url, created.api_key.key)).to.equal(200);
  });
});
