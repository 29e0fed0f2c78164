/** `hangar admin ...` as an operator runs it, against the suite's database, then the API. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, request } from '../../support/http';

const run = promisify(execFile);

async function hangar(...args: string[]): Promise<any> {
  const { stdout } = await run('scripts/hangar', ['admin', ...args], {
    env: { ...process.env, DATABASE_URL: harness().config.databaseUrl ?? '', HANGAR_DATA_DIR: scratch },
  });
  return JSON.parse(stdout);
}

let scratch: string;

describe('hangar admin (operator CLI)', () => {
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'hangar-cli-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('creates an organization whose keys work, connects local bare repositories and a set', async () => {
    const org = await hangar('create-org', '--name', 'CLI Co', '--admin-email', 'ops@cli.test');
    expect(org).to.have.keys('organization_id', 'global_environment_id', 'org_api_key', 'admin');
    const api = as(org.org_api_key);
    expect((await api.get('/v1/environments/global')).body.environment.id).to.equal(org.global_environment_id);

    const member = await hangar('create-user', '--org', org.organization_id, '--email', 'dev@cli.test');
    expect(member.role).to.equal('member');
    const personal = await hangar('create-key', '--org', org.organization_id, '--kind', 'personal', '--user', member.user_id);
    expect((await as(personal.api_key).get('/v1/environments?scope=user')).status).to.equal(200);

    const repos = [];
    for (const name of ['app', 'lib']) {
      const path = join(scratch, `${name}.git`);
      await run('git', ['init', '--quiet', '--bare', '--initial-branch', 'trunk', path]);
      repos.push(await hangar('add-repository', '--org', org.organization_id, '--url', `file://${path}`, '--default-branch', 'trunk'));
    }
    expect(repos[0]).to.include({ name: 'app', default_branch: 'trunk' });
    const set = await hangar('add-repository-set', '--org', org.organization_id, '--name', 'everything', '--repository', repos[1].id, '--repository', repos[0].id);

    const listed = await api.get('/v1/replica/repositories');
    expect(listed.body.repositories.map((r: { name: string }) => r.name)).to.deep.equal(['app', 'lib']);
    expect(listed.body.repositories[0]).to.deep.equal({ id: repos[0].id, name: 'app', url: `file://${join(scratch, 'app.git')}`, default_branch: 'trunk' });
    const sets = await api.get('/v1/replica/repository-sets');
    expect(sets.body.repository_sets).to.have.length(1);
    expect(sets.body.repository_sets[0]).to.include({ id: set.id, name: 'everything', description: null });
    expect(sets.body.repository_sets[0].repositories.map((r: { name: string }) => r.name)).to.deep.equal(['lib', 'app']);

    const env = await api.post('/v1/environments', { name: 'bound', repository_set_id: set.id });
    expect(env.body.environment.repository_set_id).to.equal(set.id);
  });

  it('refuses bad input with a message and a non-zero exit', async () => {
    const org = await hangar('create-org', '--name', 'Strict');
    const failure = await run('scripts/hangar', ['admin', 'create-key', '--org', org.organization_id, '--kind', 'personal'], {
      env: { ...process.env, DATABASE_URL: harness().config.databaseUrl ?? '' },
    }).then(() => null, (err: { code: number; stderr: string }) => err);
    expect(failure?.code).to.equal(1);
    expect(failure?.stderr).to.match(/needs --user/);
  });

  it('keeps repositories and sets of another organization out of reach', async () => {
    const a = await hangar('create-org', '--name', 'Owner');
    const b = await hangar('create-org', '--name', 'Stranger');
    const repo = await hangar('add-repository', '--org', a.organization_id, '--url', `file://${join(scratch, 'private.git')}`);
    await hangar('add-repository-set', '--org', a.organization_id, '--name', 'private', '--repository', repo.id);
    expect((await as(b.org_api_key).get('/v1/replica/repositories')).body).to.deep.equal({ repositories: [] });
    expect((await as(b.org_api_key).get('/v1/replica/repository-sets')).body).to.deep.equal({ repository_sets: [] });
    const bound = await as(b.org_api_key).post('/v1/environments', { name: 'steal', repository_id: repo.id });
    expect(bound.status).to.equal(404);
    const anonymous = await request('GET', '/v1/replica/repositories');
    expect(anonymous.status).to.equal(401);
    errorOf(anonymous);
  });
});
