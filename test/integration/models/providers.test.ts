/**
 * The catalog with an organization key: a Hangar app (real auth, validation and database) whose
 * catalog service reads the key from a stub and calls local servers speaking the providers'
 * wire formats, so every provider failure can be staged.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { AgentId } from '../../../src/agents/catalog';
import { createApp } from '../../../src/http/app';
import { modelsRoutes } from '../../../src/http/routes/models';
import { createLogger } from '../../../src/logger';
import { createModelCatalogService, type ModelCatalogService } from '../../../src/services/modelCatalog';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';
import { startFakeProvider, type FakeBehaviour, type FakeModel, type FakeProvider } from '../../support/fakeProviders';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';

const LIVE_A: FakeModel[] = [
  { id: 'live-a-1', name: 'Live One', description: 'first live model' },
  { id: 'live-a-2', name: 'Live Two' },
  { id: 'live-a-3' },
];
const LIVE_B: FakeModel[] = [
  { id: 'vendor/live-b-1', name: 'Gateway One', description: 'routed model' },
  { id: 'vendor/live-b-2', name: 'Gateway Two', description: 'another routed model' },
];

interface CatalogApp {
  url: string;
  service: ModelCatalogService;
  logs: string[];
  /** organization id → agent → secret */
  secrets: Map<string, Partial<Record<AgentId, string>>>;
  secretLookups: number;
  get(key: string, path: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

async function startCatalogApp(options: {
  sourceA?: FakeProvider;
  sourceB?: FakeProvider;
  ttlMs?: number;
  timeoutMs?: number;
  /** Instead of the `secrets` map: e.g. the real credentials service. */
  organizationSecret?: (organizationId: string, agent: AgentId) => Promise<string | null>;
}): Promise<CatalogApp> {
  const logs: string[] = [];
  const logger = createLogger({ level: 'debug', write: (line) => logs.push(line) });
  const secrets = new Map<string, Partial<Record<AgentId, string>>>();
  const app = {} as CatalogApp;
  const service = createModelCatalogService({
    repos: harness().database.repos,
    config: {
      ...harness().config,
      sourceABaseUrl: options.sourceA?.url,
      sourceBBaseUrl: options.sourceB?.url,
      modelCatalogTtlMs: options.ttlMs ?? 60_000,
      modelProviderTimeoutMs: options.timeoutMs ?? 500,
    },
    logger,
    organizationSecret: async (organizationId, agent) => {
      app.secretLookups++;
      if (options.organizationSecret) return options.organizationSecret(organizationId, agent);
      return secrets.get(organizationId)?.[agent] ?? null;
    },
  });
  const koa = createApp({ logger, identity: harness().api.services.identity, routes: modelsRoutes(service), bodyLimitBytes: 1 << 20 });
  const server: Server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(app, {
    url,
    service,
    logs,
    secrets,
    secretLookups: 0,
    async get(key: string, path: string) {
      const res = await fetch(url + path, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

const ids = (body: { models: Array<{ id: string }> }) => body.models.map((m) => m.id);
const newSecret = () => `sk-live-${randomBytes(12).toString('hex')}`;

describe('model catalog with provider keys', () => {
  let fakeA: FakeProvider;
  let fakeB: FakeProvider;
  const apps: CatalogApp[] = [];
  const start = async (options: Parameters<typeof startCatalogApp>[0]) => {
    const app = await startCatalogApp(options);
    apps.push(app);
    return app;
  };

  beforeEach(async () => {
    fakeA = await startFakeProvider('source_a', { kind: 'ok', models: LIVE_A });
    fakeB = await startFakeProvider('source_b', { kind: 'ok', models: LIVE_B });
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    await Promise.all([fakeA.close(), fakeB.close()]);
  });

  it('serves the live source_a list fetched with the agent_3 key, searchable and paged', async () => {
    const app = await start({ sourceA: fakeA, sourceB: fakeB });
    const org = await newOrg('live-a');
    const secret = newSecret();
    app.secrets.set(org.organization_id, { agent_3: secret });

    const res = await app.get(org.org_api_key, '/v1/ai-gateway/models');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      source: 'source_a',
      models: [
        { id: 'live-a-1', displayName: 'Live One', description: 'first live model' },
        { id: 'live-a-2', displayName: 'Live Two' },
        { id: 'live-a-3', displayName: 'live-a-3' },
      ],
      page: 1,
      total: 3,
      limit: 20,
      totalPages: 1,
    });
    expect(fakeA.requests).to.deep.equal([{ method: 'GET', path: '/v1/models', authorization: `Bearer ${secret}` }]);
    expect((await app.get(org.org_api_key, '/v1/ai-gateway/models?query=LIVE%20T')).body.models).to.deep.equal([{ id: 'live-a-2', displayName: 'Live Two' }]);
    const page2 = await app.get(org.org_api_key, '/v1/ai-gateway/models?limit=2&page=2');
    expect(page2.body).to.deep.include({ total: 3, totalPages: 2 });
    expect(ids(page2.body)).to.deep.equal(['live-a-3']);
    // Served from the cache: one provider call for all of the above.
    expect(fakeA.requests).to.have.length(1);
    expect(fakeB.requests).to.have.length(0);
  });

  it('serves the live source_b list with an agent_4 or, failing that, an agent_5 key', async () => {
    const app = await start({ sourceA: fakeA, sourceB: fakeB });
    const org4 = await newOrg('live-b4');
    const org5 = await newOrg('live-b5');
    app.secrets.set(org4.organization_id, { agent_4: 'sk-four', agent_5: 'sk-five-unused' });
    app.secrets.set(org5.organization_id, { agent_5: 'sk-five' });
    for (const [org, key] of [[org4, 'sk-four'], [org5, 'sk-five']] as const) {
      const res = await app.get(org.org_api_key, '/v1/ai-gateway/models?source=source_b&query=routed');
      expect(res.body).to.deep.include({ source: 'source_b', total: 2 });
      expect(ids(res.body)).to.deep.equal(['vendor/live-b-1', 'vendor/live-b-2']);
      expect(fakeB.requests.at(-1)).to.deep.equal({ method: 'GET', path: '/api/v1/models', authorization: `Bearer ${key}` });
    }
    // agent_3's key is not a gateway key, and source_a has none here.
    const res = await app.get(org4.org_api_key, '/v1/ai-gateway/models');
    expect(ids(res.body)).to.deep.equal(BUILTIN_MODELS.source_a.slice(0, 20).map((m) => m.id));
    expect(fakeA.requests).to.have.length(0);
  });

  it('fetches with the agent_3 key an admin stored through the credentials API', async () => {
    const credentials = harness().api.services.credentials;
    const app = await start({ sourceA: fakeA, organizationSecret: (organizationId, agent) => credentials.organizationSecret(organizationId, agent) });
    const org = await newOrg('stored-key');
    const secret = newSecret();
    const stored = await as(org.org_api_key).post('/v1/organization/credentials/agent_3', { kind: 'api_key', secret });
    expect(stored.status).to.equal(200);
    const res = await app.get(org.org_api_key, '/v1/ai-gateway/models');
    expect(ids(res.body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);
    expect(fakeA.requests.at(-1)?.authorization).to.equal(`Bearer ${secret}`);
    for (const line of [...app.logs, ...harness().logs]) expect(line).not.to.include(secret);
  });

  it('serves the built-in list without calling the provider when the organization has no key', async () => {
    const app = await start({ sourceA: fakeA, sourceB: fakeB });
    const org = await newOrg('no-key');
    const a = await app.get(org.org_api_key, '/v1/ai-gateway/models?limit=100');
    const b = await app.get(org.org_api_key, '/v1/ai-gateway/models?limit=100&source=source_b');
    expect(a.body.models).to.deep.equal(BUILTIN_MODELS.source_a);
    expect(b.body.models).to.deep.equal(BUILTIN_MODELS.source_b);
    expect(fakeA.requests.length + fakeB.requests.length).to.equal(0);
  });

  it('serves the built-in list when no provider URL is configured, even with a key', async () => {
    const app = await start({});
    const org = await newOrg('no-url');
    app.secrets.set(org.organization_id, { agent_3: newSecret(), agent_4: newSecret() });
    expect(ids((await app.get(org.org_api_key, '/v1/ai-gateway/models?limit=100')).body)).to.deep.equal(BUILTIN_MODELS.source_a.map((m) => m.id));
    expect((await app.get(org.org_api_key, '/v1/ai-gateway/models?source=source_b')).body.total).to.equal(BUILTIN_MODELS.source_b.length);
  });

  it('shares one provider fetch between concurrent requests of an organization', async () => {
    const app = await start({ sourceA: fakeA });
    const org = await newOrg('concurrent');
    app.secrets.set(org.organization_id, { agent_3: newSecret() });
    const release = fakeA.hold();
    const answers = Promise.all(Array.from({ length: 20 }, (_, i) => app.get(org.org_api_key, `/v1/ai-gateway/models?limit=1&page=${(i % 3) + 1}`)));
    await until('the provider call', async () => fakeA.requests.length === 1);
    release();
    const results = await answers;
    expect(results.map((r) => r.status)).to.deep.equal(Array(20).fill(200));
    for (const res of results) expect(res.body.total).to.equal(3);
    expect(fakeA.requests).to.have.length(1);
    expect(app.secretLookups).to.equal(1);
  });

  it('serves the cached list while refreshing it in the background once older than the TTL', async () => {
    const app = await start({ sourceA: fakeA, ttlMs: 200 });
    const org = await newOrg('swr');
    app.secrets.set(org.organization_id, { agent_3: newSecret() });
    expect(ids((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);

    fakeA.behave({ kind: 'ok', models: [{ id: 'live-a-next' }] });
    const release = fakeA.hold();
    // While the refresh is held at the provider, requests keep getting the cached list.
    await until('a background refresh', async () => {
      const res = await app.get(org.org_api_key, '/v1/ai-gateway/models');
      expect(ids(res.body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);
      return fakeA.requests.length === 2;
    });
    expect(ids((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);
    release();
    await until('the refreshed list', async () => ids((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body)[0] === 'live-a-next');
  });

  it('tags each page with an ETag, answers 304 to it while the list holds, and a new one once the list changes', async () => {
    const app = await start({ sourceA: fakeA, ttlMs: 200 });
    const org = await newOrg('etag');
    app.secrets.set(org.organization_id, { agent_3: newSecret() });
    // As a browser revalidates (fetch() would add `Cache-Control: no-cache`, an end-to-end reload).
    const get = (path: string, etag?: string) =>
      fetch(app.url + path, {
        headers: { authorization: `Bearer ${org.org_api_key}`, ...(etag ? { 'if-none-match': etag, 'cache-control': 'max-age=0' } : {}) },
      });
    const first = await get('/v1/ai-gateway/models?limit=2');
    const etag = first.headers.get('etag');
    expect(first.status).to.equal(200);
    expect(etag).to.match(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers.get('cache-control')).to.equal('private, no-cache');
    expect(first.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(ids((await first.json()) as { models: Array<{ id: string }> })).to.deep.equal(['live-a-1', 'live-a-2']);

    const again = await get('/v1/ai-gateway/models?limit=2', etag!);
    expect(again.status).to.equal(304);
    expect(again.headers.get('etag')).to.equal(etag);
    expect(await again.text()).to.equal('');
    // Another page, or another key's tag, is a full answer.
    const second = await get('/v1/ai-gateway/models?limit=2&page=2', etag!);
    expect(second.status).to.equal(200);
    expect(second.headers.get('etag')).not.to.equal(etag);
    expect(ids((await second.json()) as { models: Array<{ id: string }> })).to.deep.equal(['live-a-3']);

    fakeA.behave({ kind: 'ok', models: [{ id: 'live-a-next' }] });
    await until('the refreshed list under a new ETag', async () => {
      const res = await get('/v1/ai-gateway/models?limit=2', etag!);
      if (res.status === 304) return false;
      expect(res.status).to.equal(200);
      expect(res.headers.get('etag')).not.to.equal(etag);
      return ids((await res.json()) as { models: Array<{ id: string }> })[0] === 'live-a-next';
    });
  });

  const failures: Array<[string, FakeBehaviour]> = [
    ['a timeout', { kind: 'slow', delayMs: 10_000, models: [{ id: 'too-late' }] }],
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['HTTP 401 (a revoked provider key)', { kind: 'status', status: 401 }],
    ['malformed JSON', { kind: 'malformed' }],
    ['a wrong shape', { kind: 'body', body: { models: [{ id: 'x' }] } }],
    ['an empty list', { kind: 'body', body: { data: [] } }],
  ];
  for (const [what, behaviour] of failures) {
    it(`falls back to the last good list, then to the built-in one, on ${what}; never a 5xx`, async () => {
      const app = await start({ sourceA: fakeA, ttlMs: 100, timeoutMs: 300 });
      const org = await newOrg('fallback');
      const secret = newSecret();
      app.secrets.set(org.organization_id, { agent_3: secret });
      expect(ids((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);

      fakeA.behave(behaviour);
      await until('failed refreshes', async () => {
        const res = await app.get(org.org_api_key, '/v1/ai-gateway/models');
        expect(res.status).to.equal(200);
        expect(ids(res.body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);
        return app.logs.filter((l) => l.includes('model provider failed') && l.includes(org.organization_id)).length >= 2;
      }, 20_000);
      const warning = JSON.parse(app.logs.find((l) => l.includes('model provider failed') && l.includes(org.organization_id))!);
      expect(warning).to.include({ level: 'warn', source: 'source_a', fallback: 'last_good' });

      // A new process has no memory: it serves the last good list stored for this key.
      const restarted = await start({ sourceA: fakeA, timeoutMs: 300 });
      restarted.secrets.set(org.organization_id, { agent_3: secret });
      const afterRestart = await restarted.get(org.org_api_key, '/v1/ai-gateway/models');
      expect(afterRestart.status).to.equal(200);
      expect(ids(afterRestart.body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);

      // A different key never fetched a good list: the built-in one.
      const rekeyed = await start({ sourceA: fakeA, timeoutMs: 300 });
      rekeyed.secrets.set(org.organization_id, { agent_3: newSecret() });
      const builtin = await rekeyed.get(org.org_api_key, '/v1/ai-gateway/models?limit=100');
      expect(builtin.status).to.equal(200);
      expect(builtin.body.models).to.deep.equal(BUILTIN_MODELS.source_a);

      for (const line of [...app.logs, ...restarted.logs, ...rekeyed.logs, ...harness().logs]) expect(line).not.to.include(secret);
    });
  }

  it('serves the built-in list when the provider fails on the first fetch, and recovers when it answers again', async () => {
    fakeB.behave({ kind: 'status', status: 503 });
    const app = await start({ sourceB: fakeB, ttlMs: 100 });
    const org = await newOrg('first-fail');
    app.secrets.set(org.organization_id, { agent_4: newSecret() });
    const res = await app.get(org.org_api_key, '/v1/ai-gateway/models?source=source_b&limit=100');
    expect(res.status).to.equal(200);
    expect(res.body.models).to.deep.equal(BUILTIN_MODELS.source_b);
    fakeB.behave({ kind: 'ok', models: LIVE_B });
    await until('the live list', async () => (await app.get(org.org_api_key, '/v1/ai-gateway/models?source=source_b')).body.total === 2);
  });

  it('never writes the provider key to a log line, whatever the provider answers', async () => {
    const app = await start({ sourceA: fakeA, sourceB: fakeB, ttlMs: 100, timeoutMs: 300 });
    const org = await newOrg('leak');
    const secretA = newSecret();
    const secretB = newSecret();
    app.secrets.set(org.organization_id, { agent_3: secretA, agent_5: secretB });
    // The failing fake echoes the Authorization header in its error body.
    for (const behaviour of [{ kind: 'ok', models: LIVE_A }, { kind: 'status', status: 500 }, { kind: 'malformed' }] as FakeBehaviour[]) {
      fakeA.behave(behaviour);
      fakeB.behave(behaviour.kind === 'ok' ? { kind: 'ok', models: LIVE_B } : behaviour);
      const before = fakeA.requests.length;
      await until('a provider call', async () => {
        await app.get(org.org_api_key, '/v1/ai-gateway/models');
        await app.get(org.org_api_key, '/v1/ai-gateway/models?source=source_b');
        return fakeA.requests.length > before + 1;
      });
    }
    expect(app.logs.some((l) => l.includes('model provider failed'))).to.equal(true);
    expect(app.logs.some((l) => l.includes('"route":"/v1/ai-gateway/models"'))).to.equal(true);
    const everything = [...app.logs, ...harness().logs].join('\n');
    expect(everything).not.to.include(secretA);
    expect(everything).not.to.include(secretB);
    // Snapshots are saved beside the answer, not before it.
    const stored = await until('both sources\' snapshots', async () => {
      const rows = await harness().database.db('model_catalog_snapshots').where({ organization_id: org.organization_id });
      return rows.length >= 2 && rows;
    });
    expect(stored).to.have.length(2);
    expect(JSON.stringify(stored)).not.to.include(secretA);
    expect(JSON.stringify(stored)).not.to.include(secretB);
  });

  it('lets admins enable ids from the live list, and only from it', async () => {
    const app = await start({ sourceA: fakeA });
    const org = await newOrg('enable-live');
    app.secrets.set(org.organization_id, { agent_3: newSecret() });
    const put = (modelIds: string[]) =>
      fetch(app.url + '/v1/ai-gateway/enabled-models', {
        method: 'PUT',
        headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ source: 'source_a', model_ids: modelIds }),
      });
    const ok = await put(['live-a-2']);
    expect(ok.status).to.equal(200);
    expect(await ok.json()).to.deep.equal({ enabled_models: { source_a: ['live-a-2'], source_b: [] } });
    const builtinId = BUILTIN_MODELS.source_a[0]!.id;
    const rejected = await put(['live-a-1', builtinId]);
    expect(rejected.status).to.equal(400);
    expect(((await rejected.json()) as { details: string }).details).to.include(`"${builtinId}"`).and.not.include('"live-a-1"');
    expect(await app.service.isModelAllowed(org.organization_id, 'agent_3', 'live-a-2')).to.equal(true);
    expect(await app.service.isModelAllowed(org.organization_id, 'agent_3', builtinId)).to.equal(false);
  });

  it('drops an organization’s cached lists on invalidate, so a newly connected key takes effect', async () => {
    const app = await start({ sourceA: fakeA });
    const org = await newOrg('invalidate');
    expect((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body.total).to.equal(BUILTIN_MODELS.source_a.length);
    app.secrets.set(org.organization_id, { agent_3: newSecret() });
    expect((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body.total).to.equal(BUILTIN_MODELS.source_a.length);
    app.service.invalidate(org.organization_id);
    expect(ids((await app.get(org.org_api_key, '/v1/ai-gateway/models')).body)).to.deep.equal(['live-a-1', 'live-a-2', 'live-a-3']);
  });
});
