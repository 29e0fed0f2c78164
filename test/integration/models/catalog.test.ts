import { expect } from 'chai';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

/** Without an organization key (or a provider URL) both catalogs are the built-in lists. */
describe('model catalog API', () => {
  let api: ReturnType<typeof as>;
  before(async () => {
    api = as((await newOrg('models')).org_api_key);
  });

  it('answers 401 with the Error body for a missing, malformed or unknown key', async () => {
    for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Bearer hgr_org_unknown' }] as Array<Record<string, string>>) {
      const res = await request('GET', '/v1/ai-gateway/models', { headers });
      expect(res.status).to.equal(401);
      expect(errorOf(res).error).to.equal('Invalid or missing API key');
    }
  });

  it('serves the built-in source_a list by default, 20 a page', async () => {
    const res = await api.get('/v1/ai-gateway/models');
    expect(res.status).to.equal(200);
    const all = BUILTIN_MODELS.source_a;
    expect(res.body).to.deep.equal({ source: 'source_a', models: all.slice(0, 20), page: 1, total: all.length, limit: 20, totalPages: 1 });
    for (const model of res.body.models) expect(Object.keys(model)).to.satisfy((keys: string[]) => keys.every((k) => ['id', 'displayName', 'description'].includes(k)));
  });

  it('serves the built-in source_b list with the model-router models', async () => {
    const res = await api.get('/v1/ai-gateway/models?source=source_b&limit=100');
    expect(res.status).to.equal(200);
    expect(res.body.source).to.equal('source_b');
    expect(res.body.total).to.equal(BUILTIN_MODELS.source_b.length);
    expect(res.body.models.map((m: { id: string }) => m.id)).to.include.members([
      'z-ai/glm-5.2',
      'minimax/minimax-m3',
      'xiaomi/mimo-v2.5-pro',
      'moonshotai/kimi-k2.6',
    ]);
  });

  it('matches query case-insensitively against id, displayName and description', async () => {
    const ids = async (q: string, source = 'source_b') =>
      (await api.get(`/v1/ai-gateway/models?source=${source}&limit=100&query=${encodeURIComponent(q)}`)).body.models.map((m: { id: string }) => m.id);
    expect(await ids('KIMI')).to.deep.equal(['moonshotai/kimi-k2.6']);
    expect(await ids('z-ai/')).to.deep.equal(['z-ai/glm-5.2']);
    expect(await ids('MiMo V2.5')).to.deep.equal(['xiaomi/mimo-v2.5-pro']);
    expect(await ids('agentic model with TOOL use')).to.deep.equal(['moonshotai/kimi-k2.6']);
    expect(await ids('no such model anywhere')).to.deep.equal([]);
    const coder = BUILTIN_MODELS.source_a.filter((m) => `${m.id}|${m.displayName}|${m.description}`.toLowerCase().includes('coder'));
    expect(await ids('Coder', 'source_a')).to.deep.equal(coder.map((m) => m.id));
  });

  it('pages through a search, with an empty page past the end and the right total', async () => {
    const q = 'a1';
    const matching = BUILTIN_MODELS.source_a.filter((m) => `${m.id}|${m.displayName}|${m.description}`.toLowerCase().includes(q));
    expect(matching.length).to.be.greaterThan(4);
    const first = await api.get(`/v1/ai-gateway/models?query=${q}&limit=3`);
    const second = await api.get(`/v1/ai-gateway/models?query=${q}&limit=3&page=2`);
    expect(first.body.models.map((m: { id: string }) => m.id)).to.deep.equal(matching.slice(0, 3).map((m) => m.id));
    expect(second.body).to.deep.include({ page: 2, limit: 3, total: matching.length, totalPages: Math.ceil(matching.length / 3) });
    expect(second.body.models.map((m: { id: string }) => m.id)).to.deep.equal(matching.slice(3, 6).map((m) => m.id));
    const past = await api.get(`/v1/ai-gateway/models?query=${q}&limit=3&page=50`);
    expect(past.status).to.equal(200);
    expect(past.body).to.deep.equal({ source: 'source_a', models: [], page: 50, total: matching.length, limit: 3, totalPages: Math.ceil(matching.length / 3) });
    const none = await api.get('/v1/ai-gateway/models?query=zzzz-nothing');
    expect(none.body).to.deep.include({ models: [], total: 0, totalPages: 0, page: 1 });
  });

  it('accepts the bounds: page 1, limit 1 and limit 100', async () => {
    const one = await api.get('/v1/ai-gateway/models?page=1&limit=1');
    expect(one.body).to.deep.include({ page: 1, limit: 1, totalPages: BUILTIN_MODELS.source_a.length });
    expect(one.body.models).to.have.length(1);
    expect((await api.get('/v1/ai-gateway/models?limit=100')).body.limit).to.equal(100);
  });

  it('answers 400 naming the parameter for out-of-bounds or malformed values', async () => {
    const cases: Array<[string, RegExp]> = [
      ['page=0', /query\.page/],
      ['page=-1', /query\.page/],
      ['limit=0', /query\.limit/],
      ['limit=101', /query\.limit/],
      ['page=1.5', /query\.page/],
      ['limit=2.5', /query\.limit/],
      ['page=abc', /query\.page/],
      ['limit=ten', /query\.limit/],
      ['page=', /query\.page/],
      ['source=source_c', /query\.source/],
      ['source=SOURCE_A', /query\.source/],
      ['page=1&page=2', /query\.page/],
      ['sort=id', /query\.sort/],
    ];
    for (const [qs, detail] of cases) {
      const res = await api.get(`/v1/ai-gateway/models?${qs}`);
      expect(res.status, qs).to.equal(400);
      expect(errorOf(res).details, qs).to.match(detail);
    }
  });

  it('answers a repeated query string the same every time, valid or not, and per operation', async () => {
    // The API keeps valid query strings it has parsed (src/http/app.ts); none of that may show.
    for (let round = 0; round < 3; round++) {
      const paged = await api.get('/v1/ai-gateway/models?page=2&limit=2&source=source_b');
      expect(paged.body).to.deep.include({ source: 'source_b', page: 2, limit: 2 });
      expect(paged.body.models.map((m: { id: string }) => m.id)).to.deep.equal(BUILTIN_MODELS.source_b.slice(2, 4).map((m) => m.id));
      const refused = await api.get('/v1/ai-gateway/models?page=0&limit=2');
      expect(refused.status).to.equal(400);
      expect(errorOf(refused).details).to.match(/query\.page/);
    }
    // The same string on an operation that takes no such parameter is its own question.
    const other = await api.get('/v1/environments?page=2&limit=2&source=source_b');
    expect(other.status).to.equal(400);
    expect(errorOf(other).details).to.match(/query\.source: unknown field/);
  });

  it('logs the request without the key', async () => {
    const org = await newOrg('models-log');
    await as(org.org_api_key).get('/v1/ai-gateway/models?query=a1');
    const logs = harness().logs.join('\n');
    expect(logs).to.include('"route":"/v1/ai-gateway/models"');
    expect(logs).not.to.include(org.org_api_key);
  });
});
