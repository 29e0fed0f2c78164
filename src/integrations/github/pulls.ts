/**
 * Reads one pull request from GitHub itself, with the App's installation on its repository
 * (or the static token, or anonymously for a public repository). The manual trigger's `pr`
 * names a pull request by number only; what its run is told about it (title, branches, head
 * commit) and where its checks go come from here, never from the caller.
 */
import { createGithubApi, GithubApiError, type GithubApi, type GithubApiConfig } from './api';
import { githubPullRequestPayload } from './events';

export interface GithubPullRequest {
  /** The App's installation on the repository; null without App credentials. */
  installationId: number | null;
  /** The repository as the payload shows it (`full_name` as GitHub spells it). */
  repository: { full_name: string; url: string | null };
  /** The pull request as a pull_request event's payload shows it. */
  pullRequest: ReturnType<typeof githubPullRequestPayload>;
}

export interface GithubPullRequestReader {
  /** Throws GithubApiError (404: no such pull request, or the App cannot see the repository). */
  find(repository: string, number: number): Promise<GithubPullRequest>;
}

const NAME_SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;

export function createGithubPullRequestReader(config: GithubApiConfig | GithubApi): GithubPullRequestReader {
  const api = 'request' in config ? config : createGithubApi({ ...config, anonymous: true });

  return {
    async find(repository, number) {
      const parts = repository.split('/');
      if (parts.length !== 2 || !parts.every((p) => NAME_SEGMENT.test(p) && p !== '.' && p !== '..')) {
        throw new GithubApiError('repository must be "owner/name"', 0, false);
      }
      if (!Number.isSafeInteger(number) || number <= 0) throw new GithubApiError('a pull request number is a positive integer', 0, false);
      const installationId = await api.repositoryInstallation(repository);
      const path = `/repos/${encodeURIComponent(parts[0]!)}/${encodeURIComponent(parts[1]!)}/pulls/${number}`;
      const { body } = await api.request(installationId, 'GET', path);
      const pr = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
      if (!pr || pr.number !== number) throw new GithubApiError(`GitHub GET ${path} answered without the pull request`, 0, false);
      const repo = ((pr.base as { repo?: { full_name?: unknown; html_url?: unknown } } | undefined)?.repo ?? {}) as { full_name?: unknown; html_url?: unknown };
      return {
        installationId,
        repository: {
          full_name: typeof repo.full_name === 'string' ? repo.full_name : repository,
          url: typeof repo.html_url === 'string' ? repo.html_url : null,
        },
        pullRequest: githubPullRequestPayload(number, pr),
      };
    },
  };
}
