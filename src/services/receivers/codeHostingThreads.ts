/**
 * The code-hosting side of thread routing (API side): a verified GitHub or GitLab delivery about
 * an issue, a pull/merge request, a comment or a failed check becomes messages for the thread
 * core (`ThreadDispatcher`), once per organization that connected the repository.
 *
 * - A thread starts when the bot is mentioned (`@{botName}`) in a new issue or pull request or
 *   in a comment, or when an issue is opened by a login or in a repository on the
 *   organization's auto-responder allowlist.
 * - Once a thread has a workspace, every later comment goes there, mentioned or not.
 * - Only people with a say reach a workspace: GitHub's author_association OWNER, MEMBER or
 *   COLLABORATOR, an allowlisted login, or whoever started the thread (the same account id; GitLab's
 *   deliveries do not say, so every GitLab author counts). Bots and Hangar's own comments never do.
 * - A GitLab delivery reaches only the organizations its token belongs to (`GitlabSender`), for
 *   their own connected repositories; its thread keys and the project answers go to are that
 *   repository's path, never the body's project id. Authors are named by account id, and no
 *   email in a payload links anyone.
 * - `/{botName} …` comments on pull/merge requests are automation commands, not thread messages.
 * - Closing an issue or pull request closes its thread (the workspace's lifecycle policy applies).
 * - A failed check run or pipeline on a pull/merge request bound to a workspace is sent to that
 *   workspace's agent, unless the organization turned `ci_failure_response` off; it never starts one.
 */
import { createHash } from 'node:crypto';
import type { Repositories } from '../../db';
import type { OrganizationSettingsRow } from '../../db/organizationSettingsRepository';
import { botCommand, normaliseRepositoryUrl, repositoryPathOf, type CodeHostingProvider } from '../../integrations/codeHosting/events';
import {
  ciFailureText,
  rekeyThread,
  environmentTag,
  loginKey,
  mentionsBot,
  postText,
  threadDeliveryId,
  type CiFailure,
  type CodeHostingThreadEvent,
  type ThreadEnd,
  type ThreadPost,
} from '../../integrations/codeHosting/threads';
import { parseGithubThreadEvent } from '../../integrations/github/mentions';
import { parseGitlabThreadEvent } from '../../integrations/gitlab/mentions';
import type { ThreadBinding, ThreadDispatcher } from '../../integrations/threads/types';
import type { Logger } from '../../logger';
import type { GitlabSender } from './gitlabSenders';
import { PayloadError } from '../../integrations/payloadError';

interface Target {
  organizationId: string;
  repositoryId: string;
  /** The connected repository's own path ("group/sub/project"): GitLab threads are keyed by it and answered there. */
  repositoryPath: string;
  /** The GitLab connection whose token the delivery carried; null for GitHub and the deployment's token. */
  connectionId: string | null;
  settings: OrganizationSettingsRow | null;
}

const isOpen = (binding: ThreadBinding | null): binding is ThreadBinding => !!binding?.replicaId && !binding.closedAt;

export function createCodeHostingThreads(deps: {
  repos: Pick<Repositories, 'codeRepositories' | 'integrationThreads' | 'organizationSettings' | 'replicas'>;
  threads: ThreadDispatcher;
  botName: string;
  logger: Logger;
}) {
  const { repos, threads, botName, logger } = deps;

  /**
   * Every organization that connected the repository (matched on any URL form, normalised), once;
   * with a GitLab sender, only the sender's organizations.
   */
  async function targets(event: CodeHostingThreadEvent, sender: GitlabSender | null): Promise<Target[]> {
    const wanted = new Set(event.repositoryUrls.map(normaliseRepositoryUrl).filter((u): u is string => !!u));
    if (!wanted.size) return [];
    const allowed = sender ? new Map(sender.organizations.map((o) => [o.organizationId, o.connectionId])) : null;
    const found = new Map<string, { repositoryId: string; repositoryPath: string }>();
    for (const row of await repos.codeRepositories.withUrlContaining(event.repositoryFullName)) {
      if (allowed && !allowed.has(row.organization_id)) continue;
      const url = normaliseRepositoryUrl(row.url);
      const path = repositoryPathOf(row.url);
      if (url !== null && path !== null && wanted.has(url) && !found.has(row.organization_id)) found.set(row.organization_id, { repositoryId: row.id, repositoryPath: path });
    }
    return Promise.all(
      [...found].map(async ([organizationId, repository]) => ({
        organizationId,
        ...repository,
        connectionId: allowed?.get(organizationId) ?? null,
        settings: await repos.organizationSettings.find(organizationId),
      })),
    );
  }

  /** A GitLab thread is keyed by the connected repository's path; a GitHub one by the signed delivery's full name. */
  const keyOf = (provider: CodeHostingProvider, threadKey: string, event: { repositoryFullName: string }, target: Target) =>
    provider === 'gitlab' ? rekeyThread(threadKey, event.repositoryFullName, target.repositoryPath) : threadKey;

  const find = (target: Target, provider: CodeHostingProvider, threadKey: string) => repos.integrationThreads.find({ organizationId: target.organizationId, provider, threadKey });

  /**
   * What the adapter needs to answer; `author` and `author_id` stay whoever started the thread.
   * GitLab answers go to the connected repository's project, addressed by its path.
   */
  function reference(post: ThreadPost, target: Target, starter: { login: string; id: string | null }): Record<string, unknown> {
    const author = { author: starter.login, author_id: starter.id };
    if (post.provider === 'github') {
      return { repository: post.repositoryFullName, number: post.item.number, installation_id: post.installationId, is_pull_request: post.item.isPullRequest, url: post.item.url, ...author };
    }
    return { repository: target.repositoryPath, iid: post.item.number, noteable: post.item.isPullRequest ? 'merge_request' : 'issue', url: post.item.url, ...author };
  }

  async function routePost(post: ThreadPost, target: Target, deliveryId: string): Promise<boolean> {
    if (post.fromBot) return false;
    // `/{bot} …` on a pull/merge request is an automation command (pull_request.command), not a thread message.
    if (post.trigger === 'comment' && post.item.isPullRequest && botCommand(post.text, botName) !== null) return false;
    const threadKey = keyOf(post.provider, post.item.threadKey, post, target);
    const binding = await find(target, post.provider, threadKey);
    const bound = isOpen(binding);
    const login = loginKey(post.author.login);
    // Whoever started the thread, by account id: a login renamed and registered again by someone else is a stranger.
    const starterLogin = bound && typeof binding.reference.author === 'string' ? binding.reference.author : null;
    const starterId = bound && typeof binding.reference.author_id === 'string' ? binding.reference.author_id : null;
    const listedLogin = (target.settings?.auto_responder_logins ?? []).includes(login);
    const listedRepository = (target.settings?.auto_responder_repository_ids ?? []).includes(target.repositoryId);
    const autoRespond = post.trigger === 'opened' && !post.item.isPullRequest && (listedLogin || listedRepository);
    const trusted = post.trusted !== false || listedLogin || autoRespond || (starterId !== null && starterId === post.author.id);
    if (!trusted) return false;
    if (!bound && !autoRespond && !mentionsBot(post.text, botName)) return false;

    await threads.message({
      provider: post.provider,
      organizationId: target.organizationId,
      connectionId: target.connectionId,
      threadKey,
      deliveryId: threadDeliveryId(post.provider, deliveryId),
      text: postText({ ...post, item: { ...post.item, threadKey } }, bound),
      // The account id is the identity; the email only where the provider signed it (GitHub's is null for GitLab).
      author: { externalId: post.author.id, name: post.author.login, email: post.author.email },
      environmentName: environmentTag(post.text) ?? (post.trigger === 'comment' && !bound ? environmentTag(post.item.body) : null),
      title: post.item.title ? post.item.title.slice(0, 200) : null,
      reference: reference(post, target, starterLogin !== null ? { login: starterLogin, id: starterId } : { login: post.author.login, id: post.author.id }),
      cursor: post.cursor,
    });
    return true;
  }

  async function routeClose(end: ThreadEnd, target: Target, deliveryId: string): Promise<boolean> {
    const threadKey = keyOf(end.provider, end.threadKey, end, target);
    const binding = await find(target, end.provider, threadKey);
    if (!binding || binding.closedAt) return false;
    await threads.close({ provider: end.provider, organizationId: target.organizationId, threadKey, deliveryId: threadDeliveryId(end.provider, deliveryId) });
    return true;
  }

  async function routeFailure(failure: CiFailure, target: Target, deliveryId: string): Promise<number> {
    if (target.settings?.ci_failure_response === false) return 0;
    let routed = 0;
    for (const { number, threadKey: key } of failure.pullRequests) {
      const pr = { number, threadKey: keyOf(failure.provider, key, failure, target) };
      const binding = await find(target, failure.provider, pr.threadKey);
      // Only a pull request bound to a live workspace: a failure never starts one (the core would replace a deleted one).
      if (!isOpen(binding)) continue;
      const replica = await repos.replicas.find(binding.replicaId!);
      if (!replica || replica.deleted_at || replica.status === 'error') continue;
      await threads.message({
        provider: failure.provider,
        organizationId: target.organizationId,
        connectionId: target.connectionId,
        threadKey: pr.threadKey,
        deliveryId: threadDeliveryId(failure.provider, deliveryId, String(pr.number)),
        text: ciFailureText(failure, pr),
        author: failure.sender ? { externalId: failure.sender.id, name: failure.sender.login } : { externalId: `${failure.provider}:ci` },
        reference: binding.reference,
        cursor: failure.cursor,
      });
      routed += 1;
    }
    return routed;
  }

  async function accept(
    provider: CodeHostingProvider,
    parse: () => CodeHostingThreadEvent | null,
    deliveryId: string | undefined,
    rawBody: Buffer,
    sender: GitlabSender | null,
  ): Promise<{ routed: number }> {
    let event: CodeHostingThreadEvent | null;
    try {
      event = parse();
    } catch (err) {
      // The automation path already answered for this delivery; a thread payload it cannot read is only logged.
      if (err instanceof PayloadError) {
        logger.warn('code-hosting delivery not routed to a thread', { provider, deliveryId, reason: err.message });
        return { routed: 0 };
      }
      throw err;
    }
    if (!event) return { routed: 0 };
    // GitHub and GitLab always send a delivery id; without one, the body stands in for it.
    const id = deliveryId?.trim() || `body-${createHash('sha256').update(rawBody).digest('hex').slice(0, 40)}`;
    let routed = 0;
    for (const target of await targets(event, sender)) {
      if (event.kind === 'post') routed += Number(await routePost(event, target, id));
      else if (event.kind === 'close') routed += Number(await routeClose(event, target, id));
      else routed += await routeFailure(event, target, id);
    }
    logger.debug('code-hosting delivery routed to threads', { provider, kind: event.kind, deliveryId: id, routed });
    return { routed };
  }

  return {
    acceptGithub: (eventName: string, body: unknown, deliveryId: string | undefined, rawBody: Buffer) =>
      accept('github', () => parseGithubThreadEvent(eventName, body, botName), deliveryId, rawBody, null),
    /** Only for the organizations `sender` (from the delivery's token) names. */
    acceptGitlab: (eventName: string, body: unknown, deliveryId: string | undefined, rawBody: Buffer, sender: GitlabSender) =>
      accept('gitlab', () => parseGitlabThreadEvent(eventName, body, botName), deliveryId, rawBody, sender),
  };
}

export type CodeHostingThreads = ReturnType<typeof createCodeHostingThreads>;
