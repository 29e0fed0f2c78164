import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

interface Received {
  event: string;
  signature: string | undefined;
  valid: boolean;
  body: { event: string; replica_id: string; data: unknown };
}

describe('replicas: outbound webhooks', function () {
  this.timeout(120_000);
  let server: Server;
  let url: string;
  const received: Received[] = [];
  const secret = 'whsec-test-only';
  let failFirst = true;

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const signature = req.headers['x-signature'] as string | undefined;
        const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
        const body = JSON.parse(raw);
        // The receiver fails the first delivery once: it must be retried, not lost.
        if (failFirst) {
          failFirst = false;
          res.writeHead(503).end();
          return;
        }
        received.push({ event: body.event, signature, valid: signature === expected, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  after(() => server.close());

  it('signs replica.ready, replica.turn_completed and replica.deleted, retrying a failed delivery', async () => {
    const org = await newOrg();
    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: { 'X-Api-Version': '2026-05-17' },
      body: { name: 'hooked', message: 'hello', webhook_url: { url, secret } },
    });
    expect(created.status).to.equal(201);
    const id = created.body.replica.id;
    await until('ready and turn_completed', async () => ['replica.ready', 'replica.turn_completed'].every((e) => received.some((r) => r.event === e)), 60_000);
    await as(org.org_api_key).delete(`/v1/replica/${id}`);
    await until('replica.deleted', async () => received.some((r) => r.event === 'replica.deleted'), 60_000);
    for (const r of received) {
      expect(r.valid, `${r.event} signature ${r.signature}`).to.equal(true);
      expect(r.body.replica_id).to.equal(id);
    }
    const turn = received.find((r) => r.event === 'replica.turn_completed')!;
    expect(turn.body.data).to.include({ isComplete: true });
  });
});
