import { expect } from 'chai';
import { as, errorOf, newOrg } from '../../support/http';

const pdf = { name: 'PDF Toolkit', slug: 'pdf', source: 'github:agent-skills/documents/skills/pdf' };

describe('environment skills', () => {
  it('enables, lists and removes skills by membership row id', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'docs' })).body.environment;
    const base = `/v1/environments/${env.id}/skills`;

    const created = await api.post(base, pdf);
    expect(created.status).to.equal(201);
    const skill = created.body.environment_skill;
    expect(skill).to.include({ ...pdf, organization_id: org.organization_id, environment_id: env.id });
    expect(skill.id).to.match(/^[0-9a-f-]{36}$/);
    expect(Object.keys(skill).sort()).to.deep.equal(['created_at', 'environment_id', 'id', 'name', 'organization_id', 'slug', 'source', 'updated_at']);
    expect(skill.updated_at).to.equal(skill.created_at);
    await api.post(base, { name: 'Code Review', slug: 'code-review', source: 'github:devflow/skills/code-review' });

    const list = await api.get(base);
    expect(list.body).to.have.keys(['environment_skills']);
    expect(list.body.environment_skills.map((s: { slug: string }) => s.slug)).to.deep.equal(['code-review', 'pdf']);
    expect(list.body.environment_skills[1]).to.deep.equal(skill);

    const bySlug = await api.delete(`${base}/pdf`);
    expect(bySlug.status).to.equal(400);
    expect(errorOf(bySlug).details).to.match(/^params\.id/);
    expect((await api.delete(`${base}/${skill.id}`)).body).to.deep.equal({ success: true });
    expect((await api.get(base)).body.environment_skills.map((s: { slug: string }) => s.slug)).to.deep.equal(['code-review']);
    const gone = await api.delete(`${base}/${skill.id}`);
    expect(gone.status).to.equal(404);
    expect(errorOf(gone).error).to.equal('Skill not found');
  });

  it('rejects the same slug or the same source twice in one environment with 409', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const base = '/v1/environments/global/skills';
    expect((await api.post(base, pdf)).status).to.equal(201);
    const sameSlug = await api.post(base, { ...pdf, source: 'github:someone-else/skills/pdf' });
    expect(sameSlug.status).to.equal(409);
    expect(errorOf(sameSlug).error).to.equal('A skill with this slug is already enabled in this environment');
    const sameSource = await api.post(base, { ...pdf, slug: 'pdf-tools' });
    expect(sameSource.status).to.equal(409);
    expect(errorOf(sameSource).error).to.equal('A skill from this source is already enabled in this environment');
    expect((await api.get(base)).body.environment_skills).to.have.length(1);
    const team = (await api.post('/v1/environments', { name: 'team' })).body.environment;
    expect((await api.post(`/v1/environments/${team.id}/skills`, pdf)).status).to.equal(201);
  });

  it('validates the body with 400 naming the field', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'x', slug: 'x' }, /^body\.source: is required/],
      [{ ...pdf, version: '1' }, /^body\.version: unknown field/],
      [{ ...pdf, slug: 'has space' }, /^body\.slug: must match pattern/],
      [{ ...pdf, source: 'github: spaced' }, /^body\.source: must match pattern/],
      [{ ...pdf, name: '   ' }, /^body\.name: must match pattern/],
    ];
    for (const [body, details] of cases) {
      const res = await api.post('/v1/environments/global/skills', body);
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.match(details);
    }
  });

  describe('search', () => {
    it('lists popular skills, most installed first, for an empty query', async () => {
      const org = await newOrg();
      for (const path of ['/v1/environment-skills/search', '/v1/environment-skills/search?q=']) {
        const res = await as(org.org_api_key).get(path);
        expect(res.status).to.equal(200);
        expect(res.body).to.have.keys(['skills']);
        const { skills } = res.body as { skills: Array<{ name: string; slug: string; source: string; installs: number }> };
        expect(skills.length).to.be.within(5, 20);
        for (const s of skills) expect(Object.keys(s).sort()).to.deep.equal(['installs', 'name', 'slug', 'source']);
        expect(skills.map((s) => s.installs)).to.deep.equal([...skills.map((s) => s.installs)].sort((a, b) => b - a));
      }
    });

    it('finds skills by name, slug or source, and nothing for an unknown term', async () => {
      const org = await newOrg();
      const api = as(org.org_api_key);
      const pdfHits = (await api.get('/v1/environment-skills/search?q=PDF')).body.skills;
      expect(pdfHits[0]).to.deep.include(pdf);
      const bySource = (await api.get('/v1/environment-skills/search?q=devflow')).body.skills;
      expect(bySource.length).to.be.greaterThan(1);
      for (const s of bySource) expect(s.source).to.include('devflow');
      expect((await api.get('/v1/environment-skills/search?q=zzz-no-such-skill')).body).to.deep.equal({ skills: [] });
      // A search result can be enabled as is.
      const { name, slug, source } = pdfHits[0];
      expect((await api.post('/v1/environments/global/skills', { name, slug, source })).status).to.equal(201);
    });

    it('requires an API key and rejects unknown parameters', async () => {
      expect((await as('').get('/v1/environment-skills/search?q=pdf')).status).to.equal(401);
      const org = await newOrg();
      const res = await as(org.org_api_key).get('/v1/environment-skills/search?query=pdf');
      expect(res.status).to.equal(400);
      expect(errorOf(res).details).to.equal('query.query: unknown field');
    });
  });
});
