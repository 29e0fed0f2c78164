/**
 * Environment skills as the coding agents find them: where each CLI looks for skills in the
 * home, how a skill's `source` names a GitHub directory, which skill of a workspace's layers
 * wins, and the limits a fetched skill must fit. Pure: fetching is the worker's
 * (`src/worker/skills.ts` over `src/integrations/github/contentsTree.ts`).
 */
import type { AgentId } from './catalog';

/**
 * Each CLI's own skills directory, one folder per skill (`<dir>/<slug>/SKILL.md`). agent_3
 * has no skills directory of its own, so it gets none.
 */
export const SKILL_DIRS: Partial<Record<AgentId, string>> = {
  agent_1: '~/.claude/skills',
  agent_2: '~/.codex/skills',
  agent_4: '~/.config/opencode/skills',
  agent_5: '~/.pi/agent/skills',
};

/** The file a skill directory must hold at its root. */
export const SKILL_ENTRY_FILE = 'SKILL.md';

/**
 * What one skill may weigh: a skill is instructions plus a few scripts and references, so
 * anything larger is refused rather than copied into every workspace four times.
 */
export interface SkillLimits {
  maxFiles: number;
  /** All of the skill's files together. */
  maxBytes: number;
  /** Nested folders followed below the skill's root. */
  maxDepth: number;
  /** Fetching one skill, all of its files included. */
  timeoutMs: number;
}

export const SKILL_LIMITS: Readonly<SkillLimits> = { maxFiles: 100, maxBytes: 1024 * 1024, maxDepth: 8, timeoutMs: 10_000 };

/** A GitHub directory: `github:owner/repo/path/to/skill` (a repository root when `path` is empty). */
export interface SkillLocation {
  owner: string;
  repo: string;
  path: string;
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

/** A segment safe to write as a file or folder name. */
export function isSafeName(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !/[/\\\0]/.test(name) && Buffer.byteLength(name) <= 255;
}

/** The GitHub directory a source names, or null when it is not a `github:` source Hangar can read. */
export function parseSkillSource(source: string): SkillLocation | null {
  const match = /^github:(.+)$/.exec(source.trim());
  if (!match) return null;
  const [owner = '', repo = '', ...rest] = match[1]!.split('/');
  const path = rest.filter((s) => s !== '');
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null;
  if (!path.every(isSafeName)) return null;
  return { owner, repo, path: path.join('/') };
}

/** An enabled skill of an environment layer. */
export interface LayerSkill {
  environment_id: string;
  name: string;
  slug: string;
  source: string;
}

export type EnvironmentSkill = Pick<LayerSkill, 'name' | 'slug' | 'source'>;

/**
 * The skills a workspace gets from its layers (`layerIds` from Global up to the environment):
 * a later layer's skill replaces an earlier one of the same slug. Ordered by slug.
 */
export function effectiveSkills(layerIds: string[], rows: LayerSkill[]): EnvironmentSkill[] {
  const rank = new Map(layerIds.map((id, i) => [id, i]));
  const bySlug = new Map<string, EnvironmentSkill>();
  const ordered = rows.filter((r) => rank.has(r.environment_id)).sort((a, b) => rank.get(a.environment_id)! - rank.get(b.environment_id)!);
  for (const { name, slug, source } of ordered) bySlug.set(slug, { name, slug, source });
  return [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/** A file of a fetched skill, by its path inside the skill's directory (`SKILL.md`, `scripts/x.py`). */
export interface SkillFile {
  path: string;
  content: string;
}

/** The home files that give a skill to every CLI: one copy per skills directory. */
export function skillHomeFiles(slug: string, files: SkillFile[]): Array<{ path: string; content: string }> {
  if (!isSafeName(slug)) throw new Error(`skill slug ${JSON.stringify(slug)} cannot name a folder`);
  return Object.values(SKILL_DIRS).flatMap((dir) => files.map((f) => ({ path: `${dir}/${slug}/${f.path}`, content: f.content })));
}
