/**
 * Repo skills through the public API: what the environment's repositories commit under each
 * agent's conventions, read from the fake GitHub's contents API; a repository that cannot be
 * read leaves its part out and says why in `error`.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fakeGithub, harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { expectShape } from '../../support/originalShapes';

describe('environments: repo skills', () => {
  it('lists the skills, agents, commands and prompts committed to the bound repositories', async () => {
    const org = await newOrg('repo-skills');
    const api = as(org.org_api_key);
    const owner = `acme-${randomUUID().slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/app`, {
      '.claude/skills/review/SKILL.md': '---\nname: Code review\ndescription: Review a diff for bugs\n---\nSteps…\n',
      '.claude/skills/review/checklist.md': '- tests\n',
      '.claude/skills/not-a-skill/README.md': 'no SKILL.md here\n',
      '.claude/commands/ship.md': 'Ship it.\n',
      '.claude/commands/notes.txt': 'not a command\n',
      '.cursor/rules/style.mdc': '---\ndescription: House style\n---\n',
      '.agents/skills/pdf/SKILL.md': '# PDF\n',
      'README.md': '# app\n',
    });
    const github = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/${owner}/app.git`, defaultBranch: 'trunk' });
    const elsewhere = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://git.example.test/${owner}/other.git`, name: 'other' });
    const set = await harness().admin.addRepositorySet({ organizationId: org.organization_id, name: `both-${owner}`, repositoryIds: [github.id, elsewhere.id] });
    const env = (await api.post('/v1/environments', { name: 'with-repo-skills', repository_set_id: set.id })).body.environment;

    const res = await api.get(`/v1/environments/${env.id}/repo-skills`);
    expect(res.status).to.equal(200);
    const byPath = Object.fromEntries(res.body.repo_skills.map((s: { path: string }) => [s.path, s]));
    expect(Object.keys(byPath).sort()).to.deep.equal(['.agents/skills/pdf', '.claude/commands/ship.md', '.claude/skills/review', '.cursor/rules/style.mdc']);
    expect(byPath['.claude/skills/review']).to.deep.equal({
      id: `${github.id}:.claude/skills/review`,
      repository_id: github.id,
      repository_full_name: `${owner}/app`,
      branch: 'trunk',
      path: '.claude/skills/review',
      name: 'Code review',
      description: 'Review a diff for bugs',
      framework: 'agent_1',
      kind: 'skill',
      html_url: `https://github.com/${owner}/app/tree/trunk/.claude/skills/review`,
    });
    expectShape('ListRepoSkillsResponse', res.body);
    expect(byPath['.claude/commands/ship.md']).to.include({
      name: 'ship',
      description: null,
      framework: 'agent_1',
      kind: 'command',
      html_url: `https://github.com/${owner}/app/blob/trunk/.claude/commands/ship.md`,
    });
    expect(byPath['.cursor/rules/style.mdc']).to.include({ name: 'style', description: 'House style', framework: 'agent_3', kind: 'prompt' });
    expect(byPath['.agents/skills/pdf']).to.include({ name: 'pdf', framework: 'agents', kind: 'skill' });
    // The repository on another host is reported, not failed.
    expect(res.body.error).to.equal("other: not a GitHub repository (repo skills are read through GitHub's contents API)");
  });

  it('answers an empty list for an unbound environment and 404 for an unknown one', async () => {
    const org = await newOrg('repo-skills-none');
    const api = as(org.org_api_key);
    expect((await api.get('/v1/environments/global/repo-skills')).body).to.deep.equal({ repo_skills: [], error: null });
    const missing = await api.get(`/v1/environments/${randomUUID()}/repo-skills`);
    expect(missing.status).to.equal(404);
  });
});
