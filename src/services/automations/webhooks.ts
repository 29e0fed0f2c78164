/**
 * Inbound event triggers: the custom webhook (`/v1/automations/webhook/{token}`) and the
 * code-hosting receivers (`/v1/webhooks/github`, `/v1/webhooks/gitlab`). Each request is
 * authenticated, mapped to (automation, debounce key, payload) items and handed to the inbox
 * in one transaction; the answer goes out as soon as that transaction commits, and all the
 * remaining work happens in Temporal.
 */
import type { Knex } from 'knex';
import { HttpError, badRequest, notFound } from '../../errors';
import type { Logger } from '../../logger';
import {
  CodeHostingPayloadError,
  isExcludedActor,
  normaliseRepositoryUrl,
  parseGithubEvent,
  parseGitlabEvent,
  verifyGithubSignature,
  verifyGitlabToken,
  type CodeHostingEvent,
} from '../../codeHosting/events';
import type { AutomationInbox, InboxItem } from './inbox';
import { hashWebhookToken } from './index';
import type { Trigger } from './rules';

/** The custom webhook's body limit (interop §10.4). */
export const CUSTOM_WEBHOOK_LIMIT_BYTES = 256 * 1024;
/** GitHub caps webhook payloads at 25 MB; GitLab's are smaller. */
export const CODE_HOSTING_LIMIT_BYTES = 25 * 1024 * 1024;

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  contentType: string | undefined;
}

export interface CodeHostingAnswer {
  accepted: true;
  /** How many automations the event was recorded for. */
  matched: number;
  /** The delivery id was seen before: nothing was recorded again. */
  duplicate: boolean;
  /** Set when the delivery triggers nothing (another event, another action). */
  ignored?: string;
}

const header = (req: WebhookRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** The run's payload for a custom webhook: a JSON object as sent, anything else as `{raw}`. */
export function customPayload(body: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = body.toString('utf8');
  if (!contentType || /json/i.test(contentType) || /^\s*[{]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // not JSON after all: wrapped below
    }
  }
  return { raw: text };
}

export function createAutomationWebhooks(deps: {
  db: Knex;
  inbox: AutomationInbox;
  github: { webhookSecret?: string };
  gitlab: { webhookToken?: string };
  logger: Logger;
}) {
  const { db, inbox } = deps;

  /** Connected repositories matching any URL form of the event's repository (any organization). */
  async function repositoriesOf(event: CodeHostingEvent): Promise<Array<{ id: string; organization_id: string }>> {
    const wanted = new Set(event.repositoryUrls.map(normaliseRepositoryUrl).filter((u): u is string => !!u));
    if (!wanted.size) return [];
    const name = event.repositoryFullName.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows: Array<{ id: string; organization_id: string; url: string }> = await db('repositories')
      .whereRaw("lower(url) like ? escape '\\'", [`%${name}%`])
      .select('id', 'organization_id', 'url');
    return rows.filter((r) => {
      const normalised = normaliseRepositoryUrl(r.url);
      return normalised !== null && wanted.has(normalised);
    });
  }

  /** Enabled automations of the repository's organization with a trigger for this event. */
  async function itemsFor(event: CodeHostingEvent): Promise<InboxItem[]> {
    const items: InboxItem[] = [];
    for (const repo of await repositoriesOf(event)) {
      const automations: Array<{ id: string; triggers: Trigger[] }> = await db('automations')
        .where({ organization_id: repo.organization_id, enabled: true })
        .whereRaw('triggers @> ?::jsonb', [JSON.stringify([{ type: event.provider, config: { event: event.event } }])])
        .select('id', 'triggers');
      for (const automation of automations) {
        const trigger = automation.triggers.find((t) => t.type === event.provider && (t.config as { event?: string }).event === event.event);
        const config = (trigger?.config ?? {}) as { repository_ids?: string[]; excluded_actors?: string[] };
        if (config.repository_ids?.length && !config.repository_ids.includes(repo.id)) continue;
        if (isExcludedActor(event.actor, config.excluded_actors ?? [])) continue;
        const payload: Record<string, unknown> = { ...event.payload, repository_id: repo.id };
        if (event.installationId !== null) payload.installation_id = event.installationId;
        items.push({ automationId: automation.id, key: `pr:${repo.id}:${event.number}`, payload });
      }
    }
    return items;
  }

  function parseJson(body: Buffer): unknown {
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      throw badRequest('Malformed JSON body');
    }
  }

  async function deliver(provider: 'github' | 'gitlab', event: CodeHostingEvent | null, deliveryId: string | undefined): Promise<CodeHostingAnswer> {
    if (!event) return { accepted: true, matched: 0, duplicate: false, ignored: 'this event or action triggers no automation' };
    const items = await itemsFor(event);
    const { duplicate, accepted } = await inbox.accept(items, deliveryId ? { provider, id: deliveryId } : undefined);
    const matched = accepted.filter((a) => a !== null).length;
    deps.logger.info('code-hosting event accepted', { provider, event: event.event, deliveryId, matched, duplicate });
    return { accepted: true, matched, duplicate };
  }

  function mapped(parse: () => CodeHostingEvent | null): CodeHostingEvent | null {
    try {
      return parse();
    } catch (err) {
      if (err instanceof CodeHostingPayloadError) throw badRequest('Invalid webhook payload', err.message);
      throw err;
    }
  }

  return {
    /**
     * Custom webhook: the token is the only credential, looked up by its hash. An unknown
     * token, a disabled automation and one without a custom trigger are the same 404.
     */
    async acceptCustom(token: string, req: WebhookRequest): Promise<{ accepted: true }> {
      const automation = await db('automations').where({ webhook_token_hash: hashWebhookToken(token) }).first('id', 'enabled', 'triggers');
      const usable = automation?.enabled && (automation.triggers as Trigger[]).some((t) => t.type === 'custom');
      if (!usable) throw notFound('Webhook');
      const { accepted } = await inbox.accept([{ automationId: automation.id, key: 'custom', payload: customPayload(req.body, req.contentType) }]);
      // Deleted or disabled between the lookup and the write.
      if (accepted[0] === null) throw notFound('Webhook');
      return { accepted: true };
    },

    /** GitHub: HMAC-SHA256 of the raw body (`X-Hub-Signature-256`), delivery id `X-GitHub-Delivery`. */
    async acceptGithub(req: WebhookRequest): Promise<CodeHostingAnswer> {
      const secret = deps.github.webhookSecret;
      if (!secret) throw new HttpError(401, 'Invalid webhook signature', 'no GitHub webhook secret is configured on this service');
      if (!verifyGithubSignature(secret, req.body, header(req, 'x-hub-signature-256'))) {
        throw new HttpError(401, 'Invalid webhook signature', 'X-Hub-Signature-256 does not match the body');
      }
      const body = githubBody(req, parseJson);
      const event = mapped(() => parseGithubEvent(header(req, 'x-github-event') ?? '', body));
      return deliver('github', event, header(req, 'x-github-delivery'));
    },

    /** GitLab: the shared secret token (`X-Gitlab-Token`), delivery id `X-Gitlab-Event-UUID`. */
    async acceptGitlab(req: WebhookRequest): Promise<CodeHostingAnswer> {
      const expected = deps.gitlab.webhookToken;
      if (!expected) throw new HttpError(401, 'Invalid webhook token', 'no GitLab webhook token is configured on this service');
      if (!verifyGitlabToken(expected, header(req, 'x-gitlab-token'))) throw new HttpError(401, 'Invalid webhook token', 'X-Gitlab-Token does not match');
      const body = parseJson(req.body);
      const event = mapped(() => parseGitlabEvent(header(req, 'x-gitlab-event') ?? '', body));
      return deliver('gitlab', event, header(req, 'x-gitlab-event-uuid'));
    },

    pruneDeliveries: () => inbox.pruneDeliveries(),
  };
}

/** GitHub sends JSON, or a form with the JSON in `payload` when the hook's content type is form. */
function githubBody(req: WebhookRequest, parseJson: (b: Buffer) => unknown): unknown {
  if (req.contentType && /application\/x-www-form-urlencoded/i.test(req.contentType)) {
    const payload = new URLSearchParams(req.body.toString('utf8')).get('payload');
    if (payload === null) throw badRequest('Invalid webhook payload', 'the form has no payload field');
    return parseJson(Buffer.from(payload, 'utf8'));
  }
  return parseJson(req.body);
}

export type AutomationWebhooks = ReturnType<typeof createAutomationWebhooks>;
