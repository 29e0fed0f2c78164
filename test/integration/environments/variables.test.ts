import { expect } from 'chai';
import { resolveEnvironment } from '../../../src/worker/environmentSetup';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const rawVariable = (id: string) => harness().database.db('environment_variables').where({ id }).first();

describe('environment variables', () => {
  it('creates, lists, updates and deletes variables, with the value in plaintext on read', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'backend' })).body.environment;
    const base = `/v1/environments/${env.id}/variables`;

    const created = await api.post(base, { key: 'DATABASE_URL', value: 'postgres://db/app' });
    expect(created.status).to.equal(201);
    const variable = created.body.environment_variable;
    expect(Object.keys(variable).sort()).to.deep.equal(
      ['created_at', 'environment_id', 'id', 'key', 'organization_id', 'personal_override_allowed', 'updated_at', 'value'].sort(),
    );
    expect(variable).to.include({
      organization_id: org.organization_id,
      environment_id: env.id,
      key: 'DATABASE_URL',
      value: 'postgres://db/app',
      personal_override_allowed: false,
    });
    await api.post(base, { key: '_ALPHA', value: '' });

    const list = await api.get(base);
    expect(list.status).to.equal(200);
    expect(list.body).to.have.keys(['environment_variables']);
    expect(list.body.environment_variables.map((v: { key: string }) => v.key)).to.deep.equal(['DATABASE_URL', '_ALPHA']);
    expect(list.body.environment_variables[0]).to.deep.equal(variable);

    const patched = await api.patch(`${base}/${variable.id}`, { key: 'DB_URL', value: 'postgres://db/other' });
    expect(patched.status).to.equal(200);
    expect(patched.body.environment_variable).to.include({ id: variable.id, key: 'DB_URL', value: 'postgres://db/other', created_at: variable.created_at });
    expect(new Date(patched.body.environment_variable.updated_at).getTime()).to.be.greaterThan(new Date(variable.updated_at).getTime());

    expect((await api.delete(`${base}/${variable.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(base)).body.environment_variables.map((v: { key: string }) => v.key)).to.deep.equal(['_ALPHA']);
    const again = await api.delete(`${base}/${variable.id}`);
    expect(again.status).to.equal(404);
    expect(errorOf(again).error).to.equal('Variable not found');
  });

  it('stores values sealed: the secret never appears in the database column', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const secret = 'sk_live_do-not-store-me-in-plaintext';
    const variable = (await api.post('/v1/environments/global/variables', { key: 'STRIPE_KEY', value: secret })).body.environment_variable;
    const raw = await rawVariable(variable.id);
    expect(raw.key).to.equal('STRIPE_KEY');
    expect(raw.value_sealed).to.be.a('string').and.match(/^v2\./);
    expect(raw.value_sealed).not.to.include(secret);
    expect(JSON.stringify(raw)).not.to.include(secret);
    expect(Buffer.from(raw.value_sealed.split('.').pop(), 'base64url').toString('utf8')).not.to.include(secret);

    const updated = 'sk_live_the-rotated-secret';
    await api.patch(`/v1/environments/global/variables/${variable.id}`, { value: updated });
    expect((await rawVariable(variable.id)).value_sealed).not.to.include(updated);
    expect((await api.get('/v1/environments/global/variables')).body.environment_variables[0].value).to.equal(updated);
  });

  it('rejects a duplicate key in the same environment with 409, but allows it in another', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'web' })).body.environment;
    expect((await api.post(`/v1/environments/${env.id}/variables`, { key: 'PORT', value: '3000' })).status).to.equal(201);
    const dup = await api.post(`/v1/environments/${env.id}/variables`, { key: 'PORT', value: '4000' });
    expect(dup.status).to.equal(409);
    expect(errorOf(dup).error).to.equal('A variable with this key already exists in this environment');
    expect((await api.post('/v1/environments/global/variables', { key: 'PORT', value: '80' })).status).to.equal(201);

    const other = (await api.post(`/v1/environments/${env.id}/variables`, { key: 'HOST', value: 'x' })).body.environment_variable;
    const rename = await api.patch(`/v1/environments/${env.id}/variables/${other.id}`, { key: 'PORT' });
    expect(rename.status).to.equal(409);
    const values = (await api.get(`/v1/environments/${env.id}/variables`)).body.environment_variables;
    expect(values.map((v: { key: string; value: string }) => `${v.key}=${v.value}`)).to.deep.equal(['HOST=x', 'PORT=3000']);
  });

  it('validates keys, values and bodies with 400 naming the field', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/variables';
    const cases: Array<[unknown, RegExp]> = [
      [{ key: '1ABC', value: 'x' }, /^body\.key: must match pattern/],
      [{ key: 'WITH-DASH', value: 'x' }, /^body\.key: must match pattern/],
      [{ key: '', value: 'x' }, /^body\.key: /],
      [{ key: 'A'.repeat(257), value: 'x' }, /^body\.key: must NOT have more than 256 characters/],
      [{ key: 'A', value: 'x'.repeat(65_537) }, /^body\.value: must NOT have more than 65536 characters/],
      [{ key: 'A', value: 1 }, /^body\.value: must be string/],
      [{ key: 'A', value: 'a\u0000b' }, /^body\.value: must not contain NUL characters/],
      [{ key: 'A' }, /^body\.value: is required/],
      [{ key: 'A', value: 'x', secret: true }, /^body\.secret: unknown field/],
      [{ key: 'A', value: 'x', personal_override_allowed: 'yes' }, /^body\.personal_override_allowed: must be boolean/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post(base, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
    expect((await api.post(base, { key: 'A'.repeat(256), value: 'x'.repeat(65_536) })).status).to.equal(201);

    const variable = (await api.post(base, { key: 'B', value: 'x' })).body.environment_variable;
    const empty = await api.patch(`${base}/${variable.id}`, {});
    expect(empty.status).to.equal(400);
    expect(errorOf(empty).details).to.match(/^body: must NOT have fewer than 1 properties/);
    const nul = await api.patch(`${base}/${variable.id}`, { value: '\u0000' });
    expect(nul.status).to.equal(400);
    expect(errorOf(nul).details).to.match(/^body\.value: must not contain NUL/);
    const unknown = await api.patch(`${base}/${variable.id}`, { name: 'B' });
    expect(errorOf(unknown).details).to.equal('body.name: unknown field');
    const noBody = await api.post(base);
    expect(noBody.status).to.equal(400);
  });

  describe('personal_override_allowed', () => {
    it('may be set or changed only by admins (403 for members)', async () => {
      const org = await newOrg();
      const member = as((await harness().admin.createUser({ organizationId: org.organization_id, email: 'm@example.com', role: 'member' })).personal_api_key);
      const admin = as(org.admin.personal_api_key);
      const base = '/v1/environments/global/variables';

      const denied = await member.post(base, { key: 'NODE_ENV', value: 'development', personal_override_allowed: true });
      expect(denied.status).to.equal(403);
      expect(errorOf(denied).error).to.match(/admins/);
      expect((await member.get(base)).body.environment_variables).to.deep.equal([]);

      const plain = await member.post(base, { key: 'NODE_ENV', value: 'development' });
      expect(plain.status).to.equal(201);
      const id = plain.body.environment_variable.id;
      expect((await member.patch(`${base}/${id}`, { personal_override_allowed: true })).status).to.equal(403);
      // Echoing the current value back is not a change.
      const echo = await member.patch(`${base}/${id}`, { value: 'test', personal_override_allowed: false });
      expect(echo.status).to.equal(200);
      expect(echo.body.environment_variable).to.include({ value: 'test', personal_override_allowed: false });

      const byAdmin = await admin.patch(`${base}/${id}`, { personal_override_allowed: true });
      expect(byAdmin.status).to.equal(200);
      expect(byAdmin.body.environment_variable.personal_override_allowed).to.equal(true);
      expect((await member.patch(`${base}/${id}`, { personal_override_allowed: false })).status).to.equal(403);
      expect((await member.patch(`${base}/${id}`, { value: 'production' })).body.environment_variable).to.include({
        value: 'production',
        personal_override_allowed: true,
      });

      const byOrgKey = await as(org.org_api_key).post(base, { key: 'CI', value: '1', personal_override_allowed: true });
      expect(byOrgKey.status).to.equal(201);
      expect(byOrgKey.body.environment_variable.personal_override_allowed).to.equal(true);
    });

    it('governs which inherited keys a personal environment may define (409 otherwise)', async () => {
      const org = await newOrg();
      const admin = as(org.org_api_key);
      const memberUser = await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@example.com', role: 'member' });
      const member = as(memberUser.personal_api_key);
      await admin.post('/v1/environments/global/variables', { key: 'LOCKED', value: 'g' });
      await admin.post('/v1/environments/global/variables', { key: 'OPEN', value: 'g', personal_override_allowed: true });

      const personal = (await member.post('/v1/environments', { name: 'mine', scope: 'user' })).body.environment;
      const base = `/v1/environments/${personal.id}/variables`;
      const locked = await member.post(base, { key: 'LOCKED', value: 'p' });
      expect(locked.status).to.equal(409);
      expect(errorOf(locked).error).to.equal('The variable LOCKED is inherited from the Global environment and cannot be overridden');
      expect(errorOf(locked).details).to.match(/personal_override_allowed/);
      expect((await member.post(base, { key: 'OPEN', value: 'p' })).status).to.equal(201);
      const fresh = (await member.post(base, { key: 'FRESH', value: 'p' })).body.environment_variable;
      const renamed = await member.patch(`${base}/${fresh.id}`, { key: 'LOCKED' });
      expect(renamed.status).to.equal(409);
      expect((await member.get(base)).body.environment_variables.map((v: { key: string }) => v.key)).to.deep.equal(['FRESH', 'OPEN']);

      // A team environment overrides Global freely: the rule is about personal environments.
      const team = (await admin.post('/v1/environments', { name: 'team' })).body.environment;
      expect((await admin.post(`/v1/environments/${team.id}/variables`, { key: 'LOCKED', value: 't' })).status).to.equal(201);
    });

    it('follows the nearest inherited definition in a source-backed personal environment', async () => {
      const org = await newOrg();
      const admin = as(org.org_api_key);
      const member = as((await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@example.com', role: 'member' })).personal_api_key);
      const team = (await admin.post('/v1/environments', { name: 'service' })).body.environment;
      await admin.post('/v1/environments/global/variables', { key: 'GLOBAL_OPEN_TEAM_LOCKED', value: 'g', personal_override_allowed: true });
      await admin.post(`/v1/environments/${team.id}/variables`, { key: 'GLOBAL_OPEN_TEAM_LOCKED', value: 't' });
      await admin.post('/v1/environments/global/variables', { key: 'GLOBAL_LOCKED_TEAM_OPEN', value: 'g' });
      await admin.post(`/v1/environments/${team.id}/variables`, { key: 'GLOBAL_LOCKED_TEAM_OPEN', value: 't', personal_override_allowed: true });
      await admin.post(`/v1/environments/${team.id}/variables`, { key: 'TEAM_ONLY', value: 't' });

      const personal = (await member.post('/v1/environments', { name: 'mine', scope: 'user', source_environment_id: team.id })).body.environment;
      const base = `/v1/environments/${personal.id}/variables`;
      const teamLocked = await member.post(base, { key: 'GLOBAL_OPEN_TEAM_LOCKED', value: 'p' });
      expect(teamLocked.status).to.equal(409);
      expect(errorOf(teamLocked).error).to.match(/inherited from the source environment/);
      const teamOnly = await member.post(base, { key: 'TEAM_ONLY', value: 'p' });
      expect(teamOnly.status).to.equal(409);
      expect((await member.post(base, { key: 'GLOBAL_LOCKED_TEAM_OPEN', value: 'p' })).status).to.equal(201);

      // What the workspace gets agrees with what the API accepted.
      const { database, config } = harness();
      const resolved = await resolveEnvironment({ repos: database.repos, secretBox: createSecretBox(config.encryptionKeys) }, org.organization_id, personal.id);
      expect(resolved.variables).to.include({ GLOBAL_OPEN_TEAM_LOCKED: 't', GLOBAL_LOCKED_TEAM_OPEN: 'p', TEAM_ONLY: 't' });
    });
  });
});
