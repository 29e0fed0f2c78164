import { expect } from 'chai';
import { fetchSkills } from '../../../src/worker/skills';
import { effectiveSkills, parseSkillSource, SKILL_DIRS, SKILL_LIMITS, skillHomeFiles } from '../../../src/agents/skills';
import type { GithubContentsClient, RepositoryContents } from '../../../src/integrations/github/contents';
import { createLogger } from '../../../src/logger';

/** A contents client over an in-memory tree ("owner/repo/path" → text); `hang` never answers. */
function stubContents(tree: Record<string, string>, hang: string[] = []): GithubContentsClient & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async read(at, options = {}): Promise<RepositoryContents | null> {
      const key = [at.owner, at.repo, at.path].filter(Boolean).join('/');
      reads.push(key);
      if (hang.some((h) => key.startsWith(h))) {
        return new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      }
      if (key in tree) return { type: 'file', content: Buffer.from(tree[key]!) };
      const entries = new Map<string, 'file' | 'dir'>();
      for (const path of Object.keys(tree)) {
        if (!path.startsWith(`${key}/`)) continue;
        const [name, ...rest] = path.slice(key.length + 1).split('/');
        entries.set(name!, rest.length ? 'dir' : 'file');
      }
      if (entries.size === 0) return null;
      return { type: 'dir', entries: [...entries].map(([name, type]) => ({ name, type, size: type === 'file' ? Buffer.byteLength(tree[`${key}/${name}`]!) : 0 })) };
    },
  };
}

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  return { logger: createLogger({ level: 'debug', write: (line) => lines.push(JSON.parse(line)) }), lines };
}

describe('skills: layout, sources and layers', () => {
  it('lays a skill out in the skills directory of every CLI that has one', () => {
    expect(SKILL_DIRS).to.deep.equal({
      agent_1: '~/.claude/skills',
      agent_2: '~/.codex/skills',
      agent_4: '~/.config/opencode/skills',
      agent_5: '~/.pi/agent/skills',
    });
    const files = skillHomeFiles('pdf', [
      { path: 'SKILL.md', content: '# PDF' },
      { path: 'scripts/extract.py', content: 'print(1)' },
    ]);
    expect(files.map((f) => f.path)).to.deep.equal([
      '~/.claude/skills/pdf/SKILL.md',
      '~/.claude/skills/pdf/scripts/extract.py',
      '~/.codex/skills/pdf/SKILL.md',
      '~/.codex/skills/pdf/scripts/extract.py',
      '~/.config/opencode/skills/pdf/SKILL.md',
      '~/.config/opencode/skills/pdf/scripts/extract.py',
      '~/.pi/agent/skills/pdf/SKILL.md',
      '~/.pi/agent/skills/pdf/scripts/extract.py',
    ]);
    expect(files[0]!.content).to.equal('# PDF');
    expect(() => skillHomeFiles('..', [])).to.throw(/cannot name a folder/);
  });

  it('reads github:owner/repo/path sources and refuses anything else', () => {
    expect(parseSkillSource('github:agent-skills/documents/skills/pdf')).to.deep.equal({ owner: 'agent-skills', repo: 'documents', path: 'skills/pdf' });
    expect(parseSkillSource('github:devflow/skills')).to.deep.equal({ owner: 'devflow', repo: 'skills', path: '' });
    expect(parseSkillSource('github:acme/repo.js/a//b/')).to.deep.equal({ owner: 'acme', repo: 'repo.js', path: 'a/b' });
    for (const bad of ['', 'github:', 'github:owner', 'github:owner/', 'gitlab:owner/repo/path', 'https://github.com/o/r', 'github:o/r/../etc', 'github:o/../x', 'github:-bad/r/p', 'github:o/r/a\\b']) {
      expect(parseSkillSource(bad), bad).to.equal(null);
    }
  });

  it('takes each slug from the highest layer that enables it, ignoring other environments', () => {
    const rows = [
      { environment_id: 'env', name: 'Lint (team)', slug: 'lint', source: 'github:team/skills/lint' },
      { environment_id: 'global', name: 'Lint', slug: 'lint', source: 'github:org/skills/lint' },
      { environment_id: 'global', name: 'PDF', slug: 'pdf', source: 'github:org/skills/pdf' },
      { environment_id: 'elsewhere', name: 'Other', slug: 'other', source: 'github:x/y/z' },
    ];
    expect(effectiveSkills(['global', 'source', 'env'], rows)).to.deep.equal([
      { name: 'Lint (team)', slug: 'lint', source: 'github:team/skills/lint' },
      { name: 'PDF', slug: 'pdf', source: 'github:org/skills/pdf' },
    ]);
    expect(effectiveSkills(['global'], rows).map((s) => s.source)).to.deep.equal(['github:org/skills/lint', 'github:org/skills/pdf']);
  });

  it('caps a skill at 100 files, 1 MiB and 10 s', () => {
    expect(SKILL_LIMITS).to.include({ maxFiles: 100, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
  });
});

describe('skills: fetching for a workspace', () => {
  const limits = { ...SKILL_LIMITS, timeoutMs: 200 };

  it('installs the skills it can fetch, leaves out the others with a warning, and never stops', async () => {
    const contents = stubContents({
      'acme/skills/lint/SKILL.md': '---\nname: lint\n---\nLint well.',
      'acme/skills/lint/rules/style.md': 'two spaces',
      'acme/skills/bare/README.md': 'no SKILL.md here',
    }, ['slow/']);
    const { logger, lines } = capturingLogger();
    const result = await fetchSkills({ githubContents: contents, logger }, [
      { name: 'Lint', slug: 'lint', source: 'github:acme/skills/lint' },
      { name: 'Missing', slug: 'missing', source: 'github:acme/skills/missing' },
      { name: 'Bare', slug: 'bare', source: 'github:acme/skills/bare' },
      { name: 'Elsewhere', slug: 'elsewhere', source: 'https://deploy:s3cret@git.example.com/skills/x' },
      { name: 'Slow', slug: 'slow', source: 'github:slow/repo/skill' },
    ], limits);

    expect(result.installed).to.deep.equal(['lint']);
    expect(result.files.filter((f) => f.path.startsWith('~/.claude/')).map((f) => [f.path, f.content])).to.deep.equal([
      ['~/.claude/skills/lint/SKILL.md', '---\nname: lint\n---\nLint well.'],
      ['~/.claude/skills/lint/rules/style.md', 'two spaces'],
    ]);
    expect(result.files).to.have.length(8);

    const warnings = lines.filter((l) => l.level === 'warn' && l.msg === 'skill not installed');
    expect(Object.fromEntries(warnings.map((w) => [w.slug, w.reason]))).to.deep.equal({
      missing: 'acme/skills/missing was not found',
      bare: 'acme/skills/bare has no SKILL.md at its root',
      elsewhere: 'only github:owner/repo/path sources can be installed',
      slow: 'not fetched within 200 ms',
    });
    expect(warnings.find((w) => w.slug === 'elsewhere')).to.include({ scheme: 'https:' });
    expect(JSON.stringify(lines)).not.to.include('s3cret');
  });

  it('refuses a skill over the file or size limit before downloading its files', async () => {
    const many = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`acme/big/many/f${i}.md`, 'x']));
    const contents = stubContents({ 'acme/big/many/SKILL.md': 'x', ...many, 'acme/big/heavy/SKILL.md': 'x'.repeat(600), 'acme/big/heavy/more.md': 'y'.repeat(600) });
    const { logger, lines } = capturingLogger();
    const result = await fetchSkills({ githubContents: contents, logger }, [
      { name: 'Many', slug: 'many', source: 'github:acme/big/many' },
      { name: 'Heavy', slug: 'heavy', source: 'github:acme/big/heavy' },
    ], { ...limits, maxFiles: 4, maxBytes: 1000 });
    expect(result).to.deep.equal({ files: [], installed: [] });
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.reason)).to.have.members([
      'acme/big/many has more than 4 files',
      'acme/big/heavy is larger than 1000 bytes',
    ]);
    // Only the listings were read.
    expect(contents.reads).to.have.members(['acme/big/many', 'acme/big/heavy']);
  });
});
