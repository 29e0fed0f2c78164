/**
 * The intake of event triggers: the custom webhook (`/v1/automations/webhook/{token}`) and the
 * code-hosting receivers (`/v1/webhooks/github`, `/v1/webhooks/gitlab`). Each request is
 * authenticated — the path token and GitLab's header before the body is read, GitHub's
 * signature header too and then its HMAC as the body streams in (`githubVerifier`) — mapped
 * to (automation, debounce key, payload) items and handed to the inbox in one transaction; the
 * answer goes out as soon as that transaction commits, and all the remaining work happens in
 * Temporal. A GitLab delivery reaches only the organizations its token belongs to
 * (`gitlabSenders`), and there only their own connected repositories.
 */
import { createHash } from 'node:crypto';
import type { AutomationsRepository, EventRoute } from '../../db/automationsRepository';
import { customPayload, CUSTOM_DEBOUNCE_KEY, hashWebhookToken, pullRequestDebounceKey } from '../../domain/automations/events';
import { DomainError, invalid, notFound } from '../../domain/errors';
import { parseJsonText } from '../../domain/inputHygiene';
import type { EventBus } from '../../events/bus';
import type { Logger } from '../../logger';
import { isExcludedActor, normaliseRepositoryUrl, type CodeHostingEvent } from '../../integrations/codeHosting/events';
import { githubSignatureClaim, parseGithubEvent, verifyGithubSignature } from '../../integrations/github/events';
import { streamingHmacSha256 } from '../../crypto/hmac';
import { parseGitlabEvent } from '../../integrations/gitlab/events';
import type { CodeHostingThreads } from './codeHostingThreads';
import type { GitlabSender, GitlabSenders } from './gitlabSenders';
import type { AutomationInbox, InboxItem } from '../automations/inbox';
import { PayloadError } from '../../integrations/payloadError';

/** The custom webhook's body limit (interop §10.4). */
export const CUSTOM_WEBHOOK_LIMIT_BYTES = 256 * 1024;

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  contentType: string | undefined;
}

/** What makes two custom webhook requests the same: their media type and their bytes. */
function requestFingerprint(req: WebhookRequest): string {
  return createHash('sha256').update(req.contentType ?? '').update('\0').update(req.body).digest('hex');
}

export interface CodeHostingAnswer {
  accepted: true;
  /** How many automations the event was recorded for. */
  matched: number;
  /** The delivery was seen before (its id; for GitHub, also its signed body under another id): nothing was recorded again. */
  duplicate: boolean;
  /** Set when the delivery triggers nothing (another event, another action). */
  ignored?: string;
}

const header = (req: Pick<WebhookRequest, 'headers'>, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** Bus channel announcing that automations changed (created, patched, deleted). */
export const AUTOMATIONS_CHANGED_CHANNEL = 'automations_changed';

/** Routes are cached while the bus tells this process about automation changes. */
const ROUTE_TTL_MS = 60_000;
/** Repositories are connected outside the API (admin CLI): an empty answer is kept briefly. */
const EMPTY_ROUTE_TTL_MS = 5_000;
const MAX_ROUTES = 10_000;

export function createAutomationIntake(deps: {
  automations: AutomationsRepository;
  inbox: AutomationInbox;
  bus: EventBus;
  github: { webhookSecret?: string };
  /** Which organizations a GitLab delivery's token opens. */
  gitlabSenders: Pick<GitlabSenders, 'resolve'>;
  /** The code-hosting bot's name: `/{botName} …` on a pull request is a command. */
  botName: string;
  logger: Logger;
  /** Analytics counts pull requests opened, merged and closed from the same deliveries (idempotent per delivery). */
  pullRequests?: {
    recordPullRequest(provider: 'github' | 'gitlab', event: CodeHostingEvent, deliveryId: string | undefined, organizationIds?: ReadonlySet<string>): Promise<unknown>;
  };
  /** Issues, pull requests, comments and failed checks routed to workspaces (the same verified delivery, after the automations). */
  threads?: Pick<CodeHostingThreads, 'acceptGithub' | 'acceptGitlab'>;
}) {
  const { inbox, automations } = deps;

  // The routing query's answers per (provider, event, repository name). Correctness does not
  // depend on them being fresh for `enabled` or existence (the inbox re-reads the automation
  // under a lock); a trigger edit reaches every process through the bus within milliseconds.
  const routes = new Map<string, { rows: EventRoute[]; expiresAt: number }>();
  let listening: Promise<boolean> | null = null;
  function listen(): Promise<boolean> {
    listening ??= deps.bus.subscribe(AUTOMATIONS_CHANGED_CHANNEL, () => routes.clear()).then(
      () => true,
      (err) => {
        deps.logger.warn('automation changes are not observed; routing is not cached', { err });
        listening = null;
        return false;
      },
    );
    return listening;
  }

  async function routeRows(event: CodeHostingEvent, name: string): Promise<EventRoute[]> {
    const cacheKey = `${event.provider}|${event.event}|${name}`;
    const cached = routes.get(cacheKey);
    if (cached && cached.expiresAt > Date.now()) return cached.rows;
    const live = await listen();
    const rows = await automations.eventRoutes(event.provider, event.event, name);
    if (live) {
      if (routes.size >= MAX_ROUTES) routes.clear();
      routes.set(cacheKey, { rows, expiresAt: Date.now() + (rows.length ? ROUTE_TTL_MS : EMPTY_ROUTE_TTL_MS) });
    }
    return rows;
  }

  /**
   * Enabled automations with a trigger for this event, in the organizations whose connected
   * repository is the event's (matched on any URL form, normalised) — among `organizationIds`
   * when the delivery's credential belongs to some organizations only (GitLab).
   */
  async function itemsFor(event: CodeHostingEvent, organizationIds?: ReadonlySet<string>): Promise<InboxItem[]> {
    const wanted = new Set(event.repositoryUrls.map(normaliseRepositoryUrl).filter((u): u is string => !!u));
    if (!wanted.size) return [];
    const rows = await routeRows(event, event.repositoryFullName.toLowerCase());
    const items: InboxItem[] = [];
    for (const row of rows) {
      if (!row.automation_id || !row.triggers) continue;
      if (organizationIds && !organizationIds.has(row.organization_id)) continue;
      const normalised = normaliseRepositoryUrl(row.url);
      if (normalised === null || !wanted.has(normalised)) continue;
      const trigger = row.triggers.find((t) => t.type === event.provider && (t.config as { event?: string }).event === event.event);
      const config = (trigger?.config ?? {}) as { repository_ids?: string[]; excluded_actors?: string[] };
      if (config.repository_ids?.length && !config.repository_ids.includes(row.repository_id)) continue;
      // A command's actor is its commenter: an excluded login cannot command the bot either.
      if (isExcludedActor(event.actor, config.excluded_actors ?? [])) continue;
      const payload: Record<string, unknown> = { ...event.payload, repository_id: row.repository_id };
      if (event.installationId !== null) payload.installation_id = event.installationId;
      items.push({ automationId: row.automation_id, key: pullRequestDebounceKey(row.repository_id, event.number), payload, trigger: event.provider });
    }
    return items;
  }

  /** Bounded depth, and no text PostgreSQL cannot store (the payload is kept as jsonb). */
  const parseJson = (body: Buffer): unknown => parseJsonText(body.toString('utf8'));

  /**
   * `scope.deliveryKey` is what the delivery id is recorded under (GitLab: prefixed by the
   * sender's connections, so one organization's hook cannot spend another's delivery ids).
   */
  async function deliver(
    provider: 'github' | 'gitlab',
    event: CodeHostingEvent | null,
    deliveryId: string | undefined,
    scope: { organizationIds?: ReadonlySet<string>; deliveryKey?: string } = {},
  ): Promise<CodeHostingAnswer> {
    if (!event) return { accepted: true, matched: 0, duplicate: false, ignored: 'this event or action triggers no automation' };
    await deps.pullRequests?.recordPullRequest(provider, event, deliveryId, scope.organizationIds);
    const items = await itemsFor(event, scope.organizationIds);
    const key = scope.deliveryKey ?? deliveryId;
    const { duplicate, accepted } = await inbox.accept(items, key ? { provider, id: key } : undefined);
    const matched = accepted.filter((a) => a !== null).length;
    deps.logger.debug('code-hosting event accepted', { provider, event: event.event, deliveryId, matched, duplicate });
    return { accepted: true, matched, duplicate };
  }

  function githubSecret(): string {
    const secret = deps.github.webhookSecret;
    if (!secret) throw new DomainError('unauthenticated', 'Invalid webhook signature', 'no GitHub webhook secret is configured on this service');
    return secret;
  }

  const githubMismatch = () => new DomainError('unauthenticated', 'Invalid webhook signature', 'X-Hub-Signature-256 does not match the body');

  function mapped(parse: () => CodeHostingEvent | null): CodeHostingEvent | null {
    try {
      return parse();
    } catch (err) {
      if (err instanceof PayloadError) throw invalid('Invalid webhook payload', err.message);
      throw err;
    }
  }

  return {
    /**
     * Custom webhook: the token is the only credential, looked up by its hash. An unknown
     * token, a disabled automation and one without a custom trigger are the same 404.
     */
    async acceptCustom(token: string, read: () => Promise<WebhookRequest>, idempotencyKey: string | null = null): Promise<{ accepted: true; replayed: boolean }> {
      const automation = await automations.findByWebhookTokenHash(hashWebhookToken(token));
      const usable = automation?.enabled && automation.triggers.some((t) => t.type === 'custom');
      if (!usable) throw notFound('Webhook');
      // The body is read only for a token that opens an automation.
      const req = await read();
      // A retry with the same key and the same request records nothing again (the key is kept
      // as long as delivery ids, 7 days); the same key on another request is a 422.
      const delivery = idempotencyKey === null ? undefined : { provider: `custom:${automation.id}`, id: idempotencyKey, fingerprint: requestFingerprint(req) };
      const { duplicate, accepted } = await inbox.accept([{ automationId: automation.id, key: CUSTOM_DEBOUNCE_KEY, payload: customPayload(req.body, req.contentType), trigger: 'custom' }], delivery);
      if (duplicate) return { accepted: true, replayed: true };
      // Deleted or disabled between the lookup and the write.
      if (accepted[0] === null) throw notFound('Webhook');
      return { accepted: true, replayed: false };
    },

    /**
     * What a GitHub delivery's headers tell before its body is read: the 401 without a secret
     * configured or without a well-formed `X-Hub-Signature-256`; otherwise the check the body
     * streams through, whose `verify()` is the 401 of a signature that does not match.
     */
    githubVerifier(headers: WebhookRequest['headers']): { update(chunk: Buffer): void; verify(): void } {
      const secret = githubSecret();
      const claim = githubSignatureClaim(header({ headers }, 'x-hub-signature-256'));
      if (claim === null) throw new DomainError('unauthenticated', 'Invalid webhook signature', 'X-Hub-Signature-256 is missing or not sha256=<64 hex digits>');
      const mac = streamingHmacSha256(secret, claim);
      return {
        update: (chunk) => mac.update(chunk),
        verify: () => {
          if (!mac.matches()) throw githubMismatch();
        },
      };
    },

    /**
     * GitHub: HMAC-SHA256 of the raw body (`X-Hub-Signature-256`), delivery id `X-GitHub-Delivery`.
     * The route checked it while the body streamed in; it is checked again over the bytes
     * given here, so that nothing reaches the inbox on the route's word alone.
     */
    async acceptGithub(req: WebhookRequest): Promise<CodeHostingAnswer> {
      if (!verifyGithubSignature(githubSecret(), req.body, header(req, 'x-hub-signature-256'))) throw githubMismatch();
      if (await inbox.isReplayedBody('github', req.body, header(req, 'x-github-delivery'))) return { accepted: true, matched: 0, duplicate: true };
      const body = githubBody(req, parseJson);
      const event = mapped(() => parseGithubEvent(header(req, 'x-github-event') ?? '', body, { botName: deps.botName }));
      const answer = await deliver('github', event, header(req, 'x-github-delivery'));
      return withThreads(answer, await deps.threads?.acceptGithub(header(req, 'x-github-event') ?? '', body, header(req, 'x-github-delivery'), req.body));
    },

    /**
     * GitLab's credential is a header (`X-Gitlab-Token`): who sent the delivery is decided
     * before the body is read, and only a sender found here can be handed to `acceptGitlab`.
     */
    gitlabSender: (headers: WebhookRequest['headers']): Promise<GitlabSender> => deps.gitlabSenders.resolve(header({ headers }, 'x-gitlab-token')),

    /**
     * GitLab: the sender's organizations get the delivery for their own connected repositories;
     * delivery id `X-Gitlab-Event-UUID`.
     */
    async acceptGitlab(req: WebhookRequest, sender: GitlabSender): Promise<CodeHostingAnswer> {
      const body = parseJson(req.body);
      const event = mapped(() => parseGitlabEvent(header(req, 'x-gitlab-event') ?? '', body, { botName: deps.botName }));
      const deliveryId = header(req, 'x-gitlab-event-uuid');
      const organizationIds = new Set(sender.organizations.map((o) => o.organizationId));
      const connectionIds = sender.organizations.map((o) => o.connectionId).filter((id): id is string => id !== null);
      const deliveryKey = deliveryId && connectionIds.length ? `${connectionIds.sort().join(',')}.${deliveryId}` : deliveryId;
      const answer = await deliver('gitlab', event, deliveryId, { organizationIds, deliveryKey });
      return withThreads(answer, await deps.threads?.acceptGitlab(header(req, 'x-gitlab-event') ?? '', body, deliveryId, req.body, sender));
    },

    pruneDeliveries: () => inbox.pruneDeliveries(),

    /** Forgets cached routes in this process (other processes hear it on the bus). */
    invalidateRoutes: () => routes.clear(),
  };
}

/** A delivery that reached a thread was not ignored, even when it triggers no automation. */
function withThreads(answer: CodeHostingAnswer, threads: { routed: number } | undefined): CodeHostingAnswer {
  if (!threads?.routed || answer.ignored === undefined) return answer;
  const { ignored: _ignored, ...rest } = answer;
  return rest;
}

/** GitHub sends JSON, or a form with the JSON in `payload` when the hook's content type is form. */
function githubBody(req: WebhookRequest, parseJson: (b: Buffer) => unknown): unknown {
  if (req.contentType && /application\/x-www-form-urlencoded/i.test(req.contentType)) {
    const payload = new URLSearchParams(req.body.toString('utf8')).get('payload');
    if (payload === null) throw invalid('Invalid webhook payload', 'the form has no payload field');
    return parseJson(Buffer.from(payload, 'utf8'));
  }
  return parseJson(req.body);
}

export type AutomationIntake = ReturnType<typeof createAutomationIntake>;
