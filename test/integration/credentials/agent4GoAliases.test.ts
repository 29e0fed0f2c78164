import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const KEY = 'ag4-key-1f2e3d4c5b6a79880a1b2c3dWXYZ';

describe("the original's agent_4-go credential routes", () => {
  it('set, show masked, and delete the organization agent_4 key in the original shapes', async () => {
    const org = await newOrg();
    const admin = as(org.org_api_key);
    expect((await admin.get('/v1/agent_4-go/credentials')).body).to.deep.equal({ hasCredentials: false });

    const created = await admin.post('/v1/agent_4-go/credentials', { api_key: KEY });
    expect(created.status).to.equal(200);
    expect(Object.keys(created.body).sort()).to.deep.equal(['credentialId', 'success']);
    expect(created.body.success).to.equal(true);

    const shown = await admin.get('/v1/agent_4-go/credentials');
    expect(shown.body).to.deep.equal({ hasCredentials: true, credentialId: created.body.credentialId, apiKey: '••••WXYZ' });

    // It is the agent_4 credential of the general routes, and what a workspace resolves.
    const general = (await admin.get('/v1/organization/credentials/agent_4')).body.credential;
    expect(general).to.include({ id: created.body.credentialId, kind: 'api_key', masked_secret: '••••WXYZ' });
    expect(await harness().api.services.credentials.organizationSecret(org.organization_id, 'agent_4')).to.equal(KEY);
    const used = (await admin.get('/v1/agent_4-go/credentials')).body;
    expect(used.lastFetchedAt).to.be.a('string');
    expect(Object.keys(used).sort()).to.deep.equal(['apiKey', 'credentialId', 'hasCredentials', 'lastFetchedAt']);

    expect((await admin.delete('/v1/agent_4-go/credentials')).body).to.deep.equal({ success: true });
    expect((await admin.get('/v1/agent_4-go/credentials')).body).to.deep.equal({ hasCredentials: false });
    const again = await admin.delete('/v1/agent_4-go/credentials');
    expect(again.status).to.equal(404);
    errorOf(again);
  });

  it('let members read whether the organization key is set but not change it', async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'm@example.com', role: 'member' });
    const memberApi = as(member.personal_api_key);
    await as(org.admin.personal_api_key).post('/v1/agent_4-go/credentials', { api_key: KEY });

    expect((await memberApi.get('/v1/agent_4-go/credentials')).body).to.deep.equal({ hasCredentials: true });
    expect((await memberApi.post('/v1/agent_4-go/credentials', { api_key: 'ag4-other-0123456789' })).status).to.equal(403);
    expect((await memberApi.delete('/v1/agent_4-go/credentials')).status).to.equal(403);
  });

  it('manage a personal agent_4 key for personal API keys only', async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'm@example.com', role: 'member' });
    const memberApi = as(member.personal_api_key);
    const created = await memberApi.post('/v1/agent_4-go/user/credentials', { api_key: KEY });
    expect(created.status).to.equal(200);
    expect(created.body.success).to.equal(true);
    expect((await memberApi.get('/v1/agent_4-go/user/credentials')).body).to.deep.equal({
      hasCredentials: true,
      credentialId: created.body.credentialId,
      apiKey: '••••WXYZ',
    });
    const resolved = await harness().api.services.credentials.resolveCredential({
      organizationId: org.organization_id,
      userId: member.user_id,
      agent: 'agent_4',
    });
    expect(resolved).to.deep.include({ source: 'personal', secret: KEY, credentialId: created.body.credentialId });
    // The organization has none: the personal key is not the organization's.
    expect((await memberApi.get('/v1/agent_4-go/credentials')).body).to.deep.equal({ hasCredentials: false });

    const orgKey = as(org.org_api_key);
    expect((await orgKey.get('/v1/agent_4-go/user/credentials')).status).to.equal(403);
    expect((await orgKey.post('/v1/agent_4-go/user/credentials', { api_key: KEY })).status).to.equal(403);

    expect((await memberApi.delete('/v1/agent_4-go/user/credentials')).body).to.deep.equal({ success: true });
    expect((await memberApi.delete('/v1/agent_4-go/user/credentials')).status).to.equal(404);
  });

  it('reject a body other than {api_key}', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body\.api_key: is required$/],
      [{ api_key: '' }, /^body\.api_key: /],
      [{ api_key: KEY, kind: 'api_key' }, /^body\.kind: unknown field$/],
      [{ api_key: 42 }, /^body\.api_key: must be string$/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post('/v1/agent_4-go/credentials', body);
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
    const blank = await api.post('/v1/agent_4-go/credentials', { api_key: '  ' });
    expect(blank.status).to.equal(400);
    expect(errorOf(blank).details).to.equal('body.api_key: must not be empty or blank');
  });
});
