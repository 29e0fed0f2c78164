/**
 * The worker side of code-hosting threads: the GitHub and GitLab thread adapters the core calls
 * (acknowledge, reply), and what makes a pull request "the workspace's own" — when an agent's
 * answer names a pull/merge request of a repository its organization connected, that pull
 * request becomes a thread of the same workspace (unless it already belongs to another), so its
 * comments and its CI failures reach the agent that opened it.
 *
 * GitLab answers go out with the thread's organization's GitLab connection (its `api_token`, at
 * its `instance_url` through the outbound policy); an organization without one answers with the
 * deployment's `HANGAR_GITLAB_TOKEN` (a deployment of one organization, as before connections).
 */
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import { normaliseRepositoryUrl, repositoryPathOf, type CodeHostingProvider } from './events';
import { pullRequestOfUrl, rekeyThread, type PullRequestBinder } from './threads';
import { createGithubApi, type GithubApiConfig } from '../github/api';
import { createGithubThreadAdapter } from '../github/threadAdapter';
import { createGitlabApi, GitlabApiError, type GitlabApi, type GitlabApiConfig } from '../gitlab/api';
import { createGitlabThreadAdapter } from '../gitlab/threadAdapter';
import type { ThreadAdapter, ThreadBinding } from '../threads/types';
import type { OutboundPolicy } from '../outbound/addressGuard';
import type { Logger } from '../../logger';

type Repos = Pick<Repositories, 'transact' | 'integrationThreads' | 'codeRepositories' | 'connections'>;

/** The stored reference of a pull/merge request thread, from the thread whose answer named it. */
function pullRequestReference(provider: CodeHostingProvider, origin: ThreadBinding, pr: { fullName: string; number: number }, url: string): Record<string, unknown> {
  const from = origin.reference;
  const starter = { author: typeof from.author === 'string' ? from.author : null, author_id: typeof from.author_id === 'string' ? from.author_id : null };
  if (provider === 'github') return { repository: pr.fullName, number: pr.number, installation_id: from.installation_id ?? null, is_pull_request: true, url, ...starter };
  return { repository: pr.fullName, iid: pr.number, noteable: 'merge_request', url, ...starter };
}

const sameOwner = (origin: ThreadBinding, fullName: string): boolean =>
  typeof origin.reference.repository === 'string' && origin.reference.repository.split('/')[0]!.toLowerCase() === fullName.split('/')[0]!.toLowerCase();

export function createPullRequestBinder(deps: { repos: Repos; logger: Logger }): PullRequestBinder {
  const { repos } = deps;
  return {
    async bindPullRequests(origin, urls) {
      const provider = origin.provider;
      if ((provider !== 'github' && provider !== 'gitlab') || !origin.replicaId) return;
      // Normalised URL → the connected repository's own path, which a GitLab thread is keyed and answered by.
      const connected = new Map((await repos.codeRepositories.list(origin.organizationId)).map((r) => [normaliseRepositoryUrl(r.url), repositoryPathOf(r.url)]));
      for (const url of new Set(urls)) {
        const named = pullRequestOfUrl(provider, url);
        const path = named ? connected.get(normaliseRepositoryUrl(`https://${named.host}/${named.fullName}`)) : undefined;
        if (!named || !path) continue;
        const pr = provider === 'gitlab' ? { ...named, fullName: path, threadKey: rekeyThread(named.threadKey, named.fullName, path) } : named;
        if (pr.threadKey === origin.threadKey) continue;
        // A GitHub App is installed per account: the thread's installation answers only for its own owner's repositories.
        if (provider === 'github' && !sameOwner(origin, pr.fullName)) continue;
        const reference = pullRequestReference(provider, origin, pr, url);
        const bound = await repos.transact(async (trx) => {
          const row = await repos.integrationThreads.lockOrCreate({ organizationId: origin.organizationId, provider, threadKey: pr.threadKey, connectionId: origin.connectionId, reference }, trx);
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

/**
 * The GitLab API a thread of this organization answers with: its connection's token at its
 * instance (default: the deployment's `HANGAR_GITLAB_API_URL`), else the deployment's token.
 */
export function createGitlabApis(deps: { repos: Pick<Repositories, 'connections'>; secretBox: SecretBox; outbound: Pick<OutboundPolicy, 'agent'>; deployment: GitlabApiConfig }) {
  const deploymentApi = createGitlabApi(deps.deployment);
  return async (organizationId: string): Promise<GitlabApi> => {
    const connection = await deps.repos.connections.findByProvider(organizationId, 'gitlab');
    if (!connection) return deploymentApi;
    let token: unknown;
    try {
      token = (JSON.parse(deps.secretBox.open(connection.secrets_sealed, sealedField('connections', 'secrets_sealed', connection.id))) as { api_token?: unknown }).api_token;
    } catch {
      throw new GitlabApiError("the organization's GitLab connection has unreadable secrets", 0, false);
    }
    const instance = typeof connection.settings.instance_url === 'string' ? connection.settings.instance_url : null;
    return createGitlabApi({
      apiUrl: instance ? `${instance}/api/v4` : deps.deployment.apiUrl,
      token: typeof token === 'string' && token ? token : undefined,
      tokenName: "the GitLab connection's api_token",
      timeoutMs: deps.deployment.timeoutMs,
      // An instance an admin typed in is a user-chosen URL: the outbound policy applies.
      dispatcher: instance ? deps.outbound.agent : undefined,
    });
  };
}

/** The code-hosting adapters the thread core calls. */
export function createCodeHostingThreadAdapters(deps: {
  repos: Repos;
  secretBox: SecretBox;
  outbound: Pick<OutboundPolicy, 'agent'>;
  logger: Logger;
  github: GithubApiConfig;
  gitlab: GitlabApiConfig;
}): ThreadAdapter[] {
  const pullRequests = createPullRequestBinder(deps);
  const onReactionError = (err: unknown, binding: ThreadBinding) =>
    deps.logger.warn('could not react in a code-hosting thread', { threadKey: binding.threadKey, provider: binding.provider, error: err instanceof Error ? err.message : String(err) });
  const gitlabApi = createGitlabApis({ repos: deps.repos, secretBox: deps.secretBox, outbound: deps.outbound, deployment: deps.gitlab });
  return [
    createGithubThreadAdapter({ api: createGithubApi(deps.github), pullRequests, onReactionError }),
    createGitlabThreadAdapter({ apiFor: (binding) => gitlabApi(binding.organizationId), pullRequests, onReactionError }),
  ];
}
