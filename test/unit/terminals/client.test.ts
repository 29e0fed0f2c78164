import { expect } from 'chai';
import { createMemoryBus } from '../../../src/events/bus';
import { isDomainError } from '../../../src/domain/errors';
import { createTerminalClient } from '../../../src/terminals';
import { OPEN_CHANNEL, publishMessage, replyChannel } from '../../../src/terminals/protocol';

const SESSION = '6f1c2b0a-1111-4222-8333-944455556666';
const REPLICA = '7a2d3c1b-2222-4333-8444-a55566667777';

describe('terminal client deadlines', () => {
  it('waits longer for an open (a shell started in the container) than for the other requests', async () => {
    const bus = createMemoryBus();
    // A worker whose shell starts after 150 ms: past the request deadline, within the open's.
    await bus.subscribe(OPEN_CHANNEL, (raw) => {
      const req = JSON.parse(raw) as { id: string; replyTo: string };
      setTimeout(() => {
        void publishMessage(bus, replyChannel(req.replyTo), { k: 'reply', id: req.id, ok: true, result: { id: SESSION, title: 'bash', createdAt: new Date(0).toISOString() } });
      }, 150);
    });
    const client = createTerminalClient({ bus, timeoutMs: 50, openTimeoutMs: 10_000 });
    try {
      const opened = await client.open({ sessionId: SESSION, replicaId: REPLICA, cols: 80, rows: 24 });
      expect(opened.id).to.equal(SESSION);
      // Nothing answers on this owner's channel: it gives up at the request deadline, long before
      // the open's (however busy the machine).
      const started = Date.now();
      const err = await client.resize('nobody', SESSION, 80, 24).then(() => null, (e: unknown) => e);
      expect(isDomainError(err, 'unavailable'), String(err)).to.equal(true);
      expect(Date.now() - started).to.be.below(10_000);
    } finally {
      await client.shutdown();
    }
  });

  it('gives an open at least 15 s by default, however short the other deadlines', async () => {
    const bus = createMemoryBus();
    const client = createTerminalClient({ bus, timeoutMs: 20 });
    try {
      const outcome = await Promise.race([
        client.open({ sessionId: SESSION, replicaId: REPLICA, cols: 80, rows: 24 }).then(() => 'answered', () => 'gave up'),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 300)),
      ]);
      expect(outcome).to.equal('still waiting');
    } finally {
      await client.shutdown();
    }
  });
});
