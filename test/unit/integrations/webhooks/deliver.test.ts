import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  deliverWebhook,
  deliverWebhookOnce,
  WebhookDeliveryError,
  WEBHOOK_REJECTED,
  WEBHOOK_RETRYABLE,
  WEBHOOK_TIMEOUT_MS,
  type WebhookDelivery,
} from '../../../../src/integrations/webhooks/deliver';

interface Received {
  headers: IncomingMessage['headers'];
  raw: string;
}

/** A local receiver: records each request and answers with `respond`. */
async function startReceiver(respond: (req: Received, res: ServerResponse, n: number) => void) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      respond(entry, res, received.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/abc?token=url-token-123`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** How a receiver checks the signature: HMAC of the raw body, compared in constant time. */
function signatureValid(secret: string, raw: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const answer = (status: number, headers: Record<string, string> = {}) => (_req: Received, res: ServerResponse) => {
  res.writeHead(status, headers);
  res.end('receiver body');
};

function delivery(url: string, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return { url, secret: 's3cret-value', event: 'replica.turn_completed', replicaId: randomUUID(), payload: { pull_requests: ['https://example.com/pr/1'] }, ...overrides };
}

async function failure(promise: Promise<unknown>): Promise<WebhookDeliveryError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(WebhookDeliveryError);
    return err as WebhookDeliveryError;
  }
  throw new Error('expected the delivery to fail');
}

describe('outbound webhook delivery', () => {
  it('posts the JSON envelope with a signature the receiver can verify', async () => {
    const receiver = await startReceiver(answer(204));
    try {
      const d = delivery(receiver.url, { deliveryId: 'd-1', occurredAt: new Date('2026-02-03T04:05:06.789Z') });
      const result = await deliverWebhookOnce(d);
      expect(result).to.deep.equal({ status: 204, deliveryId: 'd-1' });
      const [req] = receiver.received;
      expect(JSON.parse(req!.raw)).to.deep.equal({
        event: 'replica.turn_completed',
        replica_id: d.replicaId,
        timestamp: '2026-02-03T04:05:06.789Z',
        data: { pull_requests: ['https://example.com/pr/1'] },
      });
      expect(req!.headers).to.include({
        'content-type': 'application/json',
        'user-agent': 'Hangar-Webhooks',
        'x-webhook-event': 'replica.turn_completed',
        'x-webhook-delivery': 'd-1',
      });
      expect(signatureValid('s3cret-value', req!.raw, req!.headers['x-signature'])).to.equal(true);
      expect(signatureValid('another-secret', req!.raw, req!.headers['x-signature'])).to.equal(false);
    } finally {
      await receiver.close();
    }
  });

  it('sends no signature without a secret', async () => {
    const receiver = await startReceiver(answer(200));
    try {
      await deliverWebhookOnce(delivery(receiver.url, { secret: null, event: 'replica.ready', payload: undefined }));
      const [req] = receiver.received;
      expect(req!.headers).not.to.have.property('x-signature');
      expect(JSON.parse(req!.raw)).to.include({ event: 'replica.ready', data: null });
    } finally {
      await receiver.close();
    }
  });

  it('classifies 5xx, 408 and 429 as retryable and other 4xx and redirects as final', async () => {
    let status = 500;
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(status, status === 302 ? { location: 'http://127.0.0.1:1/elsewhere' } : status === 503 ? { 'retry-after': '42' } : {});
      res.end('nope');
    });
    try {
      for (const [code, retryable] of [[500, true], [502, true], [503, true], [408, true], [429, true], [400, false], [401, false], [404, false], [410, false], [302, false]] as const) {
        status = code;
        const err = await failure(deliverWebhookOnce(delivery(receiver.url)));
        expect(err.retryable, String(code)).to.equal(retryable);
        expect(err.type).to.equal(retryable ? WEBHOOK_RETRYABLE : WEBHOOK_REJECTED);
        expect(err.status).to.equal(code);
        expect(err.retryAfterMs).to.equal(code === 503 ? 42_000 : null);
      }
      // The redirect was not followed.
      expect(receiver.received).to.have.length(10);
    } finally {
      await receiver.close();
    }
  });

  it('gives up on a receiver that does not answer in time, as a retryable failure', async () => {
    const receiver = await startReceiver(() => {
      // Never answers.
    });
    try {
      expect(WEBHOOK_TIMEOUT_MS).to.equal(10_000);
      // The given 300 ms, not the 10 s default: the message says which deadline ended it.
      const err = await failure(deliverWebhookOnce(delivery(receiver.url), { timeoutMs: 300 }));
      expect(err.retryable).to.equal(true);
      expect(err.message).to.match(/did not answer within 300 ms/);
    } finally {
      await receiver.close();
    }
  });

  it('treats an unreachable receiver as retryable and a bad URL as final', async () => {
    const closed = await startReceiver(answer(200));
    const url = closed.url;
    await closed.close();
    const unreachable = await failure(deliverWebhookOnce(delivery(url)));
    expect(unreachable.retryable).to.equal(true);
    expect(unreachable.message).to.match(/unreachable \(ECONNREFUSED\)/);
    for (const bad of ['not a url', 'ftp://example.com/hook', 'file:///etc/passwd']) {
      const err = await failure(deliverWebhookOnce(delivery(bad)));
      expect(err.retryable, bad).to.equal(false);
    }
  });

  it('never puts the URL, the secret or the body in an error', async () => {
    const receiver = await startReceiver(answer(500));
    try {
      const err = await failure(deliverWebhookOnce(delivery(receiver.url, { payload: { note: 'private-payload' } })));
      const text = `${err.message} ${JSON.stringify(err)} ${err.stack}`;
      for (const secret of ['url-token-123', 's3cret-value', 'private-payload', 'receiver body']) expect(text).not.to.contain(secret);
    } finally {
      await receiver.close();
    }
  });

  it('retries on the schedule with one delivery id until the receiver accepts', async () => {
    const receiver = await startReceiver((_req, res, n) => {
      res.writeHead(n < 3 ? 503 : 200);
      res.end();
    });
    const waits: number[] = [];
    try {
      const result = await deliverWebhook(delivery(receiver.url), { sleep: async (ms) => void waits.push(ms) });
      expect(result).to.deep.equal({ delivered: true, attempts: 3, status: 200, error: null });
      expect(waits).to.deep.equal([1_000, 5_000]);
      const ids = new Set(receiver.received.map((r) => r.headers['x-webhook-delivery']));
      const bodies = new Set(receiver.received.map((r) => r.raw));
      expect(ids.size).to.equal(1);
      // The same signed body every time, so a receiver can deduplicate on it too.
      expect(bodies.size).to.equal(1);
    } finally {
      await receiver.close();
    }
  });

  it('stops at once on a final answer and after six attempts otherwise', async () => {
    let status = 404;
    const receiver = await startReceiver((_req, res) => {
      res.writeHead(status);
      res.end();
    });
    try {
      const waits: number[] = [];
      const rejected = await deliverWebhook(delivery(receiver.url), { sleep: async (ms) => void waits.push(ms) });
      expect(rejected).to.deep.equal({ delivered: false, attempts: 1, status: 404, error: 'webhook receiver answered 404' });
      expect(waits).to.deep.equal([]);

      status = 500;
      const exhausted = await deliverWebhook(delivery(receiver.url), { sleep: async (ms) => void waits.push(ms) });
      expect(exhausted).to.include({ delivered: false, attempts: 6, status: 500 });
      expect(waits).to.deep.equal([1_000, 5_000, 30_000, 120_000, 600_000]);
      expect(receiver.received).to.have.length(7);
    } finally {
      await receiver.close();
    }
  });
});
