/**
 * Skills registries of an environment (interop §2.8): GitHub repositories whose skill
 * directories its workspaces get at provisioning. Adding one always creates it and reports
 * what discovery found; a repository that cannot be read (missing, private without a token,
 * too slow) is created all the same with the reason in `error`, because the answer's
 * `registry` is required and the repository may become readable later (the list discovers
 * again every time). Listing discovers live, in parallel; nothing of a repository is stored.
 */
import { githubFullName, githubPageUrl } from '../../agents/repoSkills';
import type { Repositories } from '../../db';
import type { SkillsRegistryRow } from '../../db/skillsRegistriesRepository';
import { isUniqueViolation } from '../../db/errors';
import type { Actor } from '../../domain/actor';
import { conflict, invalid, notFound } from '../../domain/errors';
import type { GithubContentsClient } from '../../integrations/github/contents';
import { discoverRegistrySkills, RegistryError, type DiscoveredSkill, type GithubRepositoryReader } from '../../integrations/github/skillsRegistry';
import type { Logger } from '../../logger';
import type { EnvironmentsService } from '../environments';
import type { RepoSkill } from './repoSkills';


const DEFAULT_BRANCH_UNKNOWN = 'main';

export const serializeRegistry = (row: SkillsRegistryRow) => ({
  id: row.id,
  organization_id: row.organization_id,
  environment_id: row.environment_id,
  name: row.name,
  url: row.url,
  repository_full_name: row.repository_full_name,
  default_branch: row.default_branch,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const registrySkill = (row: SkillsRegistryRow, skill: DiscoveredSkill): RepoSkill => ({
  id: `${row.id}:${skill.path}`,
  repository_id: row.id,
  repository_full_name: row.repository_full_name,
  branch: row.default_branch,
  path: skill.path,
  name: skill.name,
  description: skill.description,
  framework: skill.framework,
  kind: 'skill',
  html_url: githubPageUrl(row.repository_full_name, row.default_branch, skill.path, 'tree'),
});

export function createSkillsRegistriesService(deps: {
  environments: Pick<EnvironmentsService, 'access'>;
  repos: Pick<Repositories, 'transact' | 'environments' | 'skillsRegistries'>;
  contents: GithubContentsClient;
  repositories: GithubRepositoryReader;
  logger: Logger;
}) {
  const { environments, repos } = deps;

  async function discover(row: SkillsRegistryRow): Promise<{ repo_skills: RepoSkill[]; error: string | null }> {
    const [owner, repo] = row.repository_full_name.split('/') as [string, string];
    try {
      const found = await discoverRegistrySkills(deps.contents, { owner, repo });
      return { repo_skills: found.map((s) => registrySkill(row, s)), error: null };
    } catch (err) {
      if (!(err instanceof RegistryError)) throw err;
      return { repo_skills: [], error: err.message };
    }
  }

  return {
    async list(actor: Actor, environmentId: string) {
      const env = await environments.access(actor, environmentId);
      const rows = await repos.skillsRegistries.list(env.id);
      return Promise.all(rows.map(async (row) => ({ ...serializeRegistry(row), ...(await discover(row)) })));
    },

    async create(actor: Actor, environmentId: string, url: string) {
      const parsed = githubFullName(url);
      if (!parsed) throw invalid('Invalid body', 'url: must be a GitHub repository URL, e.g. https://github.com/org/skills-repo');
      const [owner, repo] = parsed.split('/') as [string, string];
      // Access first, so another organization's environment is a 404 before GitHub is asked.
      await environments.access(actor, environmentId);
      let facts: { fullName: string; defaultBranch: string } | null = null;
      let unreadable: string | null = null;
      try {
        facts = await deps.repositories.read({ owner, repo });
        if (!facts) unreadable = `${parsed} was not found on GitHub (or is private and no token can read it)`;
      } catch (err) {
        deps.logger.warn('reading a skills registry repository failed', { repository: parsed, err: err as Error });
        unreadable = `${parsed} could not be read: ${(err as Error).message}`;
      }
      const fullName = facts?.fullName ?? parsed;
      const row = await repos
        .transact(async (trx) => {
          const env = await environments.access(actor, environmentId, trx);
          await repos.environments.update(actor.organizationId, env.id, {}, trx);
          return repos.skillsRegistries.insert(
            {
              organization_id: env.organization_id,
              environment_id: env.id,
              name: fullName.split('/')[1]!,
              url: `https://github.com/${fullName}`,
              repository_full_name: fullName,
              default_branch: facts?.defaultBranch ?? DEFAULT_BRANCH_UNKNOWN,
            },
            trx,
          );
        })
        .catch((err: unknown) => {
          if (isUniqueViolation(err)) throw conflict('This repository is already a skills registry of this environment');
          throw err;
        });
      const found = unreadable ? { repo_skills: [], error: unreadable } : await discover(row);
      return { registry: serializeRegistry(row), ...found };
    },

    async remove(actor: Actor, environmentId: string, id: string): Promise<void> {
      await repos.transact(async (trx) => {
        const env = await environments.access(actor, environmentId, trx);
        if (!(await repos.skillsRegistries.delete(env.organization_id, env.id, id, trx))) throw notFound('Skills registry');
        await repos.environments.update(actor.organizationId, env.id, {}, trx);
      });
    },
  };
}

export type SkillsRegistriesService = ReturnType<typeof createSkillsRegistriesService>;
