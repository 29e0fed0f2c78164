import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const SLACK = { provider: 'slack', external_id: 'T0CONNTEST', name: 'Acme Slack', secrets: { bot_token: 'xoxb-secret-token', signing_secret: 'slack-signing-secret' }, settings: { bot_user_id: 'U0BOT' } };

async function orgWithMember() {
  const org = await newOrg();
  const member = await harness().admin.createUser({ organizationId: org.organization_id, email: `member-${org.organization_id.slice(0, 8)}@example.com`, role: 'member' });
  return { org, member, admin: as(org.admin.personal_api_key), orgKey: as(org.org_api_key), memberApi: as(member.personal_api_key) };
}

const unique = (body: typeof SLACK) => ({ ...body, external_id: `${body.external_id}-${Math.random().toString(36).slice(2, 8)}` });

describe('connections API', () => {
  it('connects Slack with sealed secrets that are never answered, and members read it', async () => {
    const { admin, memberApi } = await orgWithMember();
    const body = unique(SLACK);
    const created = await admin.post('/v1/connections', body);
    expect(created.status).to.equal(201);
    const { connection } = created.body;
    expect(connection).to.include({ provider: 'slack', external_id: body.external_id, name: 'Acme Slack' });
    expect(connection.secrets_set).to.deep.equal(['bot_token', 'signing_secret']);
    expect(connection.settings).to.deep.equal({ bot_user_id: 'U0BOT' });
    for (const answer of [created, await memberApi.get('/v1/connections'), await memberApi.get(`/v1/connections/${connection.id}`)]) {
      expect(JSON.stringify(answer.body)).not.to.include('xoxb-secret-token');
      expect(JSON.stringify(answer.body)).not.to.include('slack-signing-secret');
    }
    expect((await memberApi.get('/v1/connections')).body.connections.map((c: { id: string }) => c.id)).to.deep.equal([connection.id]);
    // At rest the secrets are sealed, not plain text.
    const row = await harness().database.db('connections').where({ id: connection.id }).first();
    expect(row.secrets_sealed).not.to.include('xoxb-secret-token');
  });

  it('rotates one secret (merged), renames, and deletes; members may not', async () => {
    const { admin, memberApi } = await orgWithMember();
    const { connection } = (await admin.post('/v1/connections', unique(SLACK))).body;
    expect((await memberApi.patch(`/v1/connections/${connection.id}`, { name: 'x' })).status).to.equal(403);
    const patched = await admin.patch(`/v1/connections/${connection.id}`, { name: 'Renamed', secrets: { signing_secret: 'rotated' } });
    expect(patched.status).to.equal(200);
    expect(patched.body.connection).to.include({ name: 'Renamed' });
    expect(patched.body.connection.secrets_set).to.deep.equal(['bot_token', 'signing_secret']);
    expect((await memberApi.delete(`/v1/connections/${connection.id}`)).status).to.equal(403);
    expect((await admin.delete(`/v1/connections/${connection.id}`)).body).to.deep.equal({ success: true });
    expect((await admin.get(`/v1/connections/${connection.id}`)).status).to.equal(404);
  });

  it('refuses bad input, a second connection of a provider, and an external workspace another organization has', async () => {
    const { admin, memberApi } = await orgWithMember();
    const cases: Array<[unknown, RegExp]> = [
      [{ ...SLACK, provider: 'discord' }, /provider/],
      [{ ...SLACK, secrets: { bot_token: 'x' } }, /signing_secret: is required/],
      [{ ...SLACK, secrets: { ...SLACK.secrets, client_secret: 'x' } }, /client_secret: not a slack secret/],
      [{ provider: 'linear', external_id: 'org', name: 'L', secrets: { access_token: 'a', webhook_secret: 'w' } }, /app_user_id: is required/],
      [{ ...SLACK, name: '   ' }, /name/],
    ];
    for (const [body, pattern] of cases) {
      const res = await admin.post('/v1/connections', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(`${errorOf(res).error} ${errorOf(res).details}`).to.match(pattern);
    }
    expect((await memberApi.post('/v1/connections', unique(SLACK))).status).to.equal(403);
    const first = unique(SLACK);
    expect((await admin.post('/v1/connections', first)).status).to.equal(201);
    expect((await admin.post('/v1/connections', unique(SLACK))).status).to.equal(409);
    const other = await orgWithMember();
    const taken = await other.admin.post('/v1/connections', first);
    expect(taken.status).to.equal(409);
    expect(errorOf(taken).error).to.match(/already connected/);
  });

  it("never shows or changes another organization's connection", async () => {
    const a = await orgWithMember();
    const b = await orgWithMember();
    const { connection } = (await a.admin.post('/v1/connections', unique(SLACK))).body;
    expect((await b.admin.get(`/v1/connections/${connection.id}`)).status).to.equal(404);
    expect((await b.admin.patch(`/v1/connections/${connection.id}`, { name: 'mine' })).status).to.equal(404);
    expect((await b.admin.delete(`/v1/connections/${connection.id}`)).status).to.equal(404);
    expect((await b.admin.get('/v1/connections')).body.connections).to.deep.equal([]);
  });

  it('links identities by hand for admins only; members see and unlink their own', async () => {
    const { org, member, admin, orgKey, memberApi } = await orgWithMember();
    const refused = await memberApi.post('/v1/user/connections', { provider: 'slack', external_user_id: 'U123' });
    expect(refused.status).to.equal(403);
    expect(errorOf(refused).details).to.match(/verified email/);
    expect((await orgKey.post('/v1/user/connections', { provider: 'slack', external_user_id: 'U123' })).status).to.equal(400);
    const linked = await orgKey.post('/v1/user/connections', { provider: 'slack', external_user_id: 'U123', external_name: 'mia', user_id: member.user_id });
    expect(linked.status).to.equal(201);
    expect(linked.body.connection).to.include({ user_id: member.user_id, provider: 'slack', external_user_id: 'U123', linked_via: 'explicit' });
    expect((await orgKey.post('/v1/user/connections', { provider: 'slack', external_user_id: 'U123', user_id: org.admin.user_id })).status).to.equal(409);
    expect((await admin.get('/v1/user/connections')).body.connections).to.deep.equal([]);
    expect((await memberApi.get('/v1/user/connections')).body.connections).to.have.length(1);
    expect((await orgKey.get('/v1/user/connections')).body.connections).to.have.length(1);
    const other = await orgWithMember();
    expect((await other.admin.delete(`/v1/user/connections/${linked.body.connection.id}`)).status).to.equal(404);
    expect((await memberApi.delete(`/v1/user/connections/${linked.body.connection.id}`)).body).to.deep.equal({ success: true });
    expect((await memberApi.get('/v1/user/connections')).body.connections).to.deep.equal([]);
  });
});
