/**
 * The worker side of code-hosting threads: the GitHub and GitLab thread adapters the core calls
 * (acknowledge, reply), and what makes a pull request "the workspace's own" — when an agent's
 * answer names a pull/merge request of a repository its organization connected, that pull
 * request becomes a thread of the same workspace (unless it already belongs to another), so its
 * comments and its CI failures reach the agent that opened it.
 */
import type { Repositories } from '../src/db';
import { normaliseRepositoryUrl, type CodeHostingProvider } from '../src/integrations/codeHosting/events';
import { pullRequestOfUrl, type PullRequestBinder } from '../src/integrations/codeHosting/threads';
import { createGithubApi, type GithubApiConfig } from '../src/integrations/github/api';
import { createGithubThreadAdapter } from '../src/integrations/github/threadAdapter';
import { createGitlabApi, type GitlabApiConfig } from '../src/integrations/gitlab/api';
import { createGitlabThreadAdapter } from '../src/integrations/gitlab/threadAdapter';
import type { ThreadAdapter, ThreadBinding } from '../src/integrations/threads/types';
import type { Logger } from '../src/logger';

type Repos = Pick<Repositories, 'transact' | 'integrationThreads' | 'codeRepositories'>;

/** The stored reference of a pull/merge request thread, from the thread whose answer named it. */
function pullRequestReference(provider: CodeHostingProvider, origin: ThreadBinding, pr: { fullName: string; number: number }, url: string): Record<string, unknown> {
  const from = origin.reference;
  const author = typeof from.author === 'string' ? from.author : null;
  if (provider === 'github') return { repository: pr.fullName, number: pr.number, installation_id: from.installation_id ?? null, is_pull_request: true, url, author };
  const sameProject = typeof from.repository === 'string' && from.repository.toLowerCase() === pr.fullName.toLowerCase();
  return { project_id: sameProject ? (from.project_id ?? null) : null, repository: pr.fullName, iid: pr.number, noteable: 'merge_request', url, author };
}

const sameOwner = (origin: ThreadBinding, fullName: string): boolean =>
  typeof origin.reference.repository === 'string' && origin.reference.repository.split('/')[0]!.toLowerCase() === fullName.split('/')[0]!.toLowerCase();

export function createPullRequestBinder(deps: { repos: Repos; logger: Logger }): PullRequestBinder {
  const { repos } = deps;
  return {
    async bindPullRequests(origin, urls) {
      const provider = origin.provider;
      if ((provider !== 'github' && provider !== 'gitlab') || !origin.replicaId) return;
      const connected = new Set((await repos.codeRepositories.list(origin.organizationId)).map((r) => normaliseRepositoryUrl(r.url)));
      for (const url of new Set(urls)) {
        const pr = pullRequestOfUrl(provider, url);
        if (!pr || pr.threadKey === origin.threadKey || !connected.has(normaliseRepositoryUrl(`https://${pr.host}/${pr.fullName}`))) continue;
        // A GitHub App is installed per account: the thread's installation answers only for its own owner's repositories.
        if (provider === 'github' && !sameOwner(origin, pr.fullName)) continue;
        const reference = pullRequestReference(provider, origin, pr, url);
        const bound = await repos.transact(async (trx) => {
          const row = await repos.integrationThreads.lockOrCreate({ organizationId: origin.organizationId, provider, threadKey: pr.threadKey, connectionId: null, reference }, trx);
          // A pull request some workspace already answers for stays with it.
          if (row.replicaId) return false;
          await repos.integrationThreads.bind(row.id, { replicaId: origin.replicaId!, chatId: origin.chatId, userId: origin.userId, reference }, trx);
          return true;
        });
        if (bound) deps.logger.info('pull request bound to its workspace', { threadKey: pr.threadKey, replicaId: origin.replicaId, organizationId: origin.organizationId });
      }
    },
  };
}

/** The code-hosting adapters the thread core calls. */
export function createCodeHostingThreadAdapters(deps: { repos: Repos; logger: Logger; github: GithubApiConfig; gitlab: GitlabApiConfig }): ThreadAdapter[] {
  const pullRequests = createPullRequestBinder(deps);
  const onReactionError = (err: unknown, binding: ThreadBinding) =>
    deps.logger.warn('could not react in a code-hosting thread', { threadKey: binding.threadKey, provider: binding.provider, error: err instanceof Error ? err.message : String(err) });
  return [
    createGithubThreadAdapter({ api: createGithubApi(deps.github), pullRequests, onReactionError }),
    createGitlabThreadAdapter({ api: createGitlabApi(deps.gitlab), pullRequests, onReactionError }),
  ];
}
