import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const rawFile = (id: string) => harness().database.db('environment_files').where({ id }).first();

describe('environment files', () => {
  it('creates, lists, updates and deletes files; name defaults to the basename', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'app' })).body.environment;
    const base = `/v1/environments/${env.id}/files`;

    const created = await api.post(base, { path: '~/workspaces/app/.env.local', content: 'DEBUG=1\n' });
    expect(created.status).to.equal(201);
    const file = created.body.environment_file;
    expect(Object.keys(file).sort()).to.deep.equal(
      ['content', 'created_at', 'environment_id', 'id', 'name', 'organization_id', 'path', 'updated_at'].sort(),
    );
    expect(file).to.include({
      organization_id: org.organization_id,
      environment_id: env.id,
      name: '.env.local',
      path: '~/workspaces/app/.env.local',
      content: 'DEBUG=1\n',
    });
    const named = await api.post(base, { path: '~/.config/gh/hosts.yml', content: 'github.com: {}', name: 'GitHub CLI hosts' });
    expect(named.body.environment_file).to.include({ name: 'GitHub CLI hosts', path: '~/.config/gh/hosts.yml' });

    const list = await api.get(base);
    expect(list.body).to.have.keys(['environment_files']);
    expect(list.body.environment_files.map((f: { path: string }) => f.path)).to.deep.equal(['~/.config/gh/hosts.yml', '~/workspaces/app/.env.local']);
    expect(list.body.environment_files[1]).to.deep.equal(file);

    const patched = await api.patch(`${base}/${file.id}`, { content: 'DEBUG=0\n' });
    expect(patched.status).to.equal(200);
    expect(patched.body.environment_file).to.include({ id: file.id, content: 'DEBUG=0\n', path: file.path, name: '.env.local' });

    expect((await api.delete(`${base}/${file.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(base)).body.environment_files).to.have.length(1);
    expect((await api.delete(`${base}/${file.id}`)).status).to.equal(404);
  });

  it('moves a defaulted name along with the path, but keeps a chosen one', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    const defaulted = (await api.post(base, { path: '~/a.txt', content: 'a' })).body.environment_file;
    const moved = await api.patch(`${base}/${defaulted.id}`, { path: '~/dir/b.txt' });
    expect(moved.body.environment_file).to.include({ name: 'b.txt', path: '~/dir/b.txt' });
    const chosen = (await api.post(base, { path: '~/c.txt', content: 'c', name: 'Notes' })).body.environment_file;
    expect((await api.patch(`${base}/${chosen.id}`, { path: '~/d.txt' })).body.environment_file).to.include({ name: 'Notes', path: '~/d.txt' });
    expect((await api.patch(`${base}/${chosen.id}`, { path: '~/e.txt', name: 'Renamed' })).body.environment_file).to.include({
      name: 'Renamed',
      path: '~/e.txt',
    });
  });

  it('stores content sealed: the secret never appears in the database column', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const secret = '//registry.npmjs.org/:_authToken=npm_s3cr3t-token-value';
    const file = (await api.post('/v1/environments/global/files', { path: '~/.npmrc', content: secret })).body.environment_file;
    const raw = await rawFile(file.id);
    expect(raw.path).to.equal('~/.npmrc');
    expect(raw.content_sealed).to.match(/^v2\./);
    expect(JSON.stringify(raw)).not.to.include('npm_s3cr3t');
    expect(raw.size_bytes).to.equal(Buffer.byteLength(secret));
    expect((await api.get('/v1/environments/global/files')).body.environment_files[0].content).to.equal(secret);
  });

  it('normalises paths, and treats spellings of one path as the same file (409)', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    const created = await api.post(base, { path: '~//workspaces/./app//config.json', content: '{}' });
    expect(created.status).to.equal(201);
    expect(created.body.environment_file).to.include({ path: '~/workspaces/app/config.json', name: 'config.json' });
    const dup = await api.post(base, { path: '~/workspaces/app/config.json', content: '{"x":1}' });
    expect(dup.status).to.equal(409);
    expect(errorOf(dup).error).to.equal('A file with this path already exists in this environment');

    const other = (await api.post(base, { path: '~/other.json', content: '{}' })).body.environment_file;
    const moveOnto = await api.patch(`${base}/${other.id}`, { path: '~/workspaces/app/./config.json' });
    expect(moveOnto.status).to.equal(409);
    const team = (await api.post('/v1/environments', { name: 'team' })).body.environment;
    expect((await api.post(`/v1/environments/${team.id}/files`, { path: '~/workspaces/app/config.json', content: '{}' })).status).to.equal(201);
  });

  it('refuses a path that would be both a file and a directory (409)', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    const parent = (await api.post(base, { path: '~/.config/tool', content: 'x' })).body.environment_file;
    const below = await api.post(base, { path: '~/.config/tool/settings.json', content: '{}' });
    expect(below.status).to.equal(409);
    expect(errorOf(below).details).to.equal('~/.config/tool is a file, so it cannot also be the directory of ~/.config/tool/settings.json');
    const sibling = (await api.post(base, { path: '~/.config/tool.json', content: '{}' })).body.environment_file;
    const above = await api.patch(`${base}/${sibling.id}`, { path: '~/.config' });
    expect(above.status).to.equal(409);
    expect(errorOf(above).details).to.match(/^~\/\.config is the directory of ~\/\.config\/tool/);
    // Moving the clashing file away frees the path; a file may keep its own path on PATCH.
    expect((await api.patch(`${base}/${parent.id}`, { path: '~/.config/tool/config.yml' })).status).to.equal(200);
    expect((await api.patch(`${base}/${parent.id}`, { path: '~/.config/tool/config.yml', content: 'y' })).status).to.equal(200);
    expect((await api.post(base, { path: '~/.config/tool/settings.json', content: '{}' })).status).to.equal(201);
  });

  it('rejects paths outside ~/ and unsafe paths with 400 naming body.path', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    const cases: Array<[string, RegExp]> = [
      ['/etc/passwd', /^body\.path: must start with ~\//],
      ['workspaces/app/.env', /^body\.path: must start with ~\//],
      ['~root/.bashrc', /^body\.path: must start with ~\//],
      ['~/../etc/passwd', /^body\.path: must not contain \.\. segments/],
      ['~/workspaces/app/../../.ssh/authorized_keys', /^body\.path: must not contain \.\. segments/],
      ['~/bad\u0000name', /^body\.path: must not contain NUL/],
      ['~/workspaces/', /^body\.path: must name a file/],
      [`~/${'a/'.repeat(511)}b`, /^body\.path: must NOT have more than 1024 characters/],
    ];
    for (const [path, details] of cases) {
      const res = await api.post(base, { path, content: 'x' });
      expect(res.status, path.slice(0, 40)).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
    const longest = `~/${'a/'.repeat(510)}bc`;
    expect(longest).to.have.length(1024);
    expect((await api.post(base, { path: longest, content: 'x' })).status).to.equal(201);

    const file = (await api.post(base, { path: '~/ok', content: 'x' })).body.environment_file;
    const badPatch = await api.patch(`${base}/${file.id}`, { path: '~/../../ok' });
    expect(badPatch.status).to.equal(400);
    expect(errorOf(badPatch).details).to.match(/^body\.path: /);
    expect((await api.get(base)).body.environment_files.map((f: { path: string }) => f.path)).to.include('~/ok');
  });

  it('limits content to 65,536 UTF-8 bytes, not characters', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    // 40,000 characters, 80,000 bytes: under the character bound, over the byte bound.
    const wide = await api.post(base, { path: '~/wide.txt', content: 'é'.repeat(40_000) });
    expect(wide.status).to.equal(400);
    expect(errorOf(wide).details).to.equal('body.content: must be at most 65536 bytes of UTF-8 (got 80000)');
    const exact = await api.post(base, { path: '~/exact.txt', content: 'é'.repeat(32_768) });
    expect(exact.status).to.equal(201);
    expect((await rawFile(exact.body.environment_file.id)).size_bytes).to.equal(65_536);
    const ascii = await api.post(base, { path: '~/ascii.txt', content: 'a'.repeat(65_537) });
    expect(ascii.status).to.equal(400);
    expect(errorOf(ascii).details).to.match(/^body\.content: /);
    const grow = await api.patch(`${base}/${exact.body.environment_file.id}`, { content: 'é'.repeat(32_769) });
    expect(grow.status).to.equal(400);
    expect(errorOf(grow).details).to.match(/at most 65536 bytes/);
    expect((await api.get(base)).body.environment_files.map((f: { path: string }) => f.path)).to.deep.equal(['~/exact.txt']);
  });

  it('validates the body shape', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/files';
    const cases: Array<[unknown, RegExp]> = [
      [{ path: '~/a' }, /^body\.content: is required/],
      [{ content: 'x' }, /^body\.path: is required/],
      [{ path: '~/a', content: 'x', mode: '0600' }, /^body\.mode: unknown field/],
      [{ path: '~/a', content: 'x', name: '' }, /^body\.name: /],
      [{ path: '~/a', content: null }, /^body\.content: must be string/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post(base, body);
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
  });
});
