import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const KEY_FIELDS = ['id', 'name', 'prefix', 'created_at', 'last_used_at'];

async function keyRow(id: string) {
  return harness().database.db('api_keys').where({ id }).first();
}

describe('personal API keys', () => {
  it('creates a key whose secret appears only in the creation answer and works at once', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    const created = await api.post('/v1/user/api-keys', { name: '  laptop ' });
    expect(created.status).to.equal(201);
    const key = created.body.api_key;
    expect(key).to.have.all.keys(...KEY_FIELDS, 'key');
    expect(key).to.include({ name: 'laptop', last_used_at: null });
    expect(key.key).to.match(/^hgr_usr_[A-Za-z0-9_-]{32}$/);
    expect(key.key.startsWith(key.prefix)).to.equal(true);
    expect(key.prefix.length).to.be.lessThan(key.key.length / 2);
    expect(new Date(key.created_at).toISOString()).to.equal(key.created_at);

    // The new key acts for the same user.
    const profile = await as(key.key).get('/v1/user/profile');
    expect(profile.body.profile.userId).to.equal(org.admin.user_id);

    const listed = await api.get('/v1/user/api-keys');
    const entry = listed.body.api_keys.find((k: { id: string }) => k.id === key.id);
    expect(entry).to.have.all.keys(...KEY_FIELDS);
    expect(JSON.stringify(listed.body)).not.to.include(key.key);

    const row = await keyRow(key.id);
    expect(JSON.stringify(row)).not.to.include(key.key);
    expect(row).to.include({ kind: 'personal', user_id: org.admin.user_id, display_prefix: key.prefix });
    // The creator is recorded as the key that made the request.
    const creator = listed.body.api_keys.find((k: { name: string }) => k.name === 'default');
    expect(row.created_by_key_id).to.equal(creator.id);

    expect(harness().logs.join('\n')).not.to.include(key.key);
  });

  it('records when a key was last used', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    const key = (await api.post('/v1/user/api-keys', { name: 'ci' })).body.api_key;
    expect((await as(key.key).get('/v1/user/profile')).status).to.equal(200);
    const used = await until('last_used_at to be set', async () => {
      const list = await api.get('/v1/user/api-keys');
      return list.body.api_keys.find((k: { id: string; last_used_at: string | null }) => k.id === key.id && k.last_used_at)?.last_used_at;
    });
    expect(Date.parse(used)).to.be.closeTo(Date.now(), 60_000);
  });

  it('rejects invalid key names with 400 naming the field', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /^body\.name: is required$/],
      [{ name: '' }, /^body\.name: /],
      [{ name: '    ' }, /^body\.name: /],
      [{ name: 'x'.repeat(101) }, /^body\.name: .*100/],
      [{ name: 7 }, /^body\.name: /],
      [{ name: 'ok', scopes: ['all'] }, /^body\.scopes: unknown field$/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post('/v1/user/api-keys', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details, JSON.stringify(body)).to.match(details);
    }
    expect((await api.post('/v1/user/api-keys', { name: 'x'.repeat(100) })).status).to.equal(201);
    expect((await api.get('/v1/user/api-keys')).body.total).to.equal(2);
  });

  it('pages the list newest first with {api_keys, total, page, limit, totalPages}, default limit 10', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    for (let i = 1; i <= 12; i++) expect((await api.post('/v1/user/api-keys', { name: `key-${i}` })).status).to.equal(201);

    const first = await api.get('/v1/user/api-keys');
    expect(first.status).to.equal(200);
    expect(first.body).to.have.all.keys('api_keys', 'total', 'page', 'limit', 'totalPages');
    expect(first.body).to.include({ total: 13, page: 1, limit: 10, totalPages: 2 });
    expect(first.body.api_keys).to.have.length(10);
    expect(first.body.api_keys[0].name).to.equal('key-12');

    const second = await api.get('/v1/user/api-keys?page=2');
    expect(second.body).to.include({ total: 13, page: 2, limit: 10, totalPages: 2 });
    expect(second.body.api_keys.map((k: { name: string }) => k.name)).to.deep.equal(['key-2', 'key-1', 'default']);
    const ids = [...first.body.api_keys, ...second.body.api_keys].map((k: { id: string }) => k.id);
    expect(new Set(ids).size).to.equal(13);

    const small = await api.get('/v1/user/api-keys?page=3&limit=5');
    expect(small.body).to.include({ total: 13, page: 3, limit: 5, totalPages: 3 });
    expect(small.body.api_keys).to.have.length(3);

    const past = await api.get('/v1/user/api-keys?page=9&limit=100');
    expect(past.body).to.include({ total: 13, page: 9, limit: 100, totalPages: 1 });
    expect(past.body.api_keys).to.deep.equal([]);

    for (const query of ['page=0', 'limit=0', 'limit=101', 'page=1.5', 'limit=ten', 'sort=name']) {
      const res = await api.get(`/v1/user/api-keys?${query}`);
      expect(res.status, query).to.equal(400);
      expect(errorOf(res).details, query).to.match(/^query\./);
    }
  });

  it("lists only the caller's own personal keys", async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'm@example.com', role: 'member' });
    await as(org.admin.personal_api_key).post('/v1/user/api-keys', { name: 'admin-extra' });
    await as(org.org_api_key).post('/v1/organization/api-keys', { name: 'org-extra' });

    const list = await as(member.personal_api_key).get('/v1/user/api-keys');
    expect(list.body.total).to.equal(1);
    expect(list.body.api_keys.map((k: { name: string }) => k.name)).to.deep.equal(['default']);
    expect((await as(org.admin.personal_api_key).get('/v1/user/api-keys')).body.total).to.equal(2);
  });

  it('revokes a key at once: its next request is 401, and it leaves the list', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    const key = (await api.post('/v1/user/api-keys', { name: 'short-lived' })).body.api_key;
    expect((await as(key.key).get('/v1/user/profile')).status).to.equal(200);

    const revoked = await api.delete(`/v1/user/api-keys/${key.id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body).to.deep.equal({ success: true });

    const after = await as(key.key).get('/v1/user/profile');
    expect(after.status).to.equal(401);
    expect(errorOf(after).error).to.equal('Invalid or missing API key');
    expect((await api.get('/v1/user/api-keys')).body.api_keys.map((k: { id: string }) => k.id)).not.to.include(key.id);

    const row = await keyRow(key.id);
    expect(row.revoked_at).to.be.instanceOf(Date);
    expect(row.revoked_by_key_id).to.equal(row.created_by_key_id);

    const again = await api.delete(`/v1/user/api-keys/${key.id}`);
    expect(again.status).to.equal(404);
    errorOf(again);
  });

  it('lets a key revoke itself: that request succeeds, the next is 401', async () => {
    const org = await newOrg();
    const key = (await as(org.admin.personal_api_key).post('/v1/user/api-keys', { name: 'self' })).body.api_key;
    const self = as(key.key);
    expect((await self.delete(`/v1/user/api-keys/${key.id}`)).body).to.deep.equal({ success: true });
    expect((await self.get('/v1/user/api-keys')).status).to.equal(401);
    expect((await as(org.admin.personal_api_key).get('/v1/user/profile')).status).to.equal(200);
  });

  it("answers 404 for a missing key, another user's, an org key and another organization's, and leaves them working", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'peer@example.com', role: 'member' });
    const memberKey = (await as(member.personal_api_key).post('/v1/user/api-keys', { name: 'peer' })).body.api_key;
    const orgKey = (await as(org.org_api_key).post('/v1/organization/api-keys', { name: 'org' })).body.api_key;
    const foreignKey = (await as(other.admin.personal_api_key).post('/v1/user/api-keys', { name: 'foreign' })).body.api_key;

    const admin = as(org.admin.personal_api_key);
    for (const id of [randomUUID(), memberKey.id, orgKey.id, foreignKey.id]) {
      const res = await admin.delete(`/v1/user/api-keys/${id}`);
      expect(res.status, id).to.equal(404);
      expect(errorOf(res).error).to.equal('API key not found');
    }
    expect((await as(memberKey.key).get('/v1/user/profile')).status).to.equal(200);
    expect((await as(orgKey.key).get('/v1/organization/api-keys')).status).to.equal(200);
    expect((await as(foreignKey.key).get('/v1/user/profile')).status).to.equal(200);

    const malformed = await admin.delete('/v1/user/api-keys/not-a-uuid');
    expect(malformed.status).to.equal(400);
    expect(errorOf(malformed).details).to.match(/^params\.apiKeyId: /);
  });

  it('answers 403 to an org key on every personal-key operation', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    for (const res of [
      await api.post('/v1/user/api-keys', { name: 'bot' }),
      await api.get('/v1/user/api-keys'),
      await api.delete(`/v1/user/api-keys/${randomUUID()}`),
    ]) {
      expect(res.status).to.equal(403);
      expect(errorOf(res).error).to.equal('Organization API keys have no user');
    }
    const rows = await harness().database.db('api_keys').where({ organization_id: org.organization_id });
    expect(rows).to.have.length(2);
  });
});

describe('organization API keys', () => {
  it('lets an admin create, list and revoke org keys; the secret appears only once', async () => {
    const org = await newOrg();
    const admin = as(org.admin.personal_api_key);
    const created = await admin.post('/v1/organization/api-keys', { name: 'deploy bot' });
    expect(created.status).to.equal(201);
    const key = created.body.api_key;
    expect(key).to.have.all.keys(...KEY_FIELDS, 'key');
    expect(key.key).to.match(/^hgr_org_/);
    expect(key.key.startsWith(key.prefix)).to.equal(true);

    // It is an org key: it administers the organization's keys and has no profile.
    const asNew = as(key.key);
    expect((await asNew.get('/v1/organization/api-keys')).status).to.equal(200);
    expect((await asNew.get('/v1/user/profile')).status).to.equal(403);

    const list = await admin.get('/v1/organization/api-keys');
    expect(list.body).to.include({ total: 2, page: 1, limit: 10, totalPages: 1 });
    expect(list.body.api_keys.map((k: { name: string }) => k.name)).to.deep.equal(['deploy bot', 'default']);
    for (const item of list.body.api_keys) expect(item).to.have.all.keys(...KEY_FIELDS);
    expect(JSON.stringify(list.body)).not.to.include(key.key);
    expect(JSON.stringify(await keyRow(key.id))).not.to.include(key.key);

    expect((await admin.delete(`/v1/organization/api-keys/${key.id}`)).body).to.deep.equal({ success: true });
    expect((await asNew.get('/v1/organization/api-keys')).status).to.equal(401);
    expect((await admin.get('/v1/organization/api-keys')).body.total).to.equal(1);
  });

  it('lets an org key manage org keys, including revoking itself (the next request is 401)', async () => {
    const org = await newOrg();
    const orgApi = as(org.org_api_key);
    const second = (await orgApi.post('/v1/organization/api-keys', { name: 'second' })).body.api_key;
    const defaultKey = (await orgApi.get('/v1/organization/api-keys')).body.api_keys.find((k: { name: string }) => k.name === 'default');

    expect((await orgApi.delete(`/v1/organization/api-keys/${defaultKey.id}`)).body).to.deep.equal({ success: true });
    expect((await orgApi.get('/v1/organization/api-keys')).status).to.equal(401);

    // Revoking the last org key is allowed too; an admin's personal key can mint a new one.
    const last = as(second.key);
    expect((await last.delete(`/v1/organization/api-keys/${second.id}`)).status).to.equal(200);
    expect((await last.get('/v1/organization/api-keys')).status).to.equal(401);
    const admin = as(org.admin.personal_api_key);
    expect((await admin.get('/v1/organization/api-keys')).body).to.include({ total: 0, totalPages: 0 });
    expect((await admin.post('/v1/organization/api-keys', { name: 'replacement' })).status).to.equal(201);
  });

  it("answers 403 to a member's personal key on every org-key operation", async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'dev@example.com', role: 'member' });
    const defaultKey = (await as(org.org_api_key).get('/v1/organization/api-keys')).body.api_keys[0];
    const api = as(member.personal_api_key);
    for (const res of [
      await api.post('/v1/organization/api-keys', { name: 'sneaky' }),
      await api.get('/v1/organization/api-keys'),
      await api.delete(`/v1/organization/api-keys/${defaultKey.id}`),
    ]) {
      expect(res.status).to.equal(403);
      expect(errorOf(res).error).to.equal('Only organization admins manage organization API keys');
    }
    expect((await as(org.org_api_key).get('/v1/organization/api-keys')).body.total).to.equal(1);
  });

  it("lets an admin who is not the organization's first user manage org keys", async () => {
    const org = await newOrg();
    const second = await harness().admin.createUser({ organizationId: org.organization_id, email: 'admin2@example.com', role: 'admin' });
    expect((await as(second.personal_api_key).post('/v1/organization/api-keys', { name: 'from admin 2' })).status).to.equal(201);
  });

  it("answers 404 for a personal key's id and for another organization's org key", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const personal = (await as(org.admin.personal_api_key).post('/v1/user/api-keys', { name: 'mine' })).body.api_key;
    const foreign = (await as(other.org_api_key).post('/v1/organization/api-keys', { name: 'theirs' })).body.api_key;
    for (const id of [personal.id, foreign.id, randomUUID()]) {
      const res = await as(org.org_api_key).delete(`/v1/organization/api-keys/${id}`);
      expect(res.status, id).to.equal(404);
      errorOf(res);
    }
    expect((await as(personal.key).get('/v1/user/profile')).status).to.equal(200);
    expect((await as(foreign.key).get('/v1/organization/api-keys')).status).to.equal(200);
  });

  it('documents the operations in /openapi.json', async () => {
    const doc = await request('GET', '/openapi.json');
    expect(doc.body.paths['/v1/user/profile']).to.have.keys('get', 'put');
    expect(doc.body.paths['/v1/user/api-keys']).to.have.keys('get', 'post');
    expect(doc.body.paths['/v1/user/api-keys/{apiKeyId}'].delete.responses).to.have.property('404');
    expect(doc.body.paths['/v1/organization/api-keys']).to.have.keys('get', 'post');
    expect(doc.body.paths['/v1/organization/api-keys/{apiKeyId}']).to.have.keys('delete');
  });
});
