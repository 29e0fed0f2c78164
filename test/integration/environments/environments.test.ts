import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

describe('environments API', () => {
  it('lists the Global environment, created on first access, in org scope', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const res = await api.get('/v1/environments');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ total: 1, page: 1, limit: 20, totalPages: 1 });
    expect(res.body.environments[0]).to.include({ is_global: true, name: 'Global', organization_id: org.organization_id, user_id: null });
    const global = await api.get('/v1/environments/global');
    expect(global.body.environment.id).to.equal(res.body.environments[0].id);
  });

  it('creates, reads, updates and deletes a team environment', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const created = await api.post('/v1/environments', { name: 'backend', description: 'API work', system_prompt: 'Be terse.' });
    expect(created.status).to.equal(201);
    const env = created.body.environment;
    expect(env).to.include({ name: 'backend', description: 'API work', system_prompt: 'Be terse.', is_global: false, user_id: null });
    expect(env).to.include({ variable_count: 0, file_count: 0, skill_count: 0, mcp_count: 0 });

    const read = await api.get(`/v1/environments/${env.id}`);
    expect(read.body.environment).to.deep.equal(env);

    const patched = await api.patch(`/v1/environments/${env.id}`, { name: 'backend-v2', description: null });
    expect(patched.status).to.equal(200);
    expect(patched.body.environment).to.include({ name: 'backend-v2', description: null, system_prompt: 'Be terse.' });
    expect(new Date(patched.body.environment.updated_at).getTime()).to.be.greaterThan(new Date(env.updated_at).getTime());

    expect((await api.delete(`/v1/environments/${env.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(`/v1/environments/${env.id}`)).status).to.equal(404);
  });

  it('rejects a duplicate name in the same scope with 409', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    expect((await api.post('/v1/environments', { name: 'web' })).status).to.equal(201);
    const dup = await api.post('/v1/environments', { name: 'WEB' });
    expect(dup.status).to.equal(409);
    expect(errorOf(dup).error).to.match(/already exists/);
  });

  it('refuses to patch or delete Global', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const patch = await api.patch('/v1/environments/global', { name: 'x' });
    expect(patch.status).to.equal(400);
    expect(errorOf(patch).details).to.match(/\/v1\/environments\/global\//);
    const del = await api.delete('/v1/environments/global');
    expect(del.status).to.equal(409);
    const globalId = (await api.get('/v1/environments/global')).body.environment.id;
    expect((await api.delete(`/v1/environments/${globalId}`)).status).to.equal(409);
  });

  it('hides other organizations\' environments behind 404', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const env = (await as(a.org_api_key).post('/v1/environments', { name: 'secret' })).body.environment;
    for (const res of [
      await as(b.org_api_key).get(`/v1/environments/${env.id}`),
      await as(b.org_api_key).patch(`/v1/environments/${env.id}`, { name: 'mine' }),
      await as(b.org_api_key).delete(`/v1/environments/${env.id}`),
    ]) {
      expect(res.status).to.equal(404);
      expect(errorOf(res).error).to.equal('Environment not found');
    }
  });

  describe('personal environments', () => {
    it('are visible only to their owner; org keys get 403', async () => {
      const org = await newOrg();
      const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'm@example.com' });
      const mine = as(member.personal_api_key);
      const created = await mine.post('/v1/environments', { name: 'scratch', scope: 'user' });
      expect(created.status).to.equal(201);
      expect(created.body.environment.user_id).to.equal(member.user_id);

      const listUser = await mine.get('/v1/environments?scope=user');
      expect(listUser.body.environments.map((e: { id: string }) => e.id)).to.deep.equal([created.body.environment.id]);
      const listOrg = await mine.get('/v1/environments');
      expect(listOrg.body.environments.map((e: { name: string }) => e.name)).to.deep.equal(['Global']);
      const listAll = await mine.get('/v1/environments?scope=all');
      expect(listAll.body.total).to.equal(2);

      const admin = as(org.admin.personal_api_key);
      expect((await admin.get(`/v1/environments/${created.body.environment.id}`)).status).to.equal(404);
      const orgKey = as(org.org_api_key);
      expect((await orgKey.get(`/v1/environments/${created.body.environment.id}`)).status).to.equal(403);
      expect((await orgKey.post('/v1/environments', { name: 'x', scope: 'user' })).status).to.equal(403);
      expect((await orgKey.get('/v1/environments?scope=user')).status).to.equal(403);
    });

    it('inherit live from a team source, which then cannot be deleted', async () => {
      const org = await newOrg();
      const admin = as(org.admin.personal_api_key);
      const team = (await admin.post('/v1/environments', { name: 'team', system_prompt: 'Team rules' })).body.environment;
      const personal = await admin.post('/v1/environments', {
        name: 'my-team',
        scope: 'user',
        source_environment_id: team.id,
        personal_preferences: 'Use tabs',
      });
      expect(personal.status).to.equal(201);
      expect(personal.body.environment).to.include({ source_environment_id: team.id, personal_preferences: 'Use tabs' });

      const locked = await admin.patch(`/v1/environments/${personal.body.environment.id}`, { system_prompt: 'mine' });
      expect(locked.status).to.equal(400);
      expect(errorOf(locked).details).to.match(/inherits/);
      const lockedOnCreate = await admin.post('/v1/environments', {
        name: 'other',
        scope: 'user',
        source_environment_id: team.id,
        system_prompt: 'mine',
      });
      expect(lockedOnCreate.status).to.equal(400);

      const blocked = await admin.delete(`/v1/environments/${team.id}`);
      expect(blocked.status).to.equal(409);
      expect(errorOf(blocked).error).to.match(/inherit/);
      expect((await admin.delete(`/v1/environments/${personal.body.environment.id}`)).status).to.equal(200);
      expect((await admin.delete(`/v1/environments/${team.id}`)).status).to.equal(200);
    });

    it('may not use Global or a personal environment as source', async () => {
      const org = await newOrg();
      const admin = as(org.admin.personal_api_key);
      const globalId = (await admin.get('/v1/environments/global')).body.environment.id;
      const res = await admin.post('/v1/environments', { name: 'p', scope: 'user', source_environment_id: globalId });
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.match(/source_environment_id/);
      const missing = await admin.post('/v1/environments', { name: 'p', scope: 'user', source_environment_id: '00000000-0000-4000-8000-000000000000' });
      expect(missing.status).to.equal(404);
    });
  });

  it('copies a team source once on create, with no link afterwards', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const source = (await api.post('/v1/environments', { name: 'source', system_prompt: 'Copied' })).body.environment;
    await api.post(`/v1/environments/${source.id}/start-hooks/save`, { content: 'echo copied hook' });
    const copy = await api.post('/v1/environments', { name: 'copy', source_environment_id: source.id });
    expect(copy.status).to.equal(201);
    expect(copy.body.environment).to.include({ system_prompt: 'Copied', source_environment_id: null });
    const hook = await api.get(`/v1/environments/${copy.body.environment.id}/start-hooks`);
    expect(hook.body.start_hook).to.include({ content: 'echo copied hook', version: 1 });
    expect((await api.delete(`/v1/environments/${source.id}`)).status).to.equal(200);
  });

  describe('repository binding', () => {
    it('binds one repository or one set, never both, and only the organization\'s own', async () => {
      const org = await newOrg();
      const other = await newOrg();
      const api = as(org.org_api_key);
      const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `file:///srv/git/${org.organization_id}/app.git` });
      const set = await harness().admin.addRepositorySet({ organizationId: org.organization_id, name: 'all', repositoryIds: [repo.id] });
      const foreign = await harness().admin.addRepository({ organizationId: other.organization_id, url: `file:///srv/git/${other.organization_id}/x.git` });

      const bound = await api.post('/v1/environments', { name: 'bound', repository_id: repo.id });
      expect(bound.body.environment).to.include({ repository_id: repo.id, repository_set_id: null });
      const rebound = await api.patch(`/v1/environments/${bound.body.environment.id}`, { repository_set_id: set.id });
      expect(rebound.body.environment).to.include({ repository_id: null, repository_set_id: set.id });

      const both = await api.post('/v1/environments', { name: 'both', repository_id: repo.id, repository_set_id: set.id });
      expect(both.status).to.equal(400);
      expect(errorOf(both).details).to.match(/mutually exclusive/);
      const foreignRes = await api.post('/v1/environments', { name: 'foreign', repository_id: foreign.id });
      expect(foreignRes.status).to.equal(404);
      expect(errorOf(foreignRes).error).to.equal('Repository not found');
    });
  });

  describe('input validation', () => {
    it('names unknown fields, wrong types and missing fields', async () => {
      const org = await newOrg();
      const api = as(org.org_api_key);
      const unknown = await api.post('/v1/environments', { name: 'x', colour: 'red' });
      expect(unknown.status).to.equal(400);
      expect(errorOf(unknown).details).to.equal('body.colour: unknown field');
      const missing = await api.post('/v1/environments', { description: 'x' });
      expect(errorOf(missing).details).to.equal('body.name: is required');
      const wrongType = await api.post('/v1/environments', { name: 42 });
      expect(errorOf(wrongType).details).to.match(/^body\.name: must be string/);
      const badScope = await api.get('/v1/environments?scope=everyone');
      expect(badScope.status).to.equal(400);
      expect(errorOf(badScope).details).to.match(/^query\.scope: must be one of org, user, all/);
      const badId = await api.get('/v1/environments/not-a-uuid');
      expect(badId.status).to.equal(400);
      const emptyPatch = await api.patch('/v1/environments/00000000-0000-4000-8000-000000000000', {});
      expect(emptyPatch.status).to.equal(400);
    });

    it('answers 415 for non-JSON bodies, 413 over the limit and 400 for malformed JSON', async () => {
      const org = await newOrg();
      const key = org.org_api_key;
      const text = await request('POST', '/v1/environments', { key, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
      expect(text.status).to.equal(415);
      errorOf(text);
      const huge = await request('POST', '/v1/environments', {
        key,
        rawBody: JSON.stringify({ name: 'x', description: 'y'.repeat(harness().config.bodyLimitBytes) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(huge.status).to.equal(413);
      errorOf(huge);
      const broken = await request('POST', '/v1/environments', { key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(broken.status).to.equal(400);
      expect(errorOf(broken).error).to.equal('Malformed JSON body');
    });
  });
});
