/**
 * Environment skills reach the agents: a workspace gets each skill of its layers that GitHub
 * (the fake, through its contents API) can serve, in every CLI's skills directory, and
 * `include=environment` reports exactly those — not a skill that could not be fetched.
 */
import { expect } from 'chai';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { fakeGithub, harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const SKILL_DIRS = ['~/.claude/skills', '~/.codex/skills', '~/.config/opencode/skills', '~/.pi/agent/skills'];
const SKILL_MD = '---\nname: lint-rules\ndescription: House lint rules\n---\nRun the linter before every commit.\n';
const STYLE_MD = '# Style\nTwo spaces, no tabs.\n';

describe('replicas: environment skills in the workspace', function () {
  this.timeout(240_000);

  it('installs the fetchable skills of its layers in every CLI’s skills directory and reports only those', async () => {
    const org = await newOrg('skills');
    const api = as(org.org_api_key);
    // An owner of this test's own, so nothing another test puts in the fake GitHub interferes.
    const owner = `skills-${org.organization_id.slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/catalog/skills/lint-rules`, { 'SKILL.md': SKILL_MD, 'reference/style.md': STYLE_MD });
    fakeGithub().contents.put(`${owner}/catalog/skills/old-lint`, { 'SKILL.md': 'the Global version\n' });

    const env = (await api.post('/v1/environments', { name: 'skilled' })).body.environment;
    // Global's skill of the same slug is replaced by the environment's.
    expect((await api.post('/v1/environments/global/skills', { name: 'Lint (org)', slug: 'lint-rules', source: `github:${owner}/catalog/skills/old-lint` })).status).to.equal(201);
    expect((await api.post(`/v1/environments/${env.id}/skills`, { name: 'Lint Rules', slug: 'lint-rules', source: `github:${owner}/catalog/skills/lint-rules` })).status).to.equal(201);
    expect((await api.post(`/v1/environments/${env.id}/skills`, { name: 'Gone', slug: 'gone-skill', source: `github:${owner}/catalog/skills/gone` })).status).to.equal(201);

    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: { 'X-Api-Version': '2026-05-17' },
      body: { name: 'skilled-workspace', environment_id: env.id, message: 'hello' },
    });
    expect(created.status).to.equal(201);
    const id: string = created.body.replica.id;
    // Nothing is reported before provisioning has written anything.
    const early = (await api.get(`/v1/replica/${id}?include=environment`)).body.replica;
    expect(early.status).to.equal('preparing');
    expect(early.environment.skills_installed).to.deep.equal([]);

    await until('the workspace to be active', async () => (await harness().database.db('replicas').where({ id }).first())?.status === 'active', 120_000);

    const exec = (cmd: string) => execInContainer(workspaceName(id), cmd);
    for (const dir of SKILL_DIRS) {
      expect(await exec(`cat ${dir}/lint-rules/SKILL.md`), dir).to.equal(SKILL_MD);
      expect(await exec(`cat ${dir}/lint-rules/reference/style.md`), dir).to.equal(STYLE_MD);
      expect(await exec(`ls -A ${dir}`), dir).to.equal('lint-rules\n');
    }

    const details = (await api.get(`/v1/replica/${id}?include=environment`)).body.replica;
    expect(details.environment.skills_installed).to.deep.equal(['lint-rules']);
    // The record is not the client's config.
    expect(details.config).not.to.have.property('skills_installed');
    // Fetched in the worker, unauthenticated (no HANGAR_GITHUB_TOKEN here), through the contents API.
    const fetched = fakeGithub().calls.filter((c) => c.path.startsWith(`/repos/${owner}/`));
    expect(fetched.map((c) => c.path)).to.include.members([
      `/repos/${owner}/catalog/contents/skills/lint-rules`,
      `/repos/${owner}/catalog/contents/skills/lint-rules/SKILL.md`,
      `/repos/${owner}/catalog/contents/skills/lint-rules/reference/style.md`,
      `/repos/${owner}/catalog/contents/skills/gone`,
    ]);
    expect(fetched.map((c) => c.path)).not.to.include(`/repos/${owner}/catalog/contents/skills/old-lint`);
    expect(fetched.every((c) => c.authorization === undefined)).to.equal(true);

    await api.delete(`/v1/replica/${id}`);
  });
});
