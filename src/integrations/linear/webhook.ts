/**
 * Linear webhooks: the `Linear-Signature` check, the freshness of `webhookTimestamp`, and what a
 * data-change delivery means for Hangar — an issue assigned to Hangar's app user, a comment on
 * an issue, an issue finished. Pure: the service hands in the raw body and the parsed envelope.
 *
 * Envelope (Linear's docs): `{action: create|update|remove, type, data, updatedFrom?, actor,
 * url, createdAt, organizationId, webhookTimestamp (ms), webhookId}`; Issue `data` carries
 * `assigneeId`, `state {type}`, `identifier`, `title`, `description`, `url`; Comment `data`
 * carries `body`, `issueId`, `userId`, `user`, `issue`.
 */
import { matchesHmacSha256 } from '../../crypto/hmac';

/** Linear recommends refusing deliveries whose timestamp is more than a minute away. */
export const LINEAR_TIMESTAMP_TOLERANCE_MS = 60_000;

/** Hex HMAC-SHA256 of the raw body with the webhook's signing secret, compared in constant time. */
export function verifyLinearSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  return matchesHmacSha256(secret, [rawBody], header);
}

/** Whether the signed `webhookTimestamp` (ms) is within the tolerance of `now` either way. */
export function isFreshLinearTimestamp(webhookTimestamp: unknown, now: number, toleranceMs = LINEAR_TIMESTAMP_TOLERANCE_MS): boolean {
  return typeof webhookTimestamp === 'number' && Number.isFinite(webhookTimestamp) && Math.abs(now - webhookTimestamp) <= toleranceMs;
}

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

export interface LinearEnvelope {
  action: string;
  type: string;
  organizationId: string;
  webhookTimestamp: unknown;
  data: Fields;
  updatedFrom: Fields | null;
  actor: Fields | null;
  url: string | null;
}

/** The envelope's fields, or null when the body is not a Linear data-change delivery. */
export function linearEnvelope(body: unknown): LinearEnvelope | null {
  const root = record(body);
  const organizationId = text(root?.organizationId);
  const data = record(root?.data);
  if (!root || !organizationId || !data) return null;
  return {
    action: text(root.action) ?? '',
    type: text(root.type) ?? '',
    organizationId,
    webhookTimestamp: root.webhookTimestamp,
    data,
    updatedFrom: record(root.updatedFrom),
    actor: record(root.actor),
    url: text(root.url),
  };
}

export interface LinearPerson {
  id: string;
  name: string | null;
  email: string | null;
}

export interface LinearIssueRef {
  id: string;
  identifier: string | null;
  title: string | null;
  description: string | null;
  url: string | null;
  teamId: string | null;
}

export type LinearThreadEvent =
  | { kind: 'assigned'; issue: LinearIssueRef; by: LinearPerson | null }
  | { kind: 'comment'; issue: LinearIssueRef; commentId: string; body: string; by: LinearPerson }
  | { kind: 'closed'; issueId: string };

/** Linear's workflow state types that end an issue. */
const FINISHED_STATES = new Set(['completed', 'canceled']);

function person(v: Fields | null): LinearPerson | null {
  const id = text(v?.id);
  if (!v || !id) return null;
  return { id, name: text(v.name) ?? text(v.displayName), email: text(v.email) };
}

/** The actor when it is a person (not an OAuth app or an integration). */
function userActor(actor: Fields | null): LinearPerson | null {
  const type = text(actor?.type);
  return type === null || type === 'user' ? person(actor) : null;
}

function issueRef(data: Fields, url: string | null): LinearIssueRef {
  return {
    id: text(data.id)!,
    identifier: text(data.identifier),
    title: text(data.title),
    description: text(data.description),
    url: text(data.url) ?? url,
    teamId: text(data.teamId) ?? text(record(data.team)?.id),
  };
}

/**
 * What a verified delivery means for the thread of its issue, given the app user's id on this
 * Linear workspace; null for everything else (other types, edits, the app's own comments).
 */
export function linearThreadEvent(envelope: LinearEnvelope, appUserId: string): LinearThreadEvent | null {
  const { action, type, data, updatedFrom } = envelope;
  if (type === 'Issue') {
    const id = text(data.id);
    if (!id) return null;
    if (action === 'remove') return { kind: 'closed', issueId: id };
    const stateType = text(record(data.state)?.type);
    const finished = stateType !== null && FINISHED_STATES.has(stateType);
    if (action === 'update' && finished && updatedFrom && 'stateId' in updatedFrom) return { kind: 'closed', issueId: id };
    if (finished || data.assigneeId !== appUserId) return null;
    const newlyAssigned = action === 'create' || (action === 'update' && !!updatedFrom && 'assigneeId' in updatedFrom && updatedFrom.assigneeId !== appUserId);
    return newlyAssigned ? { kind: 'assigned', issue: issueRef(data, envelope.url), by: userActor(envelope.actor) } : null;
  }
  if (type === 'Comment' && action === 'create') {
    const commentId = text(data.id);
    const issue = record(data.issue);
    const issueId = text(data.issueId) ?? text(issue?.id);
    const body = text(data.body);
    const by = userActor(envelope.actor) ?? person(record(data.user)) ?? (text(data.userId) ? { id: text(data.userId)!, name: null, email: null } : null);
    if (!commentId || !issueId || !body || !by) return null;
    // The app's own comments (its acknowledgements and answers) come back as deliveries too.
    if (by.id === appUserId || data.userId === appUserId || text(envelope.actor?.id) === appUserId) return null;
    return { kind: 'comment', issue: issueRef({ ...issue, id: issueId }, null), commentId, body, by };
  }
  return null;
}

const ENV_TAG = /\[env:\s*([^\]\s][^\]]{0,99}?)\s*\]/i;

/** `[env:name]` in an issue's text: the environment a new workspace uses. */
export function environmentTag(textValue: string | null): string | null {
  const match = textValue ? ENV_TAG.exec(textValue) : null;
  return match ? match[1]!.trim() : null;
}

const MAX_DESCRIPTION = 20_000;

/** What the workspace's agent is told when the issue is assigned to Hangar. */
export function assignmentText(issue: LinearIssueRef, by: LinearPerson | null): string {
  const heading = [issue.identifier, issue.title].filter(Boolean).join(': ') || issue.id;
  const description = issue.description ? issue.description.slice(0, MAX_DESCRIPTION) : '(no description)';
  const lines = [`Linear issue ${heading}${by?.name ? ` (assigned to you by ${by.name})` : ''}`];
  if (issue.url) lines.push(issue.url);
  lines.push('', description);
  return lines.join('\n');
}

/** What the workspace's agent is told about a new comment on its issue. */
export function commentText(issue: LinearIssueRef, by: LinearPerson, body: string): string {
  return `${by.name ?? 'Someone'} commented on Linear issue ${issue.identifier ?? issue.id}:\n\n${body.slice(0, MAX_DESCRIPTION)}`;
}
