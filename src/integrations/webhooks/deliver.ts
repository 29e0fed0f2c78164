/**
 * Outbound per-replica webhooks (interop §4.14). One POST of
 * `{event, replica_id, timestamp, data}` with `User-Agent: Hangar-Webhooks`, an
 * `X-Webhook-Delivery` id that stays the same across retries (receivers deduplicate on it)
 * and, when the replica has a secret, `X-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 *
 * Errors never carry the URL (receiver URLs often embed tokens), the secret or the body;
 * this module does not log.
 */
import { fetch, type Response } from 'undici';
import type { OutboundPolicy } from '../outbound/addressGuard';
import { createHmac, randomUUID } from 'node:crypto';
import { classifyWebhookStatus, parseRetryAfter, webhookRetryDelay, WEBHOOK_MAX_ATTEMPTS } from './retry';

export const WEBHOOK_EVENTS = ['replica.ready', 'replica.turn_completed', 'replica.deleted', 'replica.error'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_USER_AGENT = 'Hangar-Webhooks';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature';
export const WEBHOOK_DELIVERY_HEADER = 'X-Webhook-Delivery';
export const WEBHOOK_EVENT_HEADER = 'X-Webhook-Event';
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** Failure type strings for `ApplicationFailure.create({ type })`. */
export const WEBHOOK_RETRYABLE = 'WebhookDeliveryRetryable';
export const WEBHOOK_REJECTED = 'WebhookDeliveryRejected';

export interface WebhookDelivery {
  url: string;
  secret: string | null;
  event: WebhookEvent;
  replicaId: string;
  payload: unknown;
  /** Stable across retries of one delivery; generated when absent. */
  deliveryId?: string;
  /** When the event happened (the body's `timestamp`); now when absent. */
  occurredAt?: Date;
}

export interface DeliveryOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where a user-chosen URL may go (SSRF guard); without it, anywhere (tests of the wire format). */
  policy?: OutboundPolicy;
}

export class WebhookDeliveryError extends Error {
  readonly type: typeof WEBHOOK_RETRYABLE | typeof WEBHOOK_REJECTED;
  constructor(
    readonly retryable: boolean,
    message: string,
    /** The receiver's status, when it answered. */
    readonly status: number | null = null,
    /** The receiver's Retry-After, in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'WebhookDeliveryError';
    this.type = retryable ? WEBHOOK_RETRYABLE : WEBHOOK_REJECTED;
  }
}

export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function webhookBody(delivery: WebhookDelivery): string {
  return JSON.stringify({
    event: delivery.event,
    replica_id: delivery.replicaId,
    timestamp: (delivery.occurredAt ?? new Date()).toISOString(),
    data: delivery.payload ?? null,
  });
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}

/**
 * One attempt. Resolves with the receiver's status on 2xx; throws `WebhookDeliveryError`
 * otherwise, `retryable` saying whether another attempt could succeed.
 */
export async function deliverWebhookOnce(delivery: WebhookDelivery, options: DeliveryOptions = {}): Promise<{ status: number; deliveryId: string }> {
  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    throw new WebhookDeliveryError(false, 'webhook URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookDeliveryError(false, 'webhook URL must be http or https');

  const refused = options.policy ? await options.policy.checkUrl(url.href) : null;
  if (refused) throw new WebhookDeliveryError(false, `webhook URL is not allowed: ${refused}`);

  const deliveryId = delivery.deliveryId ?? randomUUID();
  const body = webhookBody(delivery);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [WEBHOOK_EVENT_HEADER.toLowerCase()]: delivery.event,
    [WEBHOOK_DELIVERY_HEADER.toLowerCase()]: deliveryId,
  };
  if (delivery.secret) headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] = signWebhookBody(delivery.secret, body);

  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  try {
    // No redirects: a receiver cannot bounce the delivery to an address the guard refused.
    response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal, ...(options.policy ? { dispatcher: options.policy.agent } : {}) });
  } catch (err) {
    if (options.signal?.aborted) throw new WebhookDeliveryError(true, 'webhook delivery was cancelled');
    if (timeout.aborted) throw new WebhookDeliveryError(true, `webhook receiver did not answer within ${timeoutMs} ms`);
    throw new WebhookDeliveryError(true, `webhook receiver unreachable (${describeNetworkError(err)})`);
  }
  // The receiver's body is not ours to read or keep.
  await response.body?.cancel().catch(() => undefined);

  const outcome = classifyWebhookStatus(response.status);
  if (outcome === 'delivered') return { status: response.status, deliveryId };
  throw new WebhookDeliveryError(
    outcome === 'retry',
    `webhook receiver answered ${response.status}`,
    response.status,
    parseRetryAfter(response.headers.get('retry-after')),
  );
}

/**
 * Delivers with the retry schedule in-process (for callers without Temporal's retries); the
 * same delivery id goes with every attempt. Resolves with the outcome, never throws.
 */
export async function deliverWebhook(
  delivery: WebhookDelivery,
  options: DeliveryOptions & { sleep?: (ms: number) => Promise<void>; maxAttempts?: number } = {},
): Promise<{ delivered: boolean; attempts: number; status: number | null; error: string | null }> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxAttempts = Math.min(options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS, WEBHOOK_MAX_ATTEMPTS);
  const fixed = { ...delivery, deliveryId: delivery.deliveryId ?? randomUUID(), occurredAt: delivery.occurredAt ?? new Date() };
  for (let attempt = 1; ; attempt++) {
    try {
      const { status } = await deliverWebhookOnce(fixed, options);
      return { delivered: true, attempts: attempt, status, error: null };
    } catch (err) {
      const failure = err instanceof WebhookDeliveryError ? err : new WebhookDeliveryError(true, 'webhook delivery failed');
      const delay = failure.retryable && attempt < maxAttempts ? webhookRetryDelay(attempt, failure.retryAfterMs) : null;
      if (delay === null || options.signal?.aborted) return { delivered: false, attempts: attempt, status: failure.status, error: failure.message };
      await sleep(delay);
    }
  }
}
