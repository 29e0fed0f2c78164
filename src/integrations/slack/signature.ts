/**
 * Slack's request signing (Events API, interactivity): `X-Slack-Signature` is
 * `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` keyed by the app's
 * signing secret. A timestamp more than five minutes away from now (either way) is refused, so
 * a captured delivery cannot be replayed later with its original headers.
 */
import { createHmac } from 'node:crypto';
import { matchesHmacSha256 } from '../../crypto/hmac';

/** Slack's documented window: requests older (or newer) than this are refused. */
export const SLACK_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export type SlackSignatureCheck = 'ok' | 'missing' | 'stale' | 'mismatch';

/** The header value Slack would send for this body at this timestamp (the fake signs with it too). */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: Buffer | string): string {
  const mac = createHmac('sha256', signingSecret);
  mac.update(`v0:${timestamp}:`, 'utf8');
  mac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return `v0=${mac.digest('hex')}`;
}

/** Whether a request timestamp is within the window: checked first, before any secret is opened. */
export function slackTimestampFresh(timestamp: string | undefined, nowSeconds: number = Math.floor(Date.now() / 1000)): boolean {
  return !!timestamp && /^\d{1,12}$/.test(timestamp) && Math.abs(nowSeconds - Number(timestamp)) <= SLACK_TIMESTAMP_TOLERANCE_SECONDS;
}

/**
 * Checks a delivery's signature headers against the raw body. The comparison is constant-time
 * over equal-length buffers; a malformed header is a mismatch, never an exception.
 */
export function verifySlackSignature(
  signingSecret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: Buffer,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SlackSignatureCheck {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) return 'missing';
  if (!slackTimestampFresh(timestamp, nowSeconds)) return 'stale';
  const claimed = /^v0=([0-9a-f]{64})$/.exec(signature);
  return claimed && matchesHmacSha256(signingSecret, [`v0:${timestamp}:`, rawBody], claimed[1]) ? 'ok' : 'mismatch';
}
