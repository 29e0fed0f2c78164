/**
 * Event triggers as the inbox sees them: which debounce window an event joins, what payload a
 * custom webhook's body becomes, and how its token is looked up.
 */
import { createHash } from 'node:crypto';

/** Every custom-webhook event of an automation shares one debounce key. */
export const CUSTOM_DEBOUNCE_KEY = 'custom';

/** Code-hosting events debounce per pull (merge) request. */
export const pullRequestDebounceKey = (repositoryId: string, number: number) => `pr:${repositoryId}:${number}`;

/** The repository and number of a `pr:{repositoryId}:{number}` key; null for any other key. */
export function parsePullRequestDebounceKey(key: string | null | undefined): { repositoryId: string; number: number } | null {
  const match = typeof key === 'string' ? /^pr:([0-9a-f-]{36}):([1-9][0-9]{0,9})$/i.exec(key) : null;
  return match ? { repositoryId: match[1]!.toLowerCase(), number: Number(match[2]) } : null;
}

/** Tokens are stored only as this hash, so the lookup is an equality on a unique index. */
export const hashWebhookToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

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

/**
 * Slack messages debounce (and group, with `group_thread_replies`) per thread: a top-level
 * message is its own thread (`threadTs` = its ts).
 */
export const slackThreadDebounceKey = (channelId: string, threadTs: string) => `slack:${channelId}:${threadTs}`;

/** Sentry events debounce per Sentry issue. */
export const sentryIssueDebounceKey = (projectSlug: string, issueId: string) => `sentry:${projectSlug}:${issueId}`;
