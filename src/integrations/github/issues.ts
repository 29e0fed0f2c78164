/**
 * Comments on issues and pull requests (a pull request's conversation is its issue's:
 * `POST /repos/{owner}/{repo}/issues/{number}/comments`). As a GitHub App, the repository's
 * installation is looked up first (`GET /repos/{owner}/{repo}/installation`, with the App's
 * JWT) and remembered for a while; with a static token the token is used as it is.
 */
import { GithubApiError, type GithubApi, type GithubRequestOptions } from './api';

export interface IssueComment {
  id: number;
  html_url: string;
}

export interface GithubIssuesClient {
  /** Posts `body` on issue or pull request `number` of `repository` (`owner/name`). */
  comment(repository: string, number: number, body: string, options?: GithubRequestOptions): Promise<IssueComment>;
}

/** How long a repository's installation id is trusted before it is asked again. */
const INSTALLATION_TTL_MS = 10 * 60_000;

const repoPath = (repository: string) => {
  const [owner, name] = repository.split('/');
  return `/repos/${encodeURIComponent(owner!)}/${encodeURIComponent(name!)}`;
};

export function createGithubIssuesClient(api: GithubApi): GithubIssuesClient {
  const installations = new Map<string, { id: number; until: number }>();

  async function installationOf(repository: string, options?: GithubRequestOptions): Promise<number | null> {
    const key = repository.toLowerCase();
    const cached = installations.get(key);
    if (cached && Date.now() < cached.until) return cached.id;
    const id = await api.repositoryInstallation(repository, options);
    if (id !== null) installations.set(key, { id, until: Date.now() + INSTALLATION_TTL_MS });
    return id;
  }

  return {
    async comment(repository, number, body, options) {
      const installation = await installationOf(repository, options);
      const answer = await api.request(installation, 'POST', `${repoPath(repository)}/issues/${number}/comments`, { body }, options);
      const comment = answer.body as { id?: unknown; html_url?: unknown } | null;
      if (typeof comment?.id !== 'number' || typeof comment.html_url !== 'string') {
        throw new GithubApiError('GitHub answered a new comment without its id and URL', 0, false);
      }
      return { id: comment.id, html_url: comment.html_url };
    },
  };
}
