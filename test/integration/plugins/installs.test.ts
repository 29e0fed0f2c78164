/**
 * Plugin installs through the API: the native catalog, organization installs (admins write,
 * members read), members' own installs (another member's is 404, an organization key has none),
 * secrets sealed and never answered, and every refusal in the spec's Error body.
 */
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

const SECRET = 'tp_secret_value_never_to_be_shown_0123456789';
const http = (extra: Record<string, unknown> = {}) => ({ slug: 'docs', kind: 'http', config: { url: 'https://mcp.example.com/mcp' }, ...extra });

describe('plugins: installs', () => {
  let org: Awaited<ReturnType<typeof newOrg>>;
  let admin: ReturnType<typeof as>;
  let alice: ReturnType<typeof as>;
  let bob: ReturnType<typeof as>;

  before(async () => {
    org = await newOrg('plugins');
    admin = as(org.admin.personal_api_key);
    alice = as((await harness().admin.createUser({ organizationId: org.organization_id, email: 'alice@plugins.test' })).personal_api_key);
    bob = as((await harness().admin.createUser({ organizationId: org.organization_id, email: 'bob@plugins.test' })).personal_api_key);
  });

  it('lists the native catalog with what this deployment can serve', async () => {
    const catalog = await alice.get('/v1/plugins/catalog');
    expect(catalog.status).to.equal(200);
    const github = catalog.body.plugins.find((p: { slug: string }) => p.slug === 'github');
    expect(github).to.include({ kind: 'native', provides: 'github', available: true, unavailable_reason: null });
    expect(github.tools.map((t: { name: string }) => t.name)).to.deep.equal(['list_repositories', 'comment_on_issue']);
  });

  it('installs for the organization with a sealed secret that is never answered', async () => {
    const created = await admin.post('/v1/plugins', http({ name: 'Docs', provides: 'google', config: { url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'acme' } }, secret: { type: 'oauth_token', value: SECRET } }));
    expect(created.status).to.equal(201);
    expect(created.body.plugin).to.include({ scope: 'org', user_id: null, slug: 'docs', name: 'Docs', kind: 'http', provides: 'google', enabled: true, organization_id: org.organization_id });
    expect(created.body.plugin.config).to.deep.equal({ url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'acme' } });
    expect(created.body.plugin.secret).to.deep.equal({ type: 'oauth_token', header: 'Authorization' });
    expect(JSON.stringify(created.body)).not.to.include(SECRET);

    // Every member reads the organization's installs, never the secret.
    const listed = await alice.get('/v1/plugins');
    expect(listed.status).to.equal(200);
    expect(listed.body.plugins.map((p: { id: string }) => p.id)).to.deep.equal([created.body.plugin.id]);
    expect(JSON.stringify(listed.body)).not.to.include(SECRET);
    expect((await alice.get(`/v1/plugins/${created.body.plugin.id}`)).body.plugin.secret).to.deep.equal({ type: 'oauth_token', header: 'Authorization' });

    // At rest: sealed, not the plain value.
    const row = await harness().database.db('plugin_installs').where({ id: created.body.plugin.id }).first();
    expect(row.secret_sealed).to.be.a('string').and.not.include(SECRET);
    expect(row.config_sealed).not.to.include('mcp.example.com');
  });

  it('refuses organization writes to members (403) and a second install of a slug in one scope (409)', async () => {
    const member = await alice.post('/v1/plugins', http({ slug: 'other' }));
    expect(member.status).to.equal(403);
    expect(errorOf(member).error).to.match(/admins/);
    const id = (await admin.get('/v1/plugins')).body.plugins[0].id;
    expect((await alice.patch(`/v1/plugins/${id}`, { enabled: false })).status).to.equal(403);
    expect((await alice.delete(`/v1/plugins/${id}`)).status).to.equal(403);

    const again = await as(org.org_api_key).post('/v1/plugins', http());
    expect(again.status).to.equal(409);
    expect(errorOf(again).error).to.include('"docs"').and.include('organization');
  });

  it("keeps members' own installs to themselves", async () => {
    const mine = await alice.post('/v1/user/plugins', http({ secret: { type: 'api_key', value: SECRET, header: 'X-Api-Key' } }));
    expect(mine.status).to.equal(201);
    expect(mine.body.plugin).to.include({ scope: 'user', user_id: (await alice.get('/v1/user/profile')).body.profile.userId });
    expect(mine.body.plugin.secret).to.deep.equal({ type: 'api_key', header: 'X-Api-Key' });
    expect((await alice.post('/v1/user/plugins', http())).status).to.equal(409);
    // The same slug is free for another member.
    expect((await bob.post('/v1/user/plugins', http())).status).to.equal(201);

    const id = mine.body.plugin.id;
    for (const answer of [await bob.get(`/v1/user/plugins/${id}`), await bob.patch(`/v1/user/plugins/${id}`, { enabled: false }), await bob.delete(`/v1/user/plugins/${id}`), await admin.get(`/v1/plugins/${id}`)]) {
      expect(answer.status).to.equal(404);
      expect(errorOf(answer).error).to.equal('Plugin not found');
    }
    expect((await bob.get('/v1/user/plugins')).body.plugins.map((p: { id: string }) => p.id)).not.to.include(id);
    // An organization install is not reachable as a personal one.
    const orgId = (await admin.get('/v1/plugins')).body.plugins[0].id;
    expect((await admin.get(`/v1/user/plugins/${orgId}`)).status).to.equal(404);

    const orgKey = await as(org.org_api_key).get('/v1/user/plugins');
    expect(orgKey.status).to.equal(403);
    expect(errorOf(orgKey).details).to.include('personal API key');

    // Another organization sees none of them.
    const stranger = as((await newOrg('plugins-other')).admin.personal_api_key);
    expect((await stranger.get(`/v1/plugins/${orgId}`)).status).to.equal(404);
    expect((await stranger.get(`/v1/user/plugins/${id}`)).status).to.equal(404);
  });

  it('refuses what cannot be installed, saying why (400)', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ slug: 'local', kind: 'stdio', config: { command: 'npx', args: ['server'] }, secret: { type: 'api_key', value: SECRET } }, /stdio plugin runs inside the workspace container/],
      [{ slug: 'nope', kind: 'native' }, /no native plugin "nope"/],
      [{ slug: 'github', kind: 'native', config: { url: 'https://x.test' } }, /native plugin takes no config/],
      [{ slug: 'github', kind: 'native', secret: { type: 'api_key', value: SECRET } }, /takes no secret/],
      [{ slug: 'docs2', kind: 'http' }, /body.config: is required/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'https://x.test/mcp', headers: { Authorization: 'Bearer x' } } }, /credentials go in body.secret/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'http://169.254.169.254/mcp' } }, /link-local/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'https://user:pw@x.test/mcp' } }, /not in the URL/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'https://x.test/mcp' }, secret: { type: 'oauth_token', value: SECRET, header: 'X-Token' } }, /OAuth token goes in Authorization/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'https://x.test/mcp' }, secret: { type: 'api_key', value: '   ' } }, /empty or blank/],
      [{ slug: 'docs2', kind: 'http', config: { url: 'ftp://x.test' } }, /config/],
      [{ slug: 'Bad Slug', kind: 'http', config: { url: 'https://x.test/mcp' } }, /slug/],
      [{ slug: 'docs2', kind: 'stdio', config: { url: 'https://x.test/mcp' } }, /config/],
    ];
    for (const [body, message] of cases) {
      const answer = await alice.post('/v1/user/plugins', body);
      expect(answer.status, JSON.stringify(body)).to.equal(400);
      const error = errorOf(answer);
      expect(`${error.error} ${error.details}`, JSON.stringify(body)).to.match(message);
      expect(JSON.stringify(answer.body)).not.to.include(SECRET);
    }
    expect((await alice.get('/v1/user/plugins/not-a-uuid')).status).to.equal(400);
  });

  it('changes an install: disabled, a new secret, the secret removed, a new config', async () => {
    const created = (await alice.post('/v1/user/plugins', http({ slug: 'patchable', secret: { type: 'api_key', value: SECRET } }))).body.plugin;
    const path = `/v1/user/plugins/${created.id}`;
    const disabled = await alice.patch(path, { enabled: false, name: 'Renamed' });
    expect(disabled.status).to.equal(200);
    expect(disabled.body.plugin).to.include({ enabled: false, name: 'Renamed' });
    expect(disabled.body.plugin.secret).to.deep.equal({ type: 'api_key', header: 'Authorization' });

    const rekeyed = await alice.patch(path, { secret: { type: 'oauth_token', value: `${SECRET}-2` } });
    expect(rekeyed.body.plugin.secret).to.deep.equal({ type: 'oauth_token', header: 'Authorization' });
    expect(JSON.stringify(rekeyed.body)).not.to.include(SECRET);
    const removed = await alice.patch(path, { secret: null, config: { url: 'https://other.example.com/mcp' } });
    expect(removed.body.plugin.secret).to.equal(null);
    expect(removed.body.plugin.config).to.deep.equal({ url: 'https://other.example.com/mcp', headers: {} });
    expect((await harness().database.db('plugin_installs').where({ id: created.id }).first()).secret_sealed).to.equal(null);

    expect((await alice.patch(path, { slug: 'renamed' })).status).to.equal(400);
    expect((await alice.patch(path, { config: { command: 'x' } })).status).to.equal(400);

    const stdio = (await alice.post('/v1/user/plugins', { slug: 'local', kind: 'stdio', config: { command: 'node', args: ['server.js'], env: { MODE: 'ro' } } })).body.plugin;
    expect(stdio.config).to.deep.equal({ command: 'node', args: ['server.js'], env: { MODE: 'ro' } });
    const refused = await alice.patch(`/v1/user/plugins/${stdio.id}`, { secret: { type: 'api_key', value: SECRET } });
    expect(refused.status).to.equal(400);
    expect(errorOf(refused).details).to.match(/stdio plugin runs inside the workspace container/);

    expect((await alice.delete(path)).body).to.deep.equal({ success: true });
    expect((await alice.get(path)).status).to.equal(404);
    expect((await alice.delete(path)).status).to.equal(404);
  });

  it("forgets an install's secret when its URL changes, unless the same request sets it again (organization and personal)", async () => {
    const scopes: Array<[ReturnType<typeof as>, string]> = [
      [admin, '/v1/plugins'],
      [bob, '/v1/user/plugins'],
    ];
    for (const [api, base] of scopes) {
      const created = (await api.post(base, http({ slug: 'moving', config: { url: 'https://mcp.example.com/mcp' }, secret: { type: 'api_key', value: SECRET, header: 'X-Api-Key' } }))).body.plugin;
      const path = `${base}/${created.id}`;
      const sealed = async () => (await harness().database.db('plugin_installs').where({ id: created.id }).first()).secret_sealed as string | null;

      // Other headers, same URL: the secret stays.
      const sameUrl = await api.patch(path, { config: { url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant': 'acme' } } });
      expect(sameUrl.body.plugin.secret, base).to.deep.equal({ type: 'api_key', header: 'X-Api-Key' });

      // Another host: the secret would go there, so it is gone.
      const moved = await api.patch(path, { config: { url: 'https://attacker.example.net/mcp' } });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect(moved.body.plugin.secret, base).to.equal(null);
      expect(await sealed(), base).to.equal(null);

      // Moving with a secret given for the new host keeps that one.
      const rekeyed = await api.patch(path, { config: { url: 'https://mcp2.example.com/mcp' }, secret: { type: 'oauth_token', value: `${SECRET}-2` } });
      expect(rekeyed.body.plugin.secret, base).to.deep.equal({ type: 'oauth_token', header: 'Authorization' });
      expect(await sealed(), base).to.be.a('string');
      expect(JSON.stringify(rekeyed.body)).not.to.include(SECRET);
      expect((await api.delete(path)).status).to.equal(200);
    }
  });

  it('installs the native github plugin once per scope', async () => {
    const installed = await admin.post('/v1/plugins', { slug: 'github', kind: 'native' });
    expect(installed.status).to.equal(201);
    expect(installed.body.plugin).to.include({ kind: 'native', provides: 'github', name: 'GitHub', config: null, secret: null });
    expect((await admin.post('/v1/plugins', { slug: 'github', kind: 'native' })).status).to.equal(409);
    const wrong = await admin.patch(`/v1/plugins/${installed.body.plugin.id}`, { provides: 'slack' });
    expect(wrong.status).to.equal(400);
    expect((await request('GET', '/v1/plugins')).status).to.equal(401);
  });
});
