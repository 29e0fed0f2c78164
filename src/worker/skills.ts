/**
 * A workspace's skills, fetched here in the worker (never from inside the container, which
 * holds no GitHub credential) and laid out for every CLI. A skill that cannot be fetched —
 * not a `github:` source, missing, no SKILL.md, too big, too slow — is left out with a
 * warning: provisioning goes on, and the replica's record lists only what was written.
 */
import { effectiveSkills, parseSkillSource, SKILL_ENTRY_FILE, SKILL_LIMITS, skillHomeFiles, type EnvironmentSkill, type SkillLimits } from '../agents/skills';
import type { Repositories } from '../db';
import type { GithubContentsClient } from '../integrations/github/contents';
import { fetchContentsTree } from '../integrations/github/contentsTree';
import { discoverRegistrySkills } from '../integrations/github/skillsRegistry';
import type { Logger } from '../logger';
import type { WorkspaceFile } from '../sandbox/workspace';

export interface SkillsInstall {
  /** Home files for every CLI's skills directory, to write before the environment's own files. */
  files: WorkspaceFile[];
  /** The slugs of the skills in `files`, sorted. */
  installed: string[];
}

/** The skills of an environment's layers (bottom first), a later layer's winning by slug. */
export async function layeredSkills(repos: Pick<Repositories, 'environmentResources'>, layerIds: string[]): Promise<EnvironmentSkill[]> {
  return effectiveSkills(layerIds, await repos.environmentResources.skills.ofEnvironments(layerIds));
}

type FetchDeps = { githubContents: GithubContentsClient; logger: Logger };

/**
 * The skills a workspace gets: its layers' own, plus those discovered now in its skills
 * registries (`owner/name`, the environment's own first; the first registry to have a slug
 * keeps it). An environment skill wins over a registry's of the same slug. A registry that
 * cannot be read is skipped with a warning, like a skill that cannot be fetched.
 */
export async function withRegistrySkills(deps: FetchDeps, skills: EnvironmentSkill[], registries: Array<{ repository_full_name: string }>): Promise<EnvironmentSkill[]> {
  if (registries.length === 0) return skills;
  const discovered = await Promise.all(
    registries.map(async ({ repository_full_name: fullName }) => {
      const [owner, repo] = fullName.split('/') as [string, string];
      try {
        return (await discoverRegistrySkills(deps.githubContents, { owner, repo })).map((s) => ({ name: s.name, slug: s.slug, source: `github:${fullName}/${s.path}` }));
      } catch (err) {
        deps.logger.warn('skills registry not read', { repository: fullName, reason: (err as Error).message });
        return [];
      }
    }),
  );
  const bySlug = new Map<string, EnvironmentSkill>();
  for (const skill of discovered.flat()) if (!bySlug.has(skill.slug)) bySlug.set(skill.slug, skill);
  for (const skill of skills) bySlug.set(skill.slug, skill);
  return [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

/** Fetches every skill at once (the client bounds concurrent calls), each within `limits`. */
export async function fetchSkills(deps: FetchDeps, skills: EnvironmentSkill[], limits: SkillLimits = SKILL_LIMITS): Promise<SkillsInstall> {
  const fetched = await Promise.all(skills.map((skill) => fetchSkill(deps, skill, limits)));
  const done = fetched.filter((s): s is NonNullable<typeof s> => s !== null);
  return { files: done.flatMap((s) => s.files), installed: done.map((s) => s.slug).sort() };
}

async function fetchSkill(deps: FetchDeps, skill: EnvironmentSkill, limits: SkillLimits): Promise<{ slug: string; files: WorkspaceFile[] } | null> {
  const { slug, source } = skill;
  const location = parseSkillSource(source);
  if (!location) {
    // Only its scheme: a URL source may carry credentials.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(source)?.[0] ?? null;
    deps.logger.warn('skill not installed', { slug, scheme, reason: 'only github:owner/repo/path sources can be installed' });
    return null;
  }
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  const startedAt = Date.now();
  try {
    const tree = await fetchContentsTree(deps.githubContents, location, { ...limits, requiredFile: SKILL_ENTRY_FILE }, deadline);
    if (tree.skipped.length > 0) deps.logger.info('skill files skipped as binary', { slug, files: tree.skipped.slice(0, 20) });
    deps.logger.info('skill fetched', { slug, files: tree.files.length, durationMs: Date.now() - startedAt });
    return { slug, files: skillHomeFiles(slug, tree.files) };
  } catch (err) {
    const reason = deadline.aborted ? `not fetched within ${limits.timeoutMs} ms` : (err as Error).message;
    deps.logger.warn('skill not installed', { slug, source, reason });
    return null;
  }
}
