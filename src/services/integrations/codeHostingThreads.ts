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
 *   COLLABORATOR, an allowlisted login, or whoever started the thread (GitLab's deliveries do not
 *   say, so every GitLab author counts). Bots and Hangar's own comments never do.
 * - `/{botName} …` comments on pull/merge requests are automation commands, not thread messages.
 * - Closing an issue or pull request closes its thread (the workspace's lifecycle policy applies).
 * - A failed check run or pipeline on a pull/merge request bound to a workspace is sent to that
 *   workspace's agent, unless the organization turned `ci_failure_response` off; it never starts one.
 */
import { createHash } from 'node:crypto';
import type { Repositories } from '../../db';
import type { OrganizationSettingsRow } from '../../db/organizationSettingsRepository';
import { botCommand, CodeHostingPayloadError, normaliseRepositoryUrl, type CodeHostingProvider } from '../../integrations/codeHosting/events';
import {
  ciFailureText,
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

interface Target {
  organizationId: string;
  repositoryId: string;
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

  /** Every organization that connected the repository (matched on any URL form, normalised), once. */
  async function targets(event: CodeHostingThreadEvent): Promise<Target[]> {
    const wanted = new Set(event.repositoryUrls.map(normaliseRepositoryUrl).filter((u): u is string => !!u));
    if (!wanted.size) return [];
    const found = new Map<string, string>();
    for (const row of await repos.codeRepositories.withUrlContaining(event.repositoryFullName)) {
      const url = normaliseRepositoryUrl(row.url);
      if (url !== null && wanted.has(url) && !found.has(row.organization_id)) found.set(row.organization_id, row.id);
    }
    return Promise.all(
      [...found].map(async ([organizationId, repositoryId]) => ({ organizationId, repositoryId, settings: await repos.organizationSettings.find(organizationId) })),
    );
  }

  const find = (target: Target, provider: CodeHostingProvider, threadKey: string) => repos.integrationThreads.find({ organizationId: target.organizationId, provider, threadKey });

  /** What the adapter needs to answer; `author` stays whoever started the thread. */
  function reference(post: ThreadPost, author: string): Record<string, unknown> {
    if (post.provider === 'github') {
      return { repository: post.repositoryFullName, number: post.item.number, installation_id: post.installationId, is_pull_request: post.item.isPullRequest, url: post.item.url, author };
    }
    return {
      project_id: post.projectId,
      repository: post.repositoryFullName,
      iid: post.item.number,
      noteable: post.item.isPullRequest ? 'merge_request' : 'issue',
      url: post.item.url,
      author,
    };
  }

  async function routePost(post: ThreadPost, target: Target, deliveryId: string): Promise<boolean> {
    if (post.fromBot) return false;
    // `/{bot} …` on a pull/merge request is an automation command (pull_request.command), not a thread message.
    if (post.trigger === 'comment' && post.item.isPullRequest && botCommand(post.text, botName) !== null) return false;
    const binding = await find(target, post.provider, post.item.threadKey);
    const bound = isOpen(binding);
    const login = loginKey(post.author.login);
    const starter = bound && typeof binding.reference.author === 'string' ? binding.reference.author : null;
    const listedLogin = (target.settings?.auto_responder_logins ?? []).includes(login);
    const listedRepository = (target.settings?.auto_responder_repository_ids ?? []).includes(target.repositoryId);
    const autoRespond = post.trigger === 'opened' && !post.item.isPullRequest && (listedLogin || listedRepository);
    const trusted = post.trusted !== false || listedLogin || autoRespond || (starter !== null && loginKey(starter) === login);
    if (!trusted) return false;
    if (!bound && !autoRespond && !mentionsBot(post.text, botName)) return false;

    await threads.message({
      provider: post.provider,
      organizationId: target.organizationId,
      connectionId: null,
      threadKey: post.item.threadKey,
      deliveryId: threadDeliveryId(post.provider, deliveryId),
      text: postText(post, bound),
      author: { externalId: post.author.login, name: post.author.name, email: post.author.email },
      environmentName: environmentTag(post.text) ?? (post.trigger === 'comment' && !bound ? environmentTag(post.item.body) : null),
      title: post.item.title ? post.item.title.slice(0, 200) : null,
      reference: reference(post, starter ?? post.author.login),
      cursor: post.cursor,
    });
    return true;
  }

  async function routeClose(end: ThreadEnd, target: Target, deliveryId: string): Promise<boolean> {
    const binding = await find(target, end.provider, end.threadKey);
    if (!binding || binding.closedAt) return false;
    await threads.close({ provider: end.provider, organizationId: target.organizationId, threadKey: end.threadKey, deliveryId: threadDeliveryId(end.provider, deliveryId) });
    return true;
  }

  async function routeFailure(failure: CiFailure, target: Target, deliveryId: string): Promise<number> {
    if (target.settings?.ci_failure_response === false) return 0;
    let routed = 0;
    for (const pr of failure.pullRequests) {
      const binding = await find(target, failure.provider, pr.threadKey);
      // Only a pull request bound to a live workspace: a failure never starts one (the core would replace a deleted one).
      if (!isOpen(binding)) continue;
      const replica = await repos.replicas.find(binding.replicaId!);
      if (!replica || replica.deleted_at || replica.status === 'error') continue;
      await threads.message({
        provider: failure.provider,
        organizationId: target.organizationId,
        connectionId: null,
        threadKey: pr.threadKey,
        deliveryId: threadDeliveryId(failure.provider, deliveryId, String(pr.number)),
        text: ciFailureText(failure, pr),
        author: { externalId: failure.sender ?? failure.provider },
        reference: binding.reference,
        cursor: failure.cursor,
      });
      routed += 1;
    }
    return routed;
  }

  async function accept(provider: CodeHostingProvider, parse: () => CodeHostingThreadEvent | null, deliveryId: string | undefined, rawBody: Buffer): Promise<{ routed: number }> {
    let event: CodeHostingThreadEvent | null;
    try {
      event = parse();
    } catch (err) {
      // The automation path already answered for this delivery; a thread payload it cannot read is only logged.
      if (err instanceof CodeHostingPayloadError) {
        logger.warn('code-hosting delivery not routed to a thread', { provider, deliveryId, reason: err.message });
        return { routed: 0 };
      }
      throw err;
    }
    if (!event) return { routed: 0 };
    // GitHub and GitLab always send a delivery id; without one, the body stands in for it.
    const id = deliveryId?.trim() || `body-${createHash('sha256').update(rawBody).digest('hex').slice(0, 40)}`;
    let routed = 0;
    for (const target of await targets(event)) {
      if (event.kind === 'post') routed += Number(await routePost(event, target, id));
      else if (event.kind === 'close') routed += Number(await routeClose(event, target, id));
      else routed += await routeFailure(event, target, id);
    }
    logger.debug('code-hosting delivery routed to threads', { provider, kind: event.kind, deliveryId: id, routed });
    return { routed };
  }

  return {
    acceptGithub: (eventName: string, body: unknown, deliveryId: string | undefined, rawBody: Buffer) =>
      accept('github', () => parseGithubThreadEvent(eventName, body, botName), deliveryId, rawBody),
    acceptGitlab: (eventName: string, body: unknown, deliveryId: string | undefined, rawBody: Buffer) =>
      accept('gitlab', () => parseGitlabThreadEvent(eventName, body, botName), deliveryId, rawBody),
  };
}

export type CodeHostingThreads = ReturnType<typeof createCodeHostingThreads>;
