/**
 * The manual trigger's `pr {repository_id, number}` (interop §10.5): the automation must have
 * a GitHub `pull_request.command` trigger covering the repository, the repository must be
 * one connected to the automation's organization, and the pull request is read from GitHub
 * itself. The run's payload then carries the pull request as a pull_request event's does, and
 * everything that chooses where checks go (repository, head commit, installation) is Hangar's
 * own — whatever the caller's `payload` says, those fields are overwritten.
 */
import type { RepositoriesRepository } from '../../db/repositoriesRepository';
import type { AutomationRow } from '../../db/automationsRepository';
import { manualPullRequestKey } from '../../domain/automations/events';
import { manualPullRequestRefusal } from '../../domain/automations/rules';
import { invalid, notFound, unavailable } from '../../domain/errors';
import { repositoryFullNameOf } from '../../integrations/codeHosting/events';
import { GithubApiError } from '../../integrations/github/api';
import type { GithubPullRequestReader } from '../../integrations/github/pulls';

export interface ManualPullRequest {
  repository_id: string;
  number: number;
}

export function createPullRequestContext(deps: { repositories: RepositoriesRepository; pullRequests: GithubPullRequestReader }) {
  return {
    /** The run's payload and the key its execution is recorded under (`manualPullRequestKey`). */
    async resolve(automation: AutomationRow, pr: ManualPullRequest, payload: Record<string, unknown> | undefined) {
      const refusal = manualPullRequestRefusal(automation.triggers, pr.repository_id);
      if (refusal) throw invalid('Invalid body', refusal);
      const repository = await deps.repositories.find(automation.organization_id, pr.repository_id);
      if (!repository) throw notFound('Repository', `body.pr.repository_id: ${pr.repository_id} is not a repository of this organization`);
      const fullName = repositoryFullNameOf(repository.url);
      if (!fullName) throw invalid('Invalid body', `body.pr.repository_id: the repository's url ${repository.url} does not name an owner/name repository`);

      let found;
      try {
        found = await deps.pullRequests.find(fullName, pr.number);
      } catch (err) {
        if (!(err instanceof GithubApiError)) throw err;
        if (err.status === 404) throw notFound('Pull request', `body.pr.number: GitHub has no pull request #${pr.number} in ${fullName} that Hangar can read`);
        throw unavailable('GitHub could not be asked for the pull request', err.message);
      }
      return {
        key: manualPullRequestKey(repository.id, pr.number),
        payload: {
          ...payload,
          provider: 'github',
          event: 'pull_request.command',
          action: 'manual',
          repository: found.repository,
          pull_request: found.pullRequest,
          sender: null,
          repository_id: repository.id,
          installation_id: found.installationId,
        },
      };
    },
  };
}

export type PullRequestContext = ReturnType<typeof createPullRequestContext>;
