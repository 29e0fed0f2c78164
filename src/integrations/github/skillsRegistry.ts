/**
 * Skills registries: a GitHub repository that publishes skills, one directory per skill with
 * its `SKILL.md`. Discovery looks where such repositories put them: directories at the root,
 * under `skills/`, and under the agents' own skills folders (`.claude/skills`, `.codex/skills`,
 * `.agents/skills`). A directory without a `SKILL.md` is not a skill. Bounded like the repo-skills
 * crawl: a deadline for the whole discovery and a cap on the directories looked at.
 */
import { frontmatter, REPO_SKILL_CONVENTIONS, SKILL_FILE, type RepoSkillFramework } from '../../agents/repoSkills';
import { isSafeName } from '../../agents/skills';
import { createGithubApi, GithubApiError } from './api';
import type { GithubContentsClient } from './contents';

export interface RegistryRepository {
  owner: string;
  repo: string;
}

export interface DiscoveredSkill {
  /** Repository-relative directory of the skill. */
  path: string;
  /** The directory's name: the skill's slug in a workspace. */
  slug: string;
  name: string;
  description: string | null;
  framework: RepoSkillFramework;
}

export interface RegistryLimits {
  /** Skill directories returned at most. */
  maxSkills: number;
  /** Candidate directories whose SKILL.md is looked for at most. */
  maxCandidates: number;
  timeoutMs: number;
}

export const REGISTRY_LIMITS: Readonly<RegistryLimits> = { maxSkills: 100, maxCandidates: 200, timeoutMs: 20_000 };

/** Where a registry keeps skill directories, in the order a slug is first taken. */
const LOCATIONS: ReadonlyArray<{ dir: string; framework: RepoSkillFramework }> = [
  { dir: '', framework: 'agents' },
  { dir: 'skills', framework: 'agents' },
  ...REPO_SKILL_CONVENTIONS.filter((c) => c.kind === 'skill' && c.layout === 'dirs').map((c) => ({ dir: c.dir, framework: c.framework })),
];

/** Why a registry could not be read; the message names the repository, never a credential. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/**
 * The skill directories of the repository's default branch, a slug taken by its first
 * location. RegistryError when the repository cannot be read or is not found.
 */
export async function discoverRegistrySkills(contents: GithubContentsClient, at: RegistryRepository, limits: RegistryLimits = REGISTRY_LIMITS): Promise<DiscoveredSkill[]> {
  const what = `${at.owner}/${at.repo}`;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const listings = await Promise.all(LOCATIONS.map(async (loc) => ({ loc, listing: await contents.read({ ...at, path: loc.dir }, { signal }) })));
    if (!listings[0]!.listing) throw new RegistryError(`${what} was not found on GitHub (or is private and no token can read it)`);
    const candidates: Array<{ path: string; slug: string; framework: RepoSkillFramework }> = [];
    const taken = new Set<string>();
    for (const { loc, listing } of listings) {
      if (listing?.type !== 'dir') continue;
      for (const entry of listing.entries) {
        // Hidden folders at the root are the agents' own (`.claude`), looked at on their own.
        if (entry.type !== 'dir' || !isSafeName(entry.name) || (loc.dir === '' && entry.name.startsWith('.')) || taken.has(entry.name)) continue;
        if (loc.dir === '' && entry.name === 'skills') continue;
        taken.add(entry.name);
        candidates.push({ path: loc.dir ? `${loc.dir}/${entry.name}` : entry.name, slug: entry.name, framework: loc.framework });
      }
    }
    const described = await Promise.all(
      candidates.slice(0, limits.maxCandidates).map(async (c) => {
        const file = await contents.read({ ...at, path: `${c.path}/${SKILL_FILE}` }, { signal });
        if (file?.type !== 'file') return null;
        const meta = frontmatter(file.content.toString('utf8'));
        return { ...c, name: meta.name ?? c.slug, description: meta.description ?? null };
      }),
    );
    return described.filter((s): s is DiscoveredSkill => s !== null).slice(0, limits.maxSkills);
  } catch (err) {
    if (err instanceof RegistryError) throw err;
    if (signal.aborted) throw new RegistryError(`${what} was not read within ${limits.timeoutMs / 1000} s`);
    throw new RegistryError(`${what} could not be read: ${(err as Error).message}`);
  }
}

export interface RepositoryFacts {
  fullName: string;
  defaultBranch: string;
}

/** `GET /repos/{owner}/{repo}`: the repository's canonical name and default branch; null when not found. */
export function createGithubRepositoryReader(config: { apiUrl: string; token?: string; timeoutMs?: number }) {
  const api = createGithubApi({ apiUrl: config.apiUrl, token: config.token, timeoutMs: config.timeoutMs, anonymous: true });
  return {
    async read(at: RegistryRepository, options: { signal?: AbortSignal } = {}): Promise<RepositoryFacts | null> {
      try {
        const { body } = await api.request(null, 'GET', `/repos/${encodeURIComponent(at.owner)}/${encodeURIComponent(at.repo)}`, undefined, options);
        const repo = body as { full_name?: unknown; default_branch?: unknown } | null;
        if (typeof repo?.full_name !== 'string' || typeof repo.default_branch !== 'string') throw new GithubApiError(`GitHub described ${at.owner}/${at.repo} without a name or default branch`, 0, false);
        return { fullName: repo.full_name, defaultBranch: repo.default_branch };
      } catch (err) {
        if (err instanceof GithubApiError && err.status === 404) return null;
        throw err;
      }
    },
  };
}

export type GithubRepositoryReader = ReturnType<typeof createGithubRepositoryReader>;
