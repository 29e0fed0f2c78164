/**
 * When to try a webhook delivery again (pure; the Temporal activity applies it through
 * `ApplicationFailure`'s `nextRetryDelay` and `nonRetryable`).
 *
 * 2xx is delivered. 408 and 429 are the receiver asking for time; other 4xx are a verdict on
 * the request (wrong URL, rejected signature) that repeating will not change, so we stop.
 * 5xx, timeouts and network failures are transient. A 3xx is not followed (a redirect could
 * send the signed body elsewhere) and counts as a verdict.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];

/** The first try plus one retry per delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** A receiver's Retry-After is honoured up to this, never beyond the schedule's last step. */
export const WEBHOOK_MAX_RETRY_AFTER_MS = 600_000;

export type WebhookOutcome = 'delivered' | 'retry' | 'give_up';

export function classifyWebhookStatus(status: number): WebhookOutcome {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429) return 'retry';
  if (status >= 500) return 'retry';
  return 'give_up';
}

/**
 * The wait before the next attempt after `attempt` (1-based) failed, or null when no attempt
 * is left. A Retry-After longer than the schedule's step wins, up to the cap.
 */
export function webhookRetryDelay(attempt: number, retryAfterMs: number | null = null): number | null {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt >= WEBHOOK_MAX_ATTEMPTS) return null;
  const scheduled = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
  if (retryAfterMs === null || !(retryAfterMs > scheduled)) return scheduled;
  return Math.min(retryAfterMs, WEBHOOK_MAX_RETRY_AFTER_MS);
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; null if absent or bad. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
