/**
 * Rate limits through the public API, on API processes of this file's own (small limits, a
 * Redis prefix of their own), never the shared harness's: 429 with the Error body, Retry-After
 * and the RateLimit fields once a bucket is empty; keys apart from each other; an address
 * charged for its failed authentications; buckets shared by two processes through Redis.
 */
import { expect } from 'chai';
import { hashApiKey } from '../../../src/crypto/apiKeys';
import { randomBytes } from 'node:crypto';
import { aiUpstream, harness } from '../../support/harness';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { as, errorOf, newOrg, type Answer } from '../../support/http';
import { until } from '../../support/wait';
import { insertWorkspaceRow } from '../../support/workspaceRow';
import { startUpstream } from '../gateway/upstream';

async function call(base: string, path: string, key?: string, method = 'GET'): Promise<Answer> {
  const res = await fetch(base + path, { method, headers: key ? { authorization: `Bearer ${key}` } : {}, body: method === 'POST' ? '{}' : undefined });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text, headers: res.headers };
}

const prefix = () => `hangar-ratelimit-${randomBytes(4).toString('hex')}:`;

/**
 * The wait a `RateLimit` field gives (`"<name>";r=<remaining>;t=<seconds>`). A token comes back
 * every 100 s and the bucket refills the whole time, so the wait is 100 s less however long the
 * calls before took (a second or more on a busy machine): it is read, and bounded, not fixed.
 */
function waitOf(field: string | null, name: string, remaining: number): number {
  const match = new RegExp(`^"${name}";r=${remaining};t=(\\d+)$`).exec(field ?? '');
  expect(match, `RateLimit: ${field}`).to.not.equal(null);
  const seconds = Number(match![1]);
  expect(seconds).to.be.within(1, 100);
  return seconds;
}

describe('rate limits', function () {
  const opened: ApiProcessHandle[] = [];
  const open = async (settings: Record<string, string>) => {
    const api = await startApiProcess(settings);
    opened.push(api);
    return api;
  };

  afterEach(async () => {
    for (const api of opened.splice(0)) await api.close();
  });

  // A burst of 3, one more token every 100 s: the fourth request in a row is refused.
  const smallKeyBucket = { HANGAR_RATE_LIMIT_KEY_BURST: '3', HANGAR_RATE_LIMIT_KEY_PER_SECOND: '0.01' };

  for (const store of ['Redis', 'in-process'] as const) {
    it(`answers 429 with Retry-After and the RateLimit fields once a key's bucket is empty, and keeps keys apart (${store})`, async () => {
      const api = await open({ ...smallKeyBucket, HANGAR_REDIS_PREFIX: prefix(), ...(store === 'in-process' ? { REDIS_URL: '' } : {}) });
      const org = await newOrg('rate-limit-key');
      const other = await harness().admin.createKey({ organizationId: org.organization_id, kind: 'org' });

      const allowed = [];
      for (let i = 0; i < 3; i++) allowed.push(await call(api.url, '/v1/environments', org.org_api_key));
      expect(allowed.map((a) => a.status)).to.deep.equal([200, 200, 200]);
      allowed.forEach((a, i) => waitOf(a.headers.get('ratelimit'), 'key', 2 - i));
      expect(allowed[0]!.headers.get('ratelimit-policy')).to.equal('"key";q=3;w=300');

      const refused = await call(api.url, '/v1/environments', org.org_api_key);
      expect(refused.status).to.equal(429);
      const wait = waitOf(refused.headers.get('ratelimit'), 'key', 0);
      expect(errorOf(refused)).to.deep.equal({
        error: 'Too many requests',
        details: `an API key may send 3 requests at once and 0.01 a second; retry in ${wait} s`,
      });
      expect(refused.headers.get('retry-after')).to.equal(String(wait));
      expect(refused.headers.get('ratelimit-policy')).to.equal('"key";q=3;w=300');

      // Another key of the same organization has a bucket of its own.
      expect((await call(api.url, '/v1/environments', other.api_key)).status).to.equal(200);
    });
  }

  it('charges an address for failed authentications, and then refuses it anything without a verified key', async () => {
    // Ten tokens, one more every 100 s; a failed authentication costs all ten.
    const api = await open({ HANGAR_REDIS_PREFIX: prefix(), HANGAR_RATE_LIMIT_IP_BURST: '10', HANGAR_RATE_LIMIT_IP_PER_SECOND: '0.01', HANGAR_RATE_LIMIT_FAILED_AUTH_COST: '10' });
    const org = await newOrg('rate-limit-ip');
    // A key this process has verified (and holds) before the address runs dry.
    await until('the key to be held', async () => (await call(api.url, '/v1/environments', org.org_api_key)).status === 200 && api.api.services.identity.holdsKey(hashApiKey(org.org_api_key)), 10_000, 50);

    const bad = 'hgr_org_thisKeyDoesNotExistAnywhere0000000000';
    expect((await call(api.url, '/v1/environments', bad)).status).to.equal(401);
    const refused = await call(api.url, '/v1/environments', bad);
    expect(refused.status).to.equal(429);
    const wait = waitOf(refused.headers.get('ratelimit'), 'ip', 0);
    expect(errorOf(refused).details).to.equal(`an address may send 10 requests without a verified credential at once and 0.01 a second; a failed authentication counts as 10; retry in ${wait} s`);
    expect(refused.headers.get('retry-after')).to.equal(String(wait));
    expect(refused.headers.get('ratelimit-policy')).to.equal('"ip";q=10;w=1000');

    // Requests without a key from the same address (a webhook, the API description) wait too,
    expect((await call(api.url, '/openapi.json')).status).to.equal(429);
    expect((await call(api.url, '/v1/automations/webhook/some-token', undefined, 'POST')).status).to.equal(429);
    // but the key this process holds goes on, and so do health probes.
    expect((await call(api.url, '/v1/environments', org.org_api_key)).status).to.equal(200);
    expect((await call(api.url, '/healthz')).status).to.equal(200);
  });

  it("buckets a workspace's calls only by a credential that was verified: forged keys naming it are charged to their own addresses", async () => {
    // Addresses come from X-Forwarded-For (one proxy of the operator's), so a test can be several
    // clients. A workspace may send 5 at once; an address 10, and a failed authentication costs 10.
    const api = await open({
      HANGAR_REDIS_PREFIX: prefix(),
      HANGAR_RATE_LIMIT_PROXY_HOPS: '1',
      HANGAR_RATE_LIMIT_KEY_BURST: '5',
      HANGAR_RATE_LIMIT_KEY_PER_SECOND: '0.01',
      HANGAR_RATE_LIMIT_IP_BURST: '10',
      HANGAR_RATE_LIMIT_IP_PER_SECOND: '0.01',
      HANGAR_RATE_LIMIT_FAILED_AUTH_COST: '10',
    });
    const upstream = await startUpstream(aiUpstream().port);
    try {
      const org = await newOrg('rate-limit-workspace');
      expect((await as(org.org_api_key).post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: 'sk-ant-rate-limit-test-000000' })).status).to.equal(200);
      const w = await insertWorkspaceRow(org.organization_id);
      const compactId = w.id.replace(/-/g, '');
      const fromW = { 'x-forwarded-for': '10.9.9.9' };
      const gatewayCall = (key: string, headers: Record<string, string>) =>
        fetch(`${api.url}/v1/ai-gateway/agent_1/v1/messages`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ model: 'claude-test-1', max_tokens: 5, messages: [] }),
        }).then(async (res) => ({ status: res.status, policy: res.headers.get('ratelimit-policy'), body: await res.text() }));
      const engineCall = (secret: string, headers: Record<string, string>) =>
        fetch(`${api.url}/v1/workspaces/${w.id}/plugins`, { headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': w.id, ...headers } }).then(async (res) => ({ status: res.status, policy: res.headers.get('ratelimit-policy'), body: await res.text() }));

      // W's own calls, once each, as any workspace makes them.
      expect((await gatewayCall(w.key, fromW)).status).to.equal(200);
      expect((await engineCall(w.engineSecret, fromW)).status).to.equal(200);

      // A few addresses flood W's id with keys and secrets they cannot have.
      for (const attacker of ['10.1.1.1', '10.1.1.2', '10.1.1.3']) {
        const statuses: number[] = [];
        const policies = new Set<string | null>();
        for (let i = 0; i < 10; i++) {
          const forgedKey = `hgw_${compactId}_${randomBytes(32).toString('base64url').slice(0, 43)}`;
          for (const answer of [await gatewayCall(forgedKey, { 'x-forwarded-for': attacker }), await engineCall(randomBytes(32).toString('base64url'), { 'x-forwarded-for': attacker })]) {
            statuses.push(answer.status);
            if (answer.status === 429) policies.add(answer.policy);
          }
        }
        expect(new Set(statuses), attacker).to.deep.equal(new Set([401, 429]));
        // Refused on the attacker's own address, not on W's bucket.
        expect([...policies], attacker).to.deep.equal(['"ip";q=10;w=1000']);
      }

      // W goes on: its verified calls come out of its own bucket (both credentials share it),
      // which nobody else could touch: all five tokens are there.
      for (let i = 0; i < 5; i++) {
        const answer = i % 2 === 0 ? await gatewayCall(w.key, fromW) : await engineCall(w.engineSecret, fromW);
        expect(answer.status, answer.body).to.equal(200);
        expect(answer.policy).to.equal('"workspace";q=5;w=500');
      }
      // And the bucket is W's alone: past its burst, W itself is limited.
      const past = await gatewayCall(w.key, fromW);
      expect(past.status).to.equal(429);
      expect(past.policy).to.equal('"workspace";q=5;w=500');
    } finally {
      await upstream.close();
    }
  });

  it('shares the buckets between API processes through Redis', async () => {
    const shared = { ...smallKeyBucket, HANGAR_RATE_LIMIT_KEY_BURST: '4', HANGAR_REDIS_PREFIX: prefix() };
    const [first, second] = [await open(shared), await open(shared)];
    const org = await newOrg('rate-limit-shared');
    const statuses = [];
    for (const api of [first, second, first, second, first, second]) statuses.push((await call(api.url, '/v1/environments', org.org_api_key)).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
  });

  it('answers 2,000 made-up keys in a row mostly with 429, as the issue asked', async () => {
    // Default limits: 1,000 tokens an address, 10 a failure, 50 more a second.
    const api = await open({ HANGAR_REDIS_PREFIX: prefix() });
    const counts: Record<number, number> = {};
    const bad = (i: number) => `hgr_org_madeUp${String(i).padStart(32, '0')}`;
    for (let i = 0; i < 2000; i += 20) {
      const batch = await Promise.all(Array.from({ length: 20 }, (_, j) => call(api.url, '/v1/environments', bad(i + j))));
      for (const answer of batch) counts[answer.status] = (counts[answer.status] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).to.deep.equal(['401', '429']);
    expect(counts[429]).to.be.above(1500);
  });
});
