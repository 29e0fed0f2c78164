/**
 * Sentry integration-platform webhooks: the `Sentry-Hook-Signature` check and the mapping of
 * the deliveries an automation can listen to (`issue` created, `event_alert` triggered, `error`
 * created) to a trigger event. Pure: the service hands in headers and the parsed body.
 *
 * Sentry names the organization and project of an event only inside its URLs (an event alert's
 * `project` is a numeric id): the API URLs have the stable form
 * `/api/0/projects/{organization_slug}/{project_slug}/…` on every host, so both slugs are read
 * from there, with the issue's `project.slug` and `/organizations/{slug}/` web URLs as fallbacks.
 */
import { matchesHmacSha256 } from '../../crypto/hmac';
import type { SentryEventName } from '../../domain/automations/sentry';
import { missingField } from '../payloadError';

/** Hex HMAC-SHA256 of the raw body with the integration's client secret, compared in constant time. */
export function verifySentrySignature(clientSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  return matchesHmacSha256(clientSecret, [rawBody], header);
}

/** One Sentry delivery mapped to a trigger event. */
export interface SentryEvent {
  event: SentryEventName;
  organizationSlug: string;
  projectSlug: string;
  issueId: string;
  level: string | null;
  /** The run's trigger payload: compact, never the whole event (stack frames, request headers). */
  payload: Record<string, unknown>;
}


type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : null);
const MAX_TEXT = 2_000;
const short = (v: unknown): string | null => {
  const t = text(v);
  return t === null ? null : t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
};

const API_PROJECT_PATH = /\/api\/0\/projects\/([^/]+)\/([^/]+)\//;
const WEB_ORGANIZATION_PATH = /\/organizations\/([^/]+)\//;

function pathOf(url: unknown): string | null {
  const t = text(url);
  if (!t) return null;
  try {
    return decodeURIComponent(new URL(t).pathname.replace(/\/?$/, '/'));
  } catch {
    return null;
  }
}

/** (organization, project) from the first API URL of the form /api/0/projects/{org}/{project}/. */
function slugsFromApiUrls(...urls: unknown[]): { organization: string; project: string } | null {
  for (const url of urls) {
    const match = API_PROJECT_PATH.exec(pathOf(url) ?? '');
    if (match) return { organization: match[1]!, project: match[2]! };
  }
  return null;
}

function organizationFromWebUrls(...urls: unknown[]): string | null {
  for (const url of urls) {
    const match = WEB_ORGANIZATION_PATH.exec(pathOf(url) ?? '');
    if (match) return match[1]!;
  }
  return null;
}

/**
 * The organization slug a delivery names, for finding its connection before the signature can
 * be checked: any resource, including those that trigger nothing (installation, comments…).
 */
export function sentryOrganizationSlug(body: unknown): string | null {
  const data = record(record(body)?.data);
  if (!data) return null;
  const installation = text(record(record(data.installation)?.organization)?.slug);
  if (installation) return installation.toLowerCase();
  const candidates = [data.event, data.error, data.issue, data.comment, data.metric_alert].map(record).filter((r): r is Fields => r !== null);
  for (const c of candidates) {
    const slug = slugsFromApiUrls(c.url, c.project_url, c.issue_url)?.organization ?? organizationFromWebUrls(c.web_url, c.permalink);
    if (slug) return slug.toLowerCase();
  }
  return null;
}

/** The installation a delivery came through (`installation.uuid`), when present. */
export const sentryInstallationUuid = (body: unknown): string | null => text(record(record(body)?.installation)?.uuid);

/**
 * Maps a verified delivery (the `Sentry-Hook-Resource` header + parsed body). Null for the
 * resources and actions that trigger nothing; a `PayloadError` when one that should lacks
 * what the mapping needs.
 */
export function parseSentryEvent(resource: string, body: unknown): SentryEvent | null {
  const root = record(body);
  if (!root) throw missingField('body', 'Sentry payload');
  const action = text(root.action);
  const data = record(root.data);
  const kind = `${resource.trim().toLowerCase()}.${action ?? ''}`;
  if (kind === 'issue.created') return fromIssue(record(data?.issue));
  if (kind === 'event_alert.triggered') return fromEvent('event_alert.triggered', record(data?.event), 'data.event', short(data?.triggered_rule));
  if (kind === 'error.created') return fromEvent('error.created', record(data?.error), 'data.error', null);
  return null;
}

function fromIssue(issue: Fields | null): SentryEvent {
  if (!issue) throw missingField('data.issue', 'Sentry payload');
  const id = text(issue.id);
  if (!id) throw missingField('data.issue.id', 'Sentry payload');
  const project = record(issue.project);
  const fromUrls = slugsFromApiUrls(issue.project_url, issue.url);
  const projectSlug = text(project?.slug) ?? fromUrls?.project;
  if (!projectSlug) throw missingField('data.issue.project.slug', 'Sentry payload');
  const organizationSlug = fromUrls?.organization ?? organizationFromWebUrls(issue.web_url, issue.permalink);
  if (!organizationSlug) throw missingField('data.issue.project_url', 'Sentry payload');
  const level = text(issue.level);
  return {
    event: 'issue.created',
    organizationSlug: organizationSlug.toLowerCase(),
    projectSlug: projectSlug.toLowerCase(),
    issueId: id,
    level,
    payload: {
      provider: 'sentry',
      event: 'issue.created',
      organization_slug: organizationSlug.toLowerCase(),
      project: projectSlug.toLowerCase(),
      issue_id: id,
      short_id: text(issue.shortId),
      title: short(issue.title),
      level,
      culprit: short(issue.culprit),
      platform: text(issue.platform),
      status: text(issue.status),
      substatus: text(issue.substatus),
      first_seen: text(issue.firstSeen),
      count: text(issue.count),
      user_count: typeof issue.userCount === 'number' ? issue.userCount : null,
      web_url: text(issue.web_url) ?? text(issue.permalink),
    },
  };
}

function fromEvent(name: 'event_alert.triggered' | 'error.created', event: Fields | null, at: string, triggeredRule: string | null): SentryEvent {
  if (!event) throw missingField(at, 'Sentry payload');
  const issueId = text(event.issue_id);
  if (!issueId) throw missingField(`${at}.issue_id`, 'Sentry payload');
  const slugs = slugsFromApiUrls(event.url);
  if (!slugs) throw missingField(`${at}.url`, 'Sentry payload');
  const level = text(event.level);
  const metadata = record(event.metadata);
  return {
    event: name,
    organizationSlug: slugs.organization.toLowerCase(),
    projectSlug: slugs.project.toLowerCase(),
    issueId,
    level,
    payload: {
      provider: 'sentry',
      event: name,
      organization_slug: slugs.organization.toLowerCase(),
      project: slugs.project.toLowerCase(),
      issue_id: issueId,
      event_id: text(event.event_id),
      title: short(event.title),
      level,
      culprit: short(event.culprit),
      platform: text(event.platform),
      error_type: text(metadata?.type),
      error_value: short(metadata?.value),
      release: text(event.release),
      environment: text(event.environment),
      datetime: text(event.datetime),
      web_url: text(event.web_url),
      issue_url: text(event.issue_url),
      ...(triggeredRule !== null ? { triggered_rule: triggeredRule } : {}),
    },
  };
}
