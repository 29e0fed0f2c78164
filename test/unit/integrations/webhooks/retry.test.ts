import { expect } from 'chai';
import {
  classifyWebhookStatus,
  parseRetryAfter,
  webhookRetryDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MAX_RETRY_AFTER_MS,
  WEBHOOK_RETRY_DELAYS_MS,
} from '../../../../src/integrations/webhooks/retry';

describe('webhook retry policy', () => {
  it('is done on 2xx, retries 408, 429 and 5xx, and gives up on other answers', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(classifyWebhookStatus(status), String(status)).to.equal('delivered');
    for (const status of [408, 429, 500, 502, 503, 504, 599]) expect(classifyWebhookStatus(status), String(status)).to.equal('retry');
    for (const status of [100, 301, 302, 304, 400, 401, 403, 404, 405, 410, 413, 422]) expect(classifyWebhookStatus(status), String(status)).to.equal('give_up');
  });

  it('waits 1 s, 5 s, 30 s, 2 min, 10 min between six attempts, then stops', () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).to.deep.equal([1_000, 5_000, 30_000, 120_000, 600_000]);
    expect(WEBHOOK_MAX_ATTEMPTS).to.equal(6);
    expect([1, 2, 3, 4, 5].map((attempt) => webhookRetryDelay(attempt))).to.deep.equal([1_000, 5_000, 30_000, 120_000, 600_000]);
    expect(webhookRetryDelay(6)).to.equal(null);
    expect(webhookRetryDelay(0)).to.equal(null);
    expect(webhookRetryDelay(1.5)).to.equal(null);
  });

  it('honours a longer Retry-After up to a cap, never a shorter one', () => {
    expect(webhookRetryDelay(1, 20_000)).to.equal(20_000);
    expect(webhookRetryDelay(3, 1_000)).to.equal(30_000);
    expect(webhookRetryDelay(1, 86_400_000)).to.equal(WEBHOOK_MAX_RETRY_AFTER_MS);
    expect(webhookRetryDelay(6, 1_000)).to.equal(null);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).to.equal(120_000);
    expect(parseRetryAfter(' 0 ', now)).to.equal(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).to.equal(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).to.equal(0);
    expect(parseRetryAfter('soon', now)).to.equal(null);
    expect(parseRetryAfter(null, now)).to.equal(null);
  });
});
