/**
 * Event triggers as the inbox sees them: which debounce window an event joins, what payload a
 * custom webhook's body becomes, and how its token is looked up.
 */
import { createHash } from 'node:crypto';
import { DomainError, invalid } from '../errors';
import { parseJsonText, unsafeText } from '../inputHygiene';

/** Every custom-webhook event of an automation shares one debounce key. */
export const CUSTOM_DEBOUNCE_KEY = 'custom';

/** Code-hosting events debounce per pull (merge) request. */
export const pullRequestDebounceKey = (repositoryId: string, number: number) => `pr:${repositoryId}:${number}`;

/**
 * The key a manual trigger's `pr` run is recorded under: the pull request's, in a family of its
 * own so that it never joins an earlier workspace (interop §10.5: every manual call makes a new
 * one; grouping looks at `pr:` keys only).
 */
export const manualPullRequestKey = (repositoryId: string, number: number) => `pr-manual:${repositoryId}:${number}`;

/** The repository and number of a pull request's key (`pr:` or `pr-manual:`); null for any other key. */
export function parsePullRequestDebounceKey(key: string | null | undefined): { repositoryId: string; number: number } | null {
  const match = typeof key === 'string' ? /^pr(?:-manual)?:([0-9a-f-]{36}):([1-9][0-9]{0,9})$/i.exec(key) : null;
  return match ? { repositoryId: match[1]!.toLowerCase(), number: Number(match[2]) } : null;
}

/** Tokens are stored only as this hash, so the lookup is an equality on a unique index. */
export const hashWebhookToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** The run's payload for a custom webhook: a JSON object as sent, anything else as `{raw}`. */
export function customPayload(body: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = body.toString('utf8');
  if (!contentType || /json/i.test(contentType) || /^\s*[{]/.test(text)) {
    let parsed: unknown;
    try {
      parsed = parseJsonText(text);
    } catch (err) {
      // Not JSON after all (wrapped below) — but JSON too deep or with text that cannot be stored is refused.
      if (!(err instanceof DomainError) || err.message === 'Malformed JSON body') parsed = undefined;
      else throw err;
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  }
  const why = unsafeText(text);
  if (why) throw invalid('Invalid body', `body: ${why}`);
  return { raw: text };
}

/**
 * Slack messages debounce (and group, with `group_thread_replies`) per thread: a top-level
 * message is its own thread (`threadTs` = its ts).
 */
export const slackThreadDebounceKey = (channelId: string, threadTs: string) => `slack:${channelId}:${threadTs}`;

/** Sentry events debounce per Sentry issue. */
export const sentryIssueDebounceKey = (projectSlug: string, issueId: string) => `sentry:${projectSlug}:${issueId}`;

/** The pull-request events `group_pr_events` folds into an earlier workspace (interop §10.3); merged and closed ones make their own run. */
const GROUPED_PR_EVENTS = new Set(['pull_request.opened', 'pull_request.synchronize', 'pull_request.command', 'merge_request.opened', 'merge_request.updated', 'merge_request.command']);

/**
 * Whether an event of this debounce key joins an earlier run's workspace instead of making a
 * new one: pull requests' opened/synchronize/command events with `group_pr_events`, Slack
 * threads with `group_thread_replies` (on by default). `event` is the payload's event name.
 */
export function groupsKey(triggers: ReadonlyArray<{ type: string; config: unknown }>, key: string, event?: unknown): boolean {
  const config = (t: { config: unknown }) => (t.config ?? {}) as Record<string, unknown>;
  if (key.startsWith('pr:')) {
    if (typeof event !== 'string' || !GROUPED_PR_EVENTS.has(event)) return false;
    return triggers.some((t) => (t.type === 'github' || t.type === 'gitlab') && config(t).group_pr_events === true);
  }
  if (key.startsWith('slack:')) return triggers.some((t) => t.type === 'slack' && config(t).group_thread_replies !== false);
  return false;
}
