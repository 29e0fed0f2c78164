/**
 * A skills registry's skills reach new workspaces: discovered at provisioning (so a skill
 * pushed to the registry after it was added is installed too), written into every CLI's
 * skills directory, named in `skills_installed`; an environment skill of the same slug wins.
 */
import { expect } from 'chai';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { fakeGithub, harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const SKILL_DIRS = ['~/.claude/skills', '~/.codex/skills', '~/.config/opencode/skills', '~/.pi/agent/skills'];

describe('replicas: skills registries in the workspace', function () {
  this.timeout(240_000);

  it("installs the registry's skills at provisioning, the environment's own skill winning a shared slug", async () => {
    const org = await newOrg('registry-install');
    const api = as(org.org_api_key);
    const owner = `reginst-${org.organization_id.slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/team-skills`, {
      'review/SKILL.md': '# Review (registry)\n',
      'review/scripts/check.sh': 'echo check\n',
      'lint/SKILL.md': '# Lint (registry)\n',
    });
    fakeGithub().contents.put(`${owner}/own`, { 'lint/SKILL.md': '# Lint (environment)\n' });

    const env = (await api.post('/v1/environments', { name: 'registry-env' })).body.environment;
    expect((await api.post(`/v1/environments/${env.id}/skills-registries`, { url: `https://github.com/${owner}/team-skills` })).body.repo_skills).to.have.length(2);
    expect((await api.post(`/v1/environments/${env.id}/skills`, { name: 'Lint', slug: 'lint', source: `github:${owner}/own/lint` })).status).to.equal(201);
    // Pushed after the registry was added: provisioning discovers it.
    fakeGithub().contents.put(`${owner}/team-skills`, { 'skills/pdf/SKILL.md': '# PDF (registry)\n' });

    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: { 'X-Api-Version': '2026-05-17' },
      body: { name: 'registry-workspace', environment_id: env.id, message: 'hello' },
    });
    expect(created.status).to.equal(201);
    const id: string = created.body.replica.id;
    await until('the workspace to be active', async () => (await harness().database.db('replicas').where({ id }).first())?.status === 'active', 120_000);

    const exec = (cmd: string) => execInContainer(workspaceName(id), cmd);
    for (const dir of SKILL_DIRS) {
      expect(await exec(`ls -A ${dir}`), dir).to.equal('lint\npdf\nreview\n');
      expect(await exec(`cat ${dir}/review/SKILL.md ${dir}/review/scripts/check.sh`), dir).to.equal('# Review (registry)\necho check\n');
      expect(await exec(`cat ${dir}/pdf/SKILL.md`), dir).to.equal('# PDF (registry)\n');
      expect(await exec(`cat ${dir}/lint/SKILL.md`), dir).to.equal('# Lint (environment)\n');
    }
    const details = (await api.get(`/v1/replica/${id}?include=environment`)).body.replica;
    expect(details.environment.skills_installed).to.deep.equal(['lint', 'pdf', 'review']);
    // The registry's own lint was looked at (discovery) but never fetched.
    expect(fakeGithub().calls.filter((c) => c.path === `/repos/${owner}/team-skills/contents/lint`)).to.have.length(0);

    await api.delete(`/v1/replica/${id}`);
  });
});
