import { expect } from 'chai';
import { BUILTIN_MODELS } from '../../../src/agents/builtinModels';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

const [A1, A2, A3] = BUILTIN_MODELS.source_a.map((m) => m.id) as [string, string, string];
const [B1, B2] = BUILTIN_MODELS.source_b.map((m) => m.id) as [string, string];

describe('enabled models', () => {
  it('starts with nothing enabled and lets an admin enable ids from each catalog, in order', async () => {
    const org = await newOrg('enabled');
    const api = as(org.org_api_key);
    expect((await api.get('/v1/ai-gateway/enabled-models')).body).to.deep.equal({ enabled_models: { source_a: [], source_b: [] } });

    const put = await api.put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A3, A1] });
    expect(put.status).to.equal(200);
    expect(put.body).to.deep.equal({ enabled_models: { source_a: [A3, A1], source_b: [] } });
    await as(org.admin.personal_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_b', model_ids: [B2] });
    expect((await api.get('/v1/ai-gateway/enabled-models')).body).to.deep.equal({ enabled_models: { source_a: [A3, A1], source_b: [B2] } });

    // A PUT replaces one catalog's list; an empty list returns to the default.
    await api.put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A2] });
    await api.put('/v1/ai-gateway/enabled-models', { source: 'source_b', model_ids: [] });
    expect((await api.get('/v1/ai-gateway/enabled-models')).body).to.deep.equal({ enabled_models: { source_a: [A2], source_b: [] } });
  });

  it('keeps organizations apart', async () => {
    const one = await newOrg('enabled-one');
    const two = await newOrg('enabled-two');
    await as(one.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A1] });
    expect((await as(two.org_api_key).get('/v1/ai-gateway/enabled-models')).body.enabled_models.source_a).to.deep.equal([]);
  });

  it('lets members read but not change them (403)', async () => {
    const org = await newOrg('enabled-member');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com', role: 'member' });
    const api = as(member.personal_api_key);
    expect((await api.get('/v1/ai-gateway/enabled-models')).status).to.equal(200);
    const res = await api.put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A1] });
    expect(res.status).to.equal(403);
    expect(errorOf(res).error).to.match(/admin/);
    expect((await api.get('/v1/ai-gateway/enabled-models')).body.enabled_models.source_a).to.deep.equal([]);
  });

  it('rejects ids that are not in the current catalog, naming them (400)', async () => {
    const org = await newOrg('enabled-unknown');
    const api = as(org.org_api_key);
    const res = await api.put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A1, 'made-up-model', B1] });
    expect(res.status).to.equal(400);
    const { details } = errorOf(res);
    expect(details).to.include('"made-up-model"').and.include(`"${B1}"`).and.include('source_a');
    expect(details).not.to.include(`"${A1}"`);
    expect((await api.get('/v1/ai-gateway/enabled-models')).body.enabled_models.source_a).to.deep.equal([]);
  });

  it('validates the body (400) and requires a key (401)', async () => {
    const api = as((await newOrg('enabled-body')).org_api_key);
    const bodies: Array<[unknown, RegExp]> = [
      [{ source: 'source_c', model_ids: [] }, /body\.source/],
      [{ source: 'source_a' }, /model_ids/],
      [{ source: 'source_a', model_ids: 'a1-large' }, /body\.model_ids/],
      [{ source: 'source_a', model_ids: [A1, A1] }, /body\.model_ids/],
      [{ source: 'source_a', model_ids: [''] }, /body\.model_ids/],
      [{ source: 'source_a', model_ids: [], extra: true }, /body\.extra/],
    ];
    for (const [body, detail] of bodies) {
      const res = await api.put('/v1/ai-gateway/enabled-models', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details).to.match(detail);
    }
    expect((await request('GET', '/v1/ai-gateway/enabled-models')).status).to.equal(401);
    expect((await request('PUT', '/v1/ai-gateway/enabled-models', { body: { source: 'source_a', model_ids: [] } })).status).to.equal(401);
  });

  it('decides which models an agent may use: agent_3 the enabled ids, else the built-in list', async () => {
    const org = await newOrg('allowed');
    const catalog = harness().api.services.modelCatalog;
    const allowed = (agent: 'agent_1' | 'agent_3' | 'agent_4' | 'agent_5', model: string) => catalog.isModelAllowed(org.organization_id, agent, model);

    expect(await allowed('agent_3', A1)).to.equal(true);
    expect(await allowed('agent_3', A2)).to.equal(true);
    expect(await allowed('agent_3', 'anything-else')).to.equal(false);
    expect(await allowed('agent_4', 'vendor/any-model')).to.equal(true);
    expect(await allowed('agent_1', 'whatever')).to.equal(true);

    await as(org.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [A2] });
    expect(await allowed('agent_3', A2)).to.equal(true);
    expect(await allowed('agent_3', A1)).to.equal(false);

    await as(org.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_b', model_ids: [B1] });
    expect(await allowed('agent_4', B1)).to.equal(true);
    expect(await allowed('agent_5', B1)).to.equal(true);
    expect(await allowed('agent_5', B2)).to.equal(false);
    expect(await allowed('agent_3', A2)).to.equal(true);

    await as(org.org_api_key).put('/v1/ai-gateway/enabled-models', { source: 'source_a', model_ids: [] });
    expect(await allowed('agent_3', A1)).to.equal(true);
  });
});
