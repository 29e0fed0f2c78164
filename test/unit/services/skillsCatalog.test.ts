import { expect } from 'chai';
import { BUILT_IN_SKILLS, POPULAR_LIMIT, createSkillsCatalog } from '../../../src/services/skillsCatalog';

describe('built-in skills catalog', () => {
  const catalog = createSkillsCatalog();

  it('has unique slugs and sources', () => {
    expect(new Set(BUILT_IN_SKILLS.map((s) => s.slug)).size).to.equal(BUILT_IN_SKILLS.length);
    expect(new Set(BUILT_IN_SKILLS.map((s) => s.source)).size).to.equal(BUILT_IN_SKILLS.length);
    for (const skill of BUILT_IN_SKILLS) expect(skill.source).to.match(/^github:[^/\s]+\/[^/\s]+\/\S+$/);
  });

  it('lists the most popular skills for an empty query', () => {
    const popular = catalog.search('  ');
    expect(popular).to.have.length(POPULAR_LIMIT);
    const installs = popular.map((s) => s.installs);
    expect(installs).to.deep.equal([...installs].sort((a, b) => b - a));
    expect(Object.keys(popular[0]!).sort()).to.deep.equal(['installs', 'name', 'slug', 'source']);
  });

  it('puts an exact slug match first, then prefixes, then other matches', () => {
    const custom = createSkillsCatalog([
      { name: 'Docs linter', slug: 'docs-lint', source: 'github:a/b/docs-lint', installs: 900, description: 'lints docx files too' },
      { name: 'DOCX', slug: 'docx', source: 'github:a/b/docx', installs: 10, description: 'word documents' },
      { name: 'Templates', slug: 'docx-templates', source: 'github:a/b/tpl', installs: 1, description: 'letterheads' },
      { name: 'Pandoc', slug: 'pandoc', source: 'github:a/b/pandoc', installs: 5000, description: 'converts docx to markdown' },
    ]);
    expect(custom.search('DOCX').map((s) => s.slug)).to.deep.equal(['docx', 'docx-templates', 'pandoc', 'docs-lint']);
  });

  it('requires every term to match, case-insensitively', () => {
    expect(catalog.search('pdf').map((s) => s.slug)[0]).to.equal('pdf');
    expect(catalog.search('POSTGRES migrations').map((s) => s.slug)).to.deep.equal(['postgres-migrations']);
    expect(catalog.search('postgres kubernetes')).to.deep.equal([]);
  });
});
