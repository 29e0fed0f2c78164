import { expect } from 'chai';
import { frontmatter, githubFullName, itemName, REPO_SKILL_CONVENTIONS } from '../../../src/agents/repoSkills';

const convention = (dir: string) => REPO_SKILL_CONVENTIONS.find((c) => c.dir === dir)!;

describe('repo skills: conventions, names and frontmatter', () => {
  it('reads name and description from a closed frontmatter block only', () => {
    expect(frontmatter('---\nname: "Release notes"\ndescription: Write them from merged PRs\nallowed-tools: Bash\n---\n# body')).to.deep.equal({
      name: 'Release notes',
      description: 'Write them from merged PRs',
    });
    expect(frontmatter('\uFEFF---\r\nname: crlf\r\n---\r\n')).to.deep.equal({ name: 'crlf' });
    expect(frontmatter('---\nname: never closed\n')).to.deep.equal({});
    expect(frontmatter('# just markdown\nname: not frontmatter')).to.deep.equal({});
    expect(frontmatter('---\ndescription: >\n  folded\n---\n')).to.deep.equal({});
  });

  it('names files by the endings their convention takes, and directories as they are', () => {
    expect(itemName(convention('.claude/commands'), 'ship.md')).to.equal('ship');
    expect(itemName(convention('.claude/commands'), 'notes.txt')).to.equal(null);
    expect(itemName(convention('.claude/commands'), '.md')).to.equal(null);
    expect(itemName(convention('.cursor/rules'), 'Style.MDC')).to.equal('Style');
    expect(itemName(convention('.agents/skills'), 'pdf-tools')).to.equal('pdf-tools');
  });

  it('finds owner/name in GitHub web and clone URLs, and nothing elsewhere', () => {
    for (const url of ['https://github.com/acme/app', 'https://github.com/acme/app.git', 'https://x-access-token:t@github.com/acme/app.git', 'git@github.com:acme/app.git', 'ssh://git@github.com/acme/app', 'https://github.com/acme/app/']) {
      expect(githubFullName(url), url).to.equal('acme/app');
    }
    for (const url of ['https://gitlab.com/acme/app', 'file:///srv/git/app.git', 'https://github.com/acme', 'https://github.com/acme/app/tree/main']) {
      expect(githubFullName(url), url).to.equal(null);
    }
  });
});
