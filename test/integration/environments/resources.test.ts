import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const MISSING = '00000000-0000-4000-8000-000000000000';

/** One valid body per sub-resource, so the access rules can be checked across all four. */
const samples = {
  variables: { key: 'API_TOKEN', value: 'v' },
  files: { path: '~/.npmrc', content: 'registry=http://registry.local/' },
  skills: { name: 'PDF Toolkit', slug: 'pdf', source: 'github:agent-skills/documents/skills/pdf' },
  mcps: { name: 'docs', transport: 'http', config: { url: 'https://mcp.example.com/sse' } },
} as const;
const itemKey = { variables: 'environment_variable', files: 'environment_file', skills: 'environment_skill', mcps: 'environment_mcp' } as const;
const listKey = { variables: 'environment_variables', files: 'environment_files', skills: 'environment_skills', mcps: 'environment_mcps' } as const;
const countKey = { variables: 'variable_count', files: 'file_count', skills: 'skill_count', mcps: 'mcp_count' } as const;
const kinds = Object.keys(samples) as Array<keyof typeof samples>;

describe('environment sub-resources: access rules', () => {
  it('answers every collection under the global alias and under Global\'s id alike', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    for (const kind of kinds) {
      const created = await api.post(`/v1/environments/global/${kind}`, samples[kind]);
      expect(created.status, kind).to.equal(201);
      expect(created.body[itemKey[kind]]).to.include({ environment_id: org.global_environment_id, organization_id: org.organization_id });
      const byAlias = await api.get(`/v1/environments/global/${kind}`);
      const byId = await api.get(`/v1/environments/${org.global_environment_id}/${kind}`);
      expect(byAlias.status).to.equal(200);
      expect(byAlias.body).to.deep.equal(byId.body);
      expect(byAlias.body[listKey[kind]]).to.deep.equal([created.body[itemKey[kind]]]);
    }
    const global = (await api.get('/v1/environments/global')).body.environment;
    expect(global).to.include({ variable_count: 1, file_count: 1, skill_count: 1, mcp_count: 1 });
  });

  it('bumps the environment\'s updated_at and counts on every change', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'web' })).body.environment;
    let last = env.updated_at as string;
    const bumped = async () => {
      const now = (await api.get(`/v1/environments/${env.id}`)).body.environment;
      expect(new Date(now.updated_at).getTime()).to.be.greaterThan(new Date(last).getTime());
      last = now.updated_at;
      return now;
    };
    for (const kind of kinds) {
      const item = (await api.post(`/v1/environments/${env.id}/${kind}`, samples[kind])).body[itemKey[kind]];
      expect((await bumped())[countKey[kind]]).to.equal(1);
      const del = await api.delete(`/v1/environments/${env.id}/${kind}/${item.id}`);
      expect(del.status).to.equal(200);
      expect(del.body).to.deep.equal({ success: true });
      expect((await bumped())[countKey[kind]]).to.equal(0);
    }
    const variable = (await api.post(`/v1/environments/${env.id}/variables`, { key: 'A', value: '1' })).body.environment_variable;
    await bumped();
    expect((await api.patch(`/v1/environments/${env.id}/variables/${variable.id}`, { value: '2' })).status).to.equal(200);
    await bumped();
  });

  it('hides another organization\'s environments and items behind 404', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const env = (await as(a.org_api_key).post('/v1/environments', { name: 'private' })).body.environment;
    const other = as(b.org_api_key);
    for (const kind of kinds) {
      const item = (await as(a.org_api_key).post(`/v1/environments/${env.id}/${kind}`, samples[kind])).body[itemKey[kind]];
      for (const res of [
        await other.get(`/v1/environments/${env.id}/${kind}`),
        await other.post(`/v1/environments/${env.id}/${kind}`, samples[kind]),
        await other.delete(`/v1/environments/${env.id}/${kind}/${item.id}`),
      ]) {
        expect(res.status, kind).to.equal(404);
        expect(errorOf(res).error).to.equal('Environment not found');
      }
      // Their own Global does not reach A's items either.
      const viaOwnGlobal = await other.delete(`/v1/environments/global/${kind}/${item.id}`);
      expect(viaOwnGlobal.status).to.equal(404);
      expect(errorOf(viaOwnGlobal).error).to.match(/not found$/);
      expect((await as(a.org_api_key).get(`/v1/environments/${env.id}/${kind}`)).body[listKey[kind]]).to.have.length(1);
    }
  });

  it('answers 404 for an item that belongs to another environment of the same organization', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const one = (await api.post('/v1/environments', { name: 'one' })).body.environment;
    const two = (await api.post('/v1/environments', { name: 'two' })).body.environment;
    for (const kind of kinds) {
      const item = (await api.post(`/v1/environments/${one.id}/${kind}`, samples[kind])).body[itemKey[kind]];
      const del = await api.delete(`/v1/environments/${two.id}/${kind}/${item.id}`);
      expect(del.status, kind).to.equal(404);
      expect(errorOf(del).error).to.match(/not found$/);
      expect((await api.delete(`/v1/environments/${one.id}/${kind}/${MISSING}`)).status).to.equal(404);
      expect((await api.get(`/v1/environments/${one.id}/${kind}`)).body[listKey[kind]]).to.have.length(1);
    }
    const patches = { variables: { value: 'stolen' }, files: { content: 'stolen' }, mcps: { name: 'stolen' } } as const;
    const what = { variables: 'Variable', files: 'File', mcps: 'MCP server' } as const;
    for (const kind of ['variables', 'files', 'mcps'] as const) {
      const [item] = (await api.get(`/v1/environments/${one.id}/${kind}`)).body[listKey[kind]];
      const patch = await api.patch(`/v1/environments/${two.id}/${kind}/${item.id}`, patches[kind]);
      expect(patch.status, kind).to.equal(404);
      expect(errorOf(patch).error).to.equal(`${what[kind]} not found`);
      expect((await api.get(`/v1/environments/${one.id}/${kind}`)).body[listKey[kind]][0]).to.deep.equal(item);
    }
  });

  it('rejects malformed ids in the path with 400', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    for (const kind of kinds) {
      const badEnv = await api.get(`/v1/environments/not-a-uuid/${kind}`);
      expect(badEnv.status).to.equal(400);
      expect(errorOf(badEnv).details).to.match(/^params\.environmentId/);
      const badItem = await api.delete(`/v1/environments/global/${kind}/not-a-uuid`);
      expect(badItem.status).to.equal(400);
      expect(errorOf(badItem).details).to.match(/^params\.id/);
    }
    expect((await api.patch('/v1/environments/global/variables/12345', { value: 'x' })).status).to.equal(400);
  });

  it('requires an API key', async () => {
    const org = await newOrg();
    for (const kind of kinds) {
      const res = await as('').get(`/v1/environments/${org.global_environment_id}/${kind}`);
      expect(res.status).to.equal(401);
    }
  });

  it('keeps personal environments to their owner: org keys 403, other users 404', async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'owner@example.com', role: 'member' });
    const stranger = await harness().admin.createUser({ organizationId: org.organization_id, email: 'other@example.com', role: 'member' });
    const mine = as(member.personal_api_key);
    const env = (await mine.post('/v1/environments', { name: 'scratch', scope: 'user' })).body.environment;
    for (const kind of kinds) {
      const created = await mine.post(`/v1/environments/${env.id}/${kind}`, samples[kind]);
      expect(created.status, kind).to.equal(201);
      const orgKey = await as(org.org_api_key).get(`/v1/environments/${env.id}/${kind}`);
      expect(orgKey.status).to.equal(403);
      expect((await as(org.org_api_key).post(`/v1/environments/${env.id}/${kind}`, samples[kind])).status).to.equal(403);
      const theirs = await as(stranger.personal_api_key).get(`/v1/environments/${env.id}/${kind}`);
      expect(theirs.status).to.equal(404);
      expect((await as(stranger.personal_api_key).delete(`/v1/environments/${env.id}/${kind}/${created.body[itemKey[kind]].id}`)).status).to.equal(404);
      expect((await mine.get(`/v1/environments/${env.id}/${kind}`)).body[listKey[kind]]).to.have.length(1);
    }
  });
});
