/**
 * Where each coding agent keeps skills, agents, commands and prompts committed to a
 * repository (interop §2.8 "repo skills"), and how a discovered file is described: its
 * framework and kind by location, its name and description from YAML frontmatter when it has
 * some. Pure: the crawl over a code host lives with its client.
 */

/** The original's `RepoSkillFramework`, with the spec's agent ids (`agents` is the shared convention). */
export type RepoSkillFramework = 'agent_1' | 'agent_2' | 'agent_3' | 'agents';
export type RepoSkillKind = 'skill' | 'agent' | 'command' | 'prompt' | 'plugin';

export interface RepoSkillConvention {
  framework: RepoSkillFramework;
  kind: RepoSkillKind;
  /** Repository-relative directory. */
  dir: string;
  /** `dirs`: one sub-directory per item, described by its SKILL.md; `files`: one file per item. */
  layout: 'dirs' | 'files';
  /** File endings an item may have (`files` layout). */
  endings?: string[];
}

export const REPO_SKILL_CONVENTIONS: readonly RepoSkillConvention[] = [
  { framework: 'agent_1', kind: 'skill', dir: '.claude/skills', layout: 'dirs' },
  { framework: 'agent_1', kind: 'agent', dir: '.claude/agents', layout: 'files', endings: ['.md'] },
  { framework: 'agent_1', kind: 'command', dir: '.claude/commands', layout: 'files', endings: ['.md'] },
  { framework: 'agent_2', kind: 'skill', dir: '.codex/skills', layout: 'dirs' },
  { framework: 'agent_2', kind: 'prompt', dir: '.codex/prompts', layout: 'files', endings: ['.md'] },
  // Cursor's rules shape every prompt of the agent; the original lists them among prompts.
  { framework: 'agent_3', kind: 'prompt', dir: '.cursor/rules', layout: 'files', endings: ['.mdc', '.md'] },
  { framework: 'agent_3', kind: 'command', dir: '.cursor/commands', layout: 'files', endings: ['.md'] },
  { framework: 'agents', kind: 'skill', dir: '.agents/skills', layout: 'dirs' },
];

/** The file a skill directory is described by. */
export const SKILL_FILE = 'SKILL.md';

/** A `files` item's name without its ending; null when the ending is not one of the convention's. */
export function itemName(convention: RepoSkillConvention, fileName: string): string | null {
  if (convention.layout === 'dirs') return fileName;
  const ending = convention.endings?.find((e) => fileName.toLowerCase().endsWith(e));
  return ending && fileName.length > ending.length ? fileName.slice(0, -ending.length) : null;
}

/**
 * `name` and `description` of a leading YAML frontmatter block (`---` … `---`), single-line
 * scalar values only, quotes removed; empty when there is none.
 */
export function frontmatter(text: string): { name?: string; description?: string } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return {};
  const found: { name?: string; description?: string } = {};
  for (const line of lines.slice(1, 200)) {
    if (line.trim() === '---') return found;
    const match = /^(name|description):\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const value = match[2]!.replace(/^(["'])(.*)\1$/, '$2').trim();
    if (value && value !== '|' && value !== '>') found[match[1] as 'name' | 'description'] = value.slice(0, 500);
  }
  return {}; // never closed: not frontmatter
}

/**
 * `owner/name` of a repository on GitHub from its web or clone URL
 * (`https://github.com/o/r(.git)`, `git@github.com:o/r.git`, `ssh://git@github.com/o/r`); null elsewhere.
 */
/**
 * The GitHub page of a path on a branch: `tree` for a directory (a skill's folder), `blob` for a
 * file, each segment escaped.
 */
export function githubPageUrl(fullName: string, branch: string, path: string, kind: 'tree' | 'blob'): string {
  const escaped = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  return `https://github.com/${fullName}/${kind}/${escaped(branch)}/${escaped(path)}`;
}

export function githubFullName(url: string): string | null {
  const match = /^(?:https?:\/\/(?:[^@/]+@)?github\.com\/|git@github\.com:|ssh:\/\/git@github\.com\/)([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?\/?$/i.exec(url.trim());
  return match ? `${match[1]}/${match[2]}` : null;
}
