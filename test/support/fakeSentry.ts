/**
 * Sentry's side of its integration platform for tests: deliveries shaped like Sentry's `issue`,
 * `event_alert` and `error` webhooks (the fields of Sentry's documented payloads, trimmed of
 * stack frames), sent to the service's receiver with Sentry's headers (`Sentry-Hook-Resource`,
 * `Sentry-Hook-Timestamp`, `Request-ID`) and signed the way Sentry signs them:
 * `Sentry-Hook-Signature` = hex HMAC-SHA256 of the raw body with the integration's client secret.
 */
import { createHmac, randomInt, randomUUID } from 'node:crypto';

export interface SentryIssueSpec {
  organization: string;
  project: string;
  issueId?: string;
  level?: string;
  title?: string;
  installationUuid?: string;
}

const HOST = 'https://sentry.io';

const installation = (spec: SentryIssueSpec) => ({ uuid: spec.installationUuid ?? randomUUID() });
const sentryActor = { id: 'sentry', name: 'Sentry', type: 'application' };

/** An issue webhook (`Sentry-Hook-Resource: issue`, action `created`). */
export function sentryIssueCreated(spec: SentryIssueSpec): Record<string, unknown> {
  const id = spec.issueId ?? String(randomInt(1_000_000, 9_999_999));
  return {
    action: 'created',
    actor: sentryActor,
    data: {
      issue: {
        annotations: [],
        assignedTo: null,
        count: '1',
        culprit: 'app.views.checkout in submit',
        firstSeen: '2026-03-01T10:00:00.000000Z',
        hasSeen: false,
        id,
        isBookmarked: false,
        isPublic: false,
        isSubscribed: false,
        lastSeen: '2026-03-01T10:00:00.000000Z',
        level: spec.level ?? 'error',
        logger: null,
        metadata: { filename: '/app/views/checkout.py', type: 'KeyError', value: "'cart'" },
        numComments: 0,
        permalink: null,
        platform: 'python',
        project: { id: '42', name: spec.project, platform: 'python', slug: spec.project },
        shareId: null,
        shortId: `${spec.project.toUpperCase()}-1`,
        status: 'unresolved',
        statusDetails: {},
        subscriptionDetails: null,
        substatus: 'new',
        title: spec.title ?? "KeyError: 'cart'",
        type: 'error',
        userCount: 1,
        url: `${HOST}/api/0/issues/${id}/`,
        web_url: `${HOST}/organizations/${spec.organization}/issues/${id}/`,
        project_url: `${HOST}/api/0/projects/${spec.organization}/${spec.project}/`,
      },
    },
    installation: installation(spec),
  };
}

function event(spec: SentryIssueSpec, issueId: string) {
  const eventId = randomUUID().replace(/-/g, '');
  return {
    _ref: 1,
    _ref_version: 2,
    culprit: 'app.views.checkout in submit',
    datetime: '2026-03-01T10:00:00.000000Z',
    event_id: eventId,
    exception: { values: [{ type: 'KeyError', value: "'cart'", stacktrace: { frames: [{ filename: 'app/views/checkout.py', lineno: 12, function: 'submit', in_app: true }] } }] },
    fingerprint: ['{{ default }}'],
    issue_url: `${HOST}/api/0/issues/${issueId}/`,
    issue_id: issueId,
    level: spec.level ?? 'error',
    location: 'app/views/checkout.py',
    logger: '',
    message: '',
    metadata: { filename: 'app/views/checkout.py', type: 'KeyError', value: "'cart'" },
    platform: 'python',
    project: 42,
    received: 1772359200.0,
    release: null,
    tags: [['level', spec.level ?? 'error']],
    timestamp: 1772359200.0,
    title: spec.title ?? "KeyError: 'cart'",
    type: 'error',
    url: `${HOST}/api/0/projects/${spec.organization}/${spec.project}/events/${eventId}/`,
    version: '7',
    web_url: `${HOST}/organizations/${spec.organization}/issues/${issueId}/events/${eventId}/`,
  };
}

/** An issue alert (`Sentry-Hook-Resource: event_alert`, action `triggered`). */
export function sentryEventAlert(spec: SentryIssueSpec & { rule?: string }): Record<string, unknown> {
  const issueId = spec.issueId ?? String(randomInt(1_000_000, 9_999_999));
  return {
    action: 'triggered',
    actor: sentryActor,
    data: {
      event: event(spec, issueId),
      triggered_rule: spec.rule ?? 'Checkout errors',
      issue_alert: { title: spec.rule ?? 'Checkout errors', settings: [] },
    },
    installation: installation(spec),
  };
}

/** An error webhook (`Sentry-Hook-Resource: error`, action `created`). */
export function sentryErrorCreated(spec: SentryIssueSpec): Record<string, unknown> {
  const issueId = spec.issueId ?? String(randomInt(1_000_000, 9_999_999));
  return { action: 'created', actor: sentryActor, data: { error: event(spec, issueId) }, installation: installation(spec) };
}

export const signSentry = (raw: string, clientSecret: string) => createHmac('sha256', clientSecret).update(raw).digest('hex');

/** Sends a delivery the way Sentry does; `signature: null` and `requestId: null` leave those headers out. */
export async function sendSentry(
  baseUrl: string,
  resource: string,
  body: unknown,
  options: { clientSecret: string; requestId?: string | null; signature?: string | null },
): Promise<{ status: number; body: any }> {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'sentry-hook-resource': resource,
    'sentry-hook-timestamp': String(Math.floor(Date.now() / 1000)),
  };
  const requestId = options.requestId === undefined ? randomUUID() : options.requestId;
  if (requestId !== null) headers['request-id'] = requestId;
  const signature = options.signature === undefined ? signSentry(raw, options.clientSecret) : options.signature;
  if (signature !== null) headers['sentry-hook-signature'] = signature;
  const res = await fetch(`${baseUrl}/v1/webhooks/sentry`, { method: 'POST', headers, body: raw });
  const text = await res.text();
  return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}
