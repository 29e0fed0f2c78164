import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';

describe('profile API', () => {
  it("answers the calling user's profile in camelCase", async () => {
    const org = await newOrg();
    const res = await as(org.admin.personal_api_key).get('/v1/user/profile');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      profile: { userId: org.admin.user_id, email: org.admin.email, displayName: 'Admin', avatarUrl: null },
    });
  });

  it('updates the display name (trimmed) and avatar URL, keeps omitted fields and clears the avatar with null', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);

    const both = await api.put('/v1/user/profile', { displayName: '  Ada Lovelace ', avatarUrl: 'https://example.com/ada.png' });
    expect(both.status).to.equal(200);
    expect(both.body.profile).to.include({ displayName: 'Ada Lovelace', avatarUrl: 'https://example.com/ada.png' });

    const nameOnly = await api.put('/v1/user/profile', { displayName: 'Ada' });
    expect(nameOnly.body.profile).to.include({ displayName: 'Ada', avatarUrl: 'https://example.com/ada.png' });

    const avatarOnly = await api.put('/v1/user/profile', { avatarUrl: 'http://cdn.example.org:8080/a.png?size=64' });
    expect(avatarOnly.body.profile).to.include({ displayName: 'Ada', avatarUrl: 'http://cdn.example.org:8080/a.png?size=64' });

    const cleared = await api.put('/v1/user/profile', { avatarUrl: null });
    expect(cleared.body.profile).to.include({ displayName: 'Ada', avatarUrl: null });
    expect((await api.get('/v1/user/profile')).body).to.deep.equal(cleared.body);
  });

  it('accepts 80 characters (counted as characters, not UTF-16 units) and refuses 81', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    expect((await api.put('/v1/user/profile', { displayName: 'a'.repeat(80) })).status).to.equal(200);
    const emoji = '\u{1F680}'.repeat(80);
    expect((await api.put('/v1/user/profile', { displayName: emoji })).body.profile.displayName).to.equal(emoji);

    const tooLong = await api.put('/v1/user/profile', { displayName: 'a'.repeat(81) });
    expect(tooLong.status).to.equal(400);
    expect(errorOf(tooLong).details).to.match(/^body\.displayName: .*80/);
  });

  it('rejects invalid profile input with 400 naming the field, and changes nothing', async () => {
    const org = await newOrg();
    const api = as(org.admin.personal_api_key);
    await api.put('/v1/user/profile', { displayName: 'Before', avatarUrl: 'https://example.com/before.png' });

    const cases: Array<[unknown, RegExp]> = [
      [{ displayName: '' }, /^body\.displayName: /],
      [{ displayName: '   \t ' }, /^body\.displayName: /],
      [{ displayName: 42 }, /^body\.displayName: /],
      [{ displayName: null }, /^body\.displayName: /],
      [{ avatarUrl: 'not a url' }, /^body\.avatarUrl: /],
      [{ avatarUrl: 'ftp://example.com/a.png' }, /^body\.avatarUrl: /],
      [{ avatarUrl: 'javascript:alert(1)' }, /^body\.avatarUrl: /],
      [{ avatarUrl: 'https://' }, /^body\.avatarUrl: /],
      [{ avatarUrl: `https://example.com/${'a'.repeat(2049 - 20)}` }, /^body\.avatarUrl: .*2048/],
      [{ displayName: 'Ok', email: 'new@example.com' }, /^body\.email: unknown field$/],
      [{}, /^body: /],
    ];
    for (const [body, details] of cases) {
      const res = await api.put('/v1/user/profile', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(errorOf(res).details, JSON.stringify(body)).to.match(details);
    }
    const notJson = await api.put('/v1/user/profile');
    expect(notJson.status).to.equal(400);

    expect((await api.get('/v1/user/profile')).body.profile).to.include({
      displayName: 'Before',
      avatarUrl: 'https://example.com/before.png',
      email: org.admin.email,
    });
  });

  it('answers 403 to an org key, which acts for the organization and has no profile', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    for (const res of [await api.get('/v1/user/profile'), await api.put('/v1/user/profile', { displayName: 'Bot' })]) {
      expect(res.status).to.equal(403);
      expect(errorOf(res).error).to.equal('Organization API keys have no user');
    }
  });

  it("changes only the caller's own profile", async () => {
    const org = await newOrg();
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com', role: 'member' });
    const mine = await as(member.personal_api_key).put('/v1/user/profile', { displayName: 'Member One' });
    expect(mine.body.profile).to.deep.equal({ userId: member.user_id, email: 'member@example.com', displayName: 'Member One', avatarUrl: null });
    expect((await as(org.admin.personal_api_key).get('/v1/user/profile')).body.profile.displayName).to.equal('Admin');
  });

  it('refuses the multipart avatar upload (no object storage) with 415', async () => {
    const org = await newOrg();
    const form = new FormData();
    form.set('displayName', 'Uploader');
    form.set('avatar', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }), 'a.png');
    const res = await fetch(`${harness().baseUrl}/v1/user/profile`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${org.admin.personal_api_key}` },
      body: form,
    });
    expect(res.status).to.equal(415);
    expect((await request('GET', '/v1/user/profile', { key: org.admin.personal_api_key })).body.profile.displayName).to.equal('Admin');
  });

  it('is 401 without a valid key', async () => {
    const res = await as('hgr_usr_nope').get('/v1/user/profile');
    expect(res.status).to.equal(401);
    errorOf(res);
  });
});
