import { expect } from 'chai';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { credentialFields } from '../../../src/agents/credentials';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const ORG_SECRET = 'sk-org-5d1f0c7e9a2b4c6d8e0f1a2b3c4dORGX';
const PERSONAL_SECRET = 'sk-me-8f7e6d5c4b3a29181706f5e4d3c2MINE';

const credentials = () => harness().api.services.credentials;

async function orgWithMember() {
  const org = await newOrg();
  const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com', role: 'member' });
  return { org, member, admin: as(org.admin.personal_api_key), orgKey: as(org.org_api_key), memberApi: as(member.personal_api_key) };
}

describe('coding-agent credentials API', () => {
  it('stores an organization credential and shows only a masked tail in every answer', async () => {
    const { admin, memberApi } = await orgWithMember();
    const set = await admin.post('/v1/organization/credentials/agent_3', { kind: 'api_key', secret: ORG_SECRET });
    expect(set.status).to.equal(200);
    expect(set.body.credential).to.include({ agent: 'agent_3', scope: 'organization', configured: true, kind: 'api_key', masked_secret: '••••ORGX' });
    expect(set.body.credential.last_used_at).to.equal(null);

    const answers = [
      set,
      await admin.get('/v1/organization/credentials/agent_3'),
      await admin.get('/v1/credentials'),
      await memberApi.get('/v1/organization/credentials/agent_3'),
      await memberApi.get('/v1/credentials'),
    ];
    for (const answer of answers) {
      expect(answer.status).to.equal(200);
      expect(JSON.stringify(answer.body)).not.to.contain(ORG_SECRET.slice(0, 12));
    }
    expect(answers[1]!.body.credential).to.deep.equal(set.body.credential);
    const overview = answers[2]!.body.credentials.find((c: { agent: string }) => c.agent === 'agent_3');
    expect(overview.organization.masked_secret).to.equal('••••ORGX');
    expect(overview).to.include({ effective_source: 'organization' });
    expect(overview.accepted_kinds).to.deep.equal(['api_key']);
    expect(answers[2]!.body.credentials.map((c: { agent: string }) => c.agent)).to.deep.equal(['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5']);
  });

  it('lets members see only whether an organization credential is configured, and not change it', async () => {
    const { admin, memberApi } = await orgWithMember();
    expect((await memberApi.get('/v1/organization/credentials/agent_1')).body.credential).to.deep.equal({
      agent: 'agent_1',
      scope: 'organization',
      configured: false,
    });
    await admin.post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET });
    expect((await memberApi.get('/v1/organization/credentials/agent_1')).body.credential).to.deep.equal({
      agent: 'agent_1',
      scope: 'organization',
      configured: true,
    });
    const overview = (await memberApi.get('/v1/credentials')).body.credentials[0];
    expect(overview.organization).to.deep.equal({ agent: 'agent_1', scope: 'organization', configured: true });

    const write = await memberApi.post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: PERSONAL_SECRET });
    expect(write.status).to.equal(403);
    expect(errorOf(write).error).to.match(/admins/);
    expect((await memberApi.delete('/v1/organization/credentials/agent_1')).status).to.equal(403);
    const still = await admin.get('/v1/organization/credentials/agent_1');
    expect(still.body.credential.masked_secret).to.equal('••••ORGX');
  });

  it('resolves the personal credential first, the organization one otherwise, and records the use', async () => {
    const { org, member, admin, memberApi } = await orgWithMember();
    const organizationId = org.organization_id;
    expect(await credentials().resolveCredential({ organizationId, userId: member.user_id, agent: 'agent_2' })).to.equal(null);

    const orgCred = (await admin.post('/v1/organization/credentials/agent_2', { kind: 'api_key', secret: ORG_SECRET })).body.credential;
    const viaOrg = await credentials().resolveCredential({ organizationId, userId: member.user_id, agent: 'agent_2' });
    expect(viaOrg).to.deep.include({ source: 'organization', kind: 'api_key', secret: ORG_SECRET, credentialId: orgCred.id });

    const mine = await memberApi.post('/v1/user/credentials/agent_2', {
      kind: 'oauth_token',
      secret: PERSONAL_SECRET,
      refresh_token: 'rt-0123456789abcdef',
      expires_at: '2099-01-01T00:00:00Z',
    });
    expect(mine.status).to.equal(200);
    expect(mine.body.credential).to.include({ scope: 'personal', kind: 'oauth_token', masked_secret: '••••MINE', has_refresh_token: true });
    expect(mine.body.credential.expires_at).to.equal('2099-01-01T00:00:00.000Z');

    const viaMember = await credentials().resolveCredential({ organizationId, userId: member.user_id, agent: 'agent_2' });
    expect(viaMember).to.deep.include({ source: 'personal', kind: 'oauth_token', secret: PERSONAL_SECRET, credentialId: mine.body.credential.id });
    // Someone else in the organization, and an org-key workspace (no user), still get the organization's.
    expect((await credentials().resolveCredential({ organizationId, userId: org.admin.user_id, agent: 'agent_2' }))!.secret).to.equal(ORG_SECRET);
    expect((await credentials().resolveCredential({ organizationId, userId: null, agent: 'agent_2' }))!.source).to.equal('organization');
    // Another organization's user never reaches this organization's credential.
    const other = await newOrg();
    expect(await credentials().resolveCredential({ organizationId: other.organization_id, userId: other.admin.user_id, agent: 'agent_2' })).to.equal(null);

    const personalView = (await memberApi.get('/v1/user/credentials/agent_2')).body.credential;
    expect(personalView.last_used_at).to.be.a('string');
    expect((await memberApi.get('/v1/credentials')).body.credentials[1]).to.include({ effective_source: 'personal' });
    expect((await admin.get('/v1/organization/credentials/agent_2')).body.credential.last_used_at).to.be.a('string');

    expect((await memberApi.delete('/v1/user/credentials/agent_2')).body).to.deep.equal({ success: true });
    expect((await credentials().resolveCredential({ organizationId, userId: member.user_id, agent: 'agent_2' }))!.source).to.equal('organization');
  });

  it('replaces a credential on a second POST', async () => {
    const { admin } = await orgWithMember();
    const first = (await admin.post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET })).body.credential;
    const second = (await admin.post('/v1/user/credentials/agent_1', { kind: 'oauth_token', secret: PERSONAL_SECRET })).body.credential;
    expect(second).to.include({ id: first.id, kind: 'oauth_token', masked_secret: '••••MINE' });
    expect(new Date(second.updated_at).getTime()).to.be.at.least(new Date(first.updated_at).getTime());
  });

  it('encrypts secrets and refresh tokens at rest with the key id on the row', async () => {
    const { org, memberApi } = await orgWithMember();
    const refreshToken = 'rt-7a6b5c4d3e2f1a0b9c8d7e6f';
    const id = (
      await memberApi.post('/v1/user/credentials/agent_4', { kind: 'oauth_token', secret: PERSONAL_SECRET, refresh_token: refreshToken })
    ).body.credential.id;
    const row = await harness().database.db('agent_credentials').where({ id, organization_id: org.organization_id }).first();
    const stored = JSON.stringify(row);
    for (const secret of [PERSONAL_SECRET, refreshToken]) {
      // Not the secret, nor any long part of it (the tail kept for display is four characters).
      expect(stored).not.to.contain(secret);
      expect(stored).not.to.contain(secret.slice(0, 10));
    }
    expect(row.key_id).to.equal(harness().config.encryptionKeys[0]!.id);
    expect(row.secret_sealed.split('.')[1]).to.equal(row.key_id);
    const box = createSecretBox(harness().config.encryptionKeys);
    const fields = credentialFields({ organizationId: row.organization_id, userId: row.user_id }, row.agent);
    expect(box.open(row.secret_sealed, fields.secret)).to.equal(PERSONAL_SECRET);
    expect(box.open(row.refresh_token_sealed, fields.refreshToken)).to.equal(refreshToken);
    // Bound to this credential: as another member's, or as the refresh token, it does not open.
    expect(() => box.open(row.secret_sealed, credentialFields({ organizationId: row.organization_id, userId: null }, row.agent).secret)).to.throw(/does not open/);
    expect(() => box.open(row.secret_sealed, fields.refreshToken)).to.throw(/does not open/);
  });

  it('accepts only API keys for agent_3', async () => {
    const { admin } = await orgWithMember();
    for (const path of ['/v1/organization/credentials/agent_3', '/v1/user/credentials/agent_3']) {
      const res = await admin.post(path, { kind: 'oauth_token', secret: ORG_SECRET });
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.equal('body.kind: agent_3 accepts only api_key');
    }
    expect((await admin.get('/v1/organization/credentials/agent_3')).body.credential.configured).to.equal(false);
  });

  it('keeps personal credentials away from organization API keys', async () => {
    const { orgKey } = await orgWithMember();
    for (const res of [
      await orgKey.get('/v1/user/credentials/agent_1'),
      await orgKey.post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET }),
      await orgKey.delete('/v1/user/credentials/agent_1'),
    ]) {
      expect(res.status).to.equal(403);
      expect(errorOf(res).error).to.match(/Organization API keys/);
    }
    // The org key administers organization credentials and has no personal column.
    expect((await orgKey.post('/v1/organization/credentials/agent_5', { kind: 'api_key', secret: ORG_SECRET })).status).to.equal(200);
    const overview = (await orgKey.get('/v1/credentials')).body.credentials;
    expect(overview[4]).to.include({ personal: null, effective_source: 'organization' });
  });

  it('answers 404 when deleting a credential that is not set', async () => {
    const { admin } = await orgWithMember();
    for (const path of ['/v1/organization/credentials/agent_2', '/v1/user/credentials/agent_2']) {
      const res = await admin.delete(path);
      expect(res.status).to.equal(404);
      expect(errorOf(res).error).to.equal('Credential not found');
    }
    await admin.post('/v1/organization/credentials/agent_2', { kind: 'api_key', secret: ORG_SECRET });
    expect((await admin.delete('/v1/organization/credentials/agent_2')).body).to.deep.equal({ success: true });
    expect((await admin.delete('/v1/organization/credentials/agent_2')).status).to.equal(404);
    expect((await admin.get('/v1/organization/credentials/agent_2')).body.credential).to.include({ configured: false, masked_secret: null });
  });

  it('rejects bad input with 400 naming the field', async () => {
    const { admin } = await orgWithMember();
    const cases: Array<[string, unknown, RegExp]> = [
      ['/v1/organization/credentials/agent_9', { kind: 'api_key', secret: ORG_SECRET }, /^params\.agent: must be one of agent_1/],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: '' }, /^body\.secret: /],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: '   ' }, /^body\.secret: must not be empty or blank/],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: 'x'.repeat(8193) }, /^body\.secret: /],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: 'sk-with\nnewline-123' }, /^body\.secret: must not contain control characters/],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET, label: 'x' }, /^body\.label: unknown field$/],
      ['/v1/user/credentials/agent_1', { secret: ORG_SECRET }, /^body\.kind: is required$/],
      ['/v1/user/credentials/agent_1', { kind: 'password', secret: ORG_SECRET }, /^body\.kind: must be one of/],
      ['/v1/user/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET, refresh_token: 'rt-1234567890' }, /^body\.refresh_token: only an oauth_token/],
      ['/v1/user/credentials/agent_1', { kind: 'oauth_token', secret: ORG_SECRET, expires_at: 'tomorrow' }, /^body\.expires_at: /],
    ];
    for (const [path, body, details] of cases) {
      const res = await admin.post(path, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(errorOf(res).details).to.match(details);
      expect(JSON.stringify(res.body)).not.to.contain(ORG_SECRET);
    }
    expect((await admin.get('/v1/organization/credentials/nope')).status).to.equal(400);
    expect((await admin.delete('/v1/user/credentials/AGENT_1')).status).to.equal(400);
  });

  it('never writes a secret to the log', async () => {
    const { admin } = await orgWithMember();
    const secret = 'sk-log-check-4f3e2d1c0b9a8f7e6d5c';
    await admin.post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret });
    await admin.post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: `${secret}\n` });
    expect(harness().logs.join('\n')).not.to.contain('sk-log-check');
  });
});
