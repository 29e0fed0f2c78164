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

  it('connects GitLab: its webhook and API tokens are sealed, the webhook token is found by a keyed hash, and its instance URL is checked', async () => {
    const { admin, memberApi } = await orgWithMember();
    const webhookToken = `glwh-${Math.random().toString(36).slice(2)}-0123456789`;
    const body = {
      provider: 'gitlab',
      external_id: `gitlab.example.com/acme-${Math.random().toString(36).slice(2, 8)}`,
      name: 'Acme GitLab',
      secrets: { webhook_token: webhookToken, api_token: 'glpat-connection-api-token' },
      settings: { instance_url: 'https://gitlab.example.com/' },
    };
    const created = await admin.post('/v1/connections', body);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.connection).to.include({ provider: 'gitlab', external_id: body.external_id });
    expect(created.body.connection.secrets_set).to.deep.equal(['api_token', 'webhook_token']);
    expect(created.body.connection.settings).to.deep.equal({ instance_url: 'https://gitlab.example.com' });
    for (const answer of [created, await memberApi.get('/v1/connections')]) {
      expect(JSON.stringify(answer.body)).not.to.include(webhookToken).and.not.include('glpat-connection-api-token');
    }
    const row = await harness().database.db('connections').where({ id: created.body.connection.id }).first();
    expect(row.secrets_sealed).not.to.include(webhookToken);
    expect(row.webhook_token_hash).to.match(/^[0-9a-f]{64}$/);
    expect(row.webhook_token_hash).not.to.include(webhookToken);

    // Rotating the webhook token moves its hash; other PATCHes leave it.
    const renamed = await admin.patch(`/v1/connections/${row.id}`, { name: 'Renamed' });
    expect(renamed.status).to.equal(200);
    expect((await harness().database.db('connections').where({ id: row.id }).first()).webhook_token_hash).to.equal(row.webhook_token_hash);
    expect((await admin.patch(`/v1/connections/${row.id}`, { secrets: { webhook_token: `${webhookToken}-rotated` } })).status).to.equal(200);
    expect((await harness().database.db('connections').where({ id: row.id }).first()).webhook_token_hash).to.not.equal(row.webhook_token_hash);

    const other = await orgWithMember();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...body, secrets: { webhook_token: webhookToken } }, /api_token: is required/],
      [{ ...body, secrets: { ...body.secrets, webhook_token: 'short' } }, /webhook_token: must NOT have fewer than 16 characters/],
      [{ ...body, settings: { instance_url: 'ftp://gitlab.example.com' } }, /instance_url: must be an http\(s\) URL/],
      [{ ...body, settings: { instance_url: 'https://user:pass@gitlab.example.com' } }, /instance_url: must be an http\(s\) URL without credentials/],
      // The worker posts answers there with the token: cloud metadata is never reachable.
      [{ ...body, settings: { instance_url: 'http://169.254.169.254' } }, /instance_url: 169\.254\.169\.254 is a link-local/],
      [{ ...SLACK, external_id: 'T-gitlab-setting', settings: { instance_url: 'https://gitlab.example.com' } }, /instance_url: is a gitlab setting/],
    ];
    for (const [input, pattern] of cases) {
      const res = await other.admin.post('/v1/connections', input);
      expect(res.status, JSON.stringify(input)).to.equal(400);
      expect(`${errorOf(res).error} ${errorOf(res).details}`).to.match(pattern);
    }
  });

  it('links GitHub and GitLab identities by numeric account id only', async () => {
    const { member, orgKey } = await orgWithMember();
    for (const provider of ['github', 'gitlab']) {
      for (const login of ['octocat', '0123', '12a']) {
        const refused = await orgKey.post('/v1/user/connections', { provider, external_user_id: login, user_id: member.user_id });
        expect(refused.status, `${provider} ${login}`).to.equal(400);
        expect(errorOf(refused).details).to.match(new RegExp(`^body\\.external_user_id: a ${provider} identity is the account's numeric user id`));
      }
    }
    const linked = await orgKey.post('/v1/user/connections', { provider: 'github', external_user_id: '583231', external_name: 'octocat', user_id: member.user_id });
    expect(linked.status).to.equal(201);
    expect(linked.body.connection).to.include({ provider: 'github', external_user_id: '583231', external_name: 'octocat' });
  });
});
