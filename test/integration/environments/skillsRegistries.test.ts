/**
 * Skills registries through the public API: a GitHub repository (the fake's contents API)
 * added to an environment, its skill directories discovered on add and on every list, in the
 * original's shapes; duplicates, bad URLs, unreadable repositories and other tenants.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { expectShape } from '../../support/originalShapes';
import { fakeGithub } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';

const REVIEW_MD = '---\nname: Code review\ndescription: Review a diff for bugs\n---\nSteps…\n';

describe('environments: skills registries', () => {
  it('adds a GitHub repository, discovers its skill directories, lists and removes it', async () => {
    const org = await newOrg('registries');
    const api = as(org.org_api_key);
    const owner = `reg-${randomUUID().slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/skills-repo`, {
      'README.md': '# our skills\n',
      'review/SKILL.md': REVIEW_MD,
      'review/checklist.md': '- tests\n',
      'docs/index.md': 'not a skill: no SKILL.md\n',
      'skills/pdf/SKILL.md': '# PDF\n',
      '.claude/skills/deploy/SKILL.md': '---\ndescription: Ship to prod\n---\n',
    });
    const env = (await api.post('/v1/environments', { name: 'with-registry' })).body.environment;
    const base = `/v1/environments/${env.id}/skills-registries`;

    const created = await api.post(base, { url: `https://github.com/${owner}/skills-repo` });
    expect(created.status).to.equal(200);
    expectShape('CreateEnvironmentSkillsRegistryResponse', created.body);
    expect(created.body.error).to.equal(null);
    const registry = created.body.registry;
    expect(registry).to.include({
      organization_id: org.organization_id,
      environment_id: env.id,
      name: 'skills-repo',
      url: `https://github.com/${owner}/skills-repo`,
      repository_full_name: `${owner}/skills-repo`,
      default_branch: 'main',
    });
    const byPath = Object.fromEntries(created.body.repo_skills.map((s: { path: string }) => [s.path, s]));
    expect(Object.keys(byPath).sort()).to.deep.equal(['.claude/skills/deploy', 'review', 'skills/pdf']);
    expect(byPath.review).to.deep.equal({
      id: `${registry.id}:review`,
      repository_id: registry.id,
      repository_full_name: `${owner}/skills-repo`,
      branch: 'main',
      path: 'review',
      name: 'Code review',
      description: 'Review a diff for bugs',
      framework: 'agents',
      kind: 'skill',
      html_url: `https://github.com/${owner}/skills-repo/tree/main/review`,
    });
    expect(byPath['.claude/skills/deploy']).to.include({ name: 'deploy', description: 'Ship to prod', framework: 'agent_1' });

    // A skill pushed later is found by the next list.
    fakeGithub().contents.put(`${owner}/skills-repo`, { 'lint/SKILL.md': '# Lint\n' });
    const listed = await api.get(base);
    expect(listed.status).to.equal(200);
    expectShape('ListEnvironmentSkillsRegistriesResponse', listed.body);
    expect(listed.body.registries).to.have.length(1);
    expect(listed.body.registries[0]).to.include({ id: registry.id, error: null });
    expect(listed.body.registries[0].repo_skills.map((s: { path: string }) => s.path).sort()).to.deep.equal(['.claude/skills/deploy', 'lint', 'review', 'skills/pdf']);

    // The same repository again (any spelling GitHub accepts) is a conflict.
    for (const url of [`https://github.com/${owner}/skills-repo.git`, `git@github.com:${owner.toUpperCase()}/Skills-Repo.git`]) {
      const again = await api.post(base, { url });
      expect(again.status, url).to.equal(409);
      expect(errorOf(again).error).to.equal('This repository is already a skills registry of this environment');
    }
    // …but another environment (here Global) may have it too.
    expect((await api.post('/v1/environments/global/skills-registries', { url: `https://github.com/${owner}/skills-repo` })).status).to.equal(200);

    const removed = await api.delete(`${base}/${registry.id}`);
    expect(removed.status).to.equal(200);
    expectShape('SuccessResponse', removed.body);
    expect(removed.body).to.deep.equal({ success: true });
    expect((await api.get(base)).body).to.deep.equal({ registries: [] });
    expect((await api.delete(`${base}/${registry.id}`)).status).to.equal(404);
  });

  it('creates a registry whose repository cannot be read, saying why in `error`', async () => {
    const org = await newOrg('registries-missing');
    const api = as(org.org_api_key);
    const owner = `gone-${randomUUID().slice(0, 8)}`;
    const created = await api.post('/v1/environments/global/skills-registries', { url: `https://github.com/${owner}/nothing-here` });
    expect(created.status).to.equal(200);
    expectShape('CreateEnvironmentSkillsRegistryResponse', created.body);
    expect(created.body.repo_skills).to.deep.equal([]);
    expect(created.body.error).to.equal(`${owner}/nothing-here was not found on GitHub (or is private and no token can read it)`);
    expect(created.body.registry).to.include({ repository_full_name: `${owner}/nothing-here` });

    // Once the repository exists, the list discovers its skills.
    fakeGithub().contents.put(`${owner}/nothing-here`, { 'review/SKILL.md': REVIEW_MD });
    const listed = (await api.get('/v1/environments/global/skills-registries')).body.registries;
    expect(listed[0].error).to.equal(null);
    expect(listed[0].repo_skills.map((s: { name: string }) => s.name)).to.deep.equal(['Code review']);
  });

  it('refuses URLs that are not GitHub repositories (400) and other tenants’ ids (404)', async () => {
    const org = await newOrg('registries-bad');
    const api = as(org.org_api_key);
    for (const url of ['https://gitlab.com/acme/skills', 'not a url', 'https://github.com/acme', 'https://github.com/acme/skills/tree/main/x']) {
      const res = await api.post('/v1/environments/global/skills-registries', { url });
      expect(res.status, url).to.equal(400);
      expect(errorOf(res).details, url).to.include('url');
    }
    expect((await api.post('/v1/environments/global/skills-registries', {})).status).to.equal(400);
    expect((await api.post('/v1/environments/global/skills-registries', { url: 'https://github.com/a/b', extra: 1 })).status).to.equal(400);

    const owner = `other-${randomUUID().slice(0, 8)}`;
    fakeGithub().contents.put(`${owner}/skills`, { 'x/SKILL.md': '# X\n' });
    const other = await newOrg('registries-other');
    const otherApi = as(other.org_api_key);
    const otherEnv = (await otherApi.post('/v1/environments', { name: 'theirs' })).body.environment;
    const theirs = (await otherApi.post(`/v1/environments/${otherEnv.id}/skills-registries`, { url: `https://github.com/${owner}/skills` })).body.registry;

    expect((await api.get(`/v1/environments/${otherEnv.id}/skills-registries`)).status).to.equal(404);
    expect((await api.post(`/v1/environments/${otherEnv.id}/skills-registries`, { url: `https://github.com/${owner}/skills` })).status).to.equal(404);
    expect((await api.delete(`/v1/environments/${otherEnv.id}/skills-registries/${theirs.id}`)).status).to.equal(404);
    // Their registry id under our own environment is simply not found.
    expect((await api.delete(`/v1/environments/global/skills-registries/${theirs.id}`)).status).to.equal(404);
    expect((await api.delete(`/v1/environments/global/skills-registries/${randomUUID()}`)).status).to.equal(404);
    expect((await api.delete('/v1/environments/global/skills-registries/not-a-uuid')).status).to.equal(400);
    expect((await otherApi.get(`/v1/environments/${otherEnv.id}/skills-registries`)).body.registries).to.have.length(1);
  });
});
