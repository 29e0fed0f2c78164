/**
 * `GET /v1/environments/{id}/repo-skills`: the skills, agents, commands and prompts committed
 * to the repositories an environment is bound to, read live from each repository's default
 * branch through GitHub's contents API (src/agents/repoSkills.ts says where each agent keeps
 * them). Read-only, nothing stored. A repository that cannot be read (not on GitHub, not
 * reachable, not found) leaves its part out and says why in `error`, never a 5xx.
 */
import { frontmatter, githubFullName, githubPageUrl, itemName, REPO_SKILL_CONVENTIONS, SKILL_FILE, type RepoSkillConvention } from '../../agents/repoSkills';
import type { Repositories } from '../../db';
import type { RepositoryRow } from '../../db/repositoriesRepository';
import type { Actor } from '../../domain/actor';
import type { GithubContentsClient } from '../../integrations/github/contents';
import type { EnvironmentsService } from '../environments';

/** Items listed per repository, and the files read for their frontmatter. */
const MAX_ITEMS = 100;
/** Larger files are listed by name without reading their frontmatter. */
const MAX_READ_BYTES = 256 * 1024;
/** One repository's whole discovery. */
const REPOSITORY_DEADLINE_MS = 20_000;

export interface RepoSkill {
  id: string;
  repository_id: string;
  repository_full_name: string;
  branch: string;
  path: string;
  name: string;
  description: string | null;
  framework: RepoSkillConvention['framework'];
  kind: RepoSkillConvention['kind'];
  /** The item on GitHub: a skill's folder, or the file. */
  html_url: string;
}

export function createRepoSkillsService(deps: {
  environments: Pick<EnvironmentsService, 'access'>;
  repos: Pick<Repositories, 'codeRepositories'>;
  github: GithubContentsClient;
}) {
  const { github } = deps;

  async function describe(owner: string, repo: string, path: string, size: number, signal: AbortSignal) {
    if (size > MAX_READ_BYTES) return {};
    const file = await github.read({ owner, repo, path }, { signal });
    return file?.type === 'file' ? frontmatter(file.content.toString('utf8')) : null;
  }

  async function discover(row: RepositoryRow, fullName: string): Promise<RepoSkill[]> {
    const [owner, repo] = fullName.split('/') as [string, string];
    const signal = AbortSignal.timeout(REPOSITORY_DEADLINE_MS);
    const found: RepoSkill[] = [];
    const listings = await Promise.all(REPO_SKILL_CONVENTIONS.map(async (c) => ({ convention: c, listing: await github.read({ owner, repo, path: c.dir }, { signal }) })));
    for (const { convention, listing } of listings) {
      if (listing?.type !== 'dir') continue;
      const wanted = convention.layout === 'dirs' ? 'dir' : 'file';
      const items = listing.entries.filter((e) => e.type === wanted).flatMap((e) => {
        const name = itemName(convention, e.name);
        return name ? [{ entry: e, name }] : [];
      });
      const described = await Promise.all(
        items.slice(0, Math.max(0, MAX_ITEMS - found.length)).map(async ({ entry, name }) => {
          const path = `${convention.dir}/${entry.name}`;
          // A skill directory is one only with its SKILL.md.
          const meta = convention.layout === 'dirs' ? await describe(owner, repo, `${path}/${SKILL_FILE}`, 0, signal) : await describe(owner, repo, path, entry.size, signal);
          if (!meta) return null;
          const skill: RepoSkill = {
            id: `${row.id}:${path}`,
            repository_id: row.id,
            repository_full_name: fullName,
            branch: row.default_branch,
            path,
            name: meta.name ?? name,
            description: meta.description ?? null,
            framework: convention.framework,
            kind: convention.kind,
            html_url: githubPageUrl(fullName, row.default_branch, path, convention.layout === 'dirs' ? 'tree' : 'blob'),
          };
          return skill;
        }),
      );
      found.push(...described.filter((s): s is RepoSkill => s !== null));
    }
    return found;
  }

  return {
    async list(actor: Actor, environmentId: string): Promise<{ repo_skills: RepoSkill[]; error: string | null }> {
      const env = await deps.environments.access(actor, environmentId);
      const bound = await deps.repos.codeRepositories.boundTo(env.organization_id, env);
      const skills: RepoSkill[] = [];
      const errors: string[] = [];
      for (const row of bound) {
        const fullName = githubFullName(row.url);
        if (!fullName) {
          errors.push(`${row.name}: not a GitHub repository (repo skills are read through GitHub's contents API)`);
          continue;
        }
        try {
          skills.push(...(await discover(row, fullName)));
        } catch (err) {
          errors.push(`${row.name}: ${(err as Error).name === 'TimeoutError' ? `not read within ${REPOSITORY_DEADLINE_MS / 1000} s` : (err as Error).message}`);
        }
      }
      return { repo_skills: skills, error: errors.length ? errors.join('; ') : null };
    },
  };
}

export type RepoSkillsService = ReturnType<typeof createRepoSkillsService>;
