import { expect } from 'chai';
import { MAX_MESSAGE_BYTES, createMemoryBus } from '../../../src/events/bus';
import { createReassembler, outputChannel, ownerChannel, publishMessage, replyChannel, splitOutput } from '../../../src/terminals/protocol';

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

describe('terminal bus protocol', () => {
  it('names valid bus channels for any owner, distinct for distinct owners', () => {
    const owners = ['worker-1', 'Worker.1', 'a'.repeat(200), 'ünïcode host', 'w1'];
    const channels = owners.map(ownerChannel);
    for (const c of channels) expect(c).to.match(CHANNEL);
    expect(new Set(channels).size).to.equal(owners.length);
    expect(outputChannel('6f1c2b0a-1111-4222-8333-944455556666')).to.equal('terminal_out_6f1c2b0a111142228333944455556666');
    expect(replyChannel('6f1c2b0a-1111-4222-8333-944455556666')).to.match(CHANNEL);
  });

  it('sends a message bigger than the bus allows as parts, and puts it back together', async () => {
    const bus = createMemoryBus();
    const received: string[] = [];
    await bus.subscribe('t', (m) => received.push(m));
    const data = '\u001b[1m'.repeat(20_000) + 'ünï😀'.repeat(5_000);
    await publishMessage(bus, 't', { k: 'input', data });
    expect(received.length).to.be.greaterThan(1);
    for (const m of received) expect(Buffer.byteLength(m)).to.be.at.most(MAX_MESSAGE_BYTES);
    const reassembler = createReassembler();
    const results = received.map((m) => reassembler.accept(m));
    expect(results.slice(0, -1).every((r) => r === null)).to.equal(true);
    expect(results.at(-1)).to.deep.equal({ k: 'input', data });
    expect(reassembler.pending).to.equal(0);
  });

  it('sends a small message as is', async () => {
    const bus = createMemoryBus();
    const received: string[] = [];
    await bus.subscribe('t', (m) => received.push(m));
    await publishMessage(bus, 't', { k: 'ping', sessionIds: [] });
    expect(received).to.deep.equal(['{"k":"ping","sessionIds":[]}']);
  });

  it('reassembles interleaved parted messages and drops incomplete ones after a while', async () => {
    const bus = createMemoryBus();
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe('a', (m) => a.push(m));
    await bus.subscribe('b', (m) => b.push(m));
    await publishMessage(bus, 'a', { v: 'x'.repeat(20_000) });
    await publishMessage(bus, 'b', { v: 'y'.repeat(20_000) });
    let now = 0;
    const reassembler = createReassembler({ staleMs: 1000, now: () => now });
    const out: unknown[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (a[i]) out.push(reassembler.accept(a[i]!));
      if (b[i] && i < b.length - 1) out.push(reassembler.accept(b[i]!));
    }
    expect(out.filter(Boolean)).to.deep.equal([{ v: 'x'.repeat(20_000) }]);
    expect(reassembler.pending).to.equal(1);
    now = 5000;
    reassembler.accept(a[0]!);
    expect(reassembler.pending).to.equal(1, 'the stale partial message is gone, the new one waits');
    expect(reassembler.accept('not json')).to.equal(null);
  });

  it('splits output into bus-sized pieces without cutting a surrogate pair', () => {
    const text = 'a'.repeat(999) + '😀' + 'b'.repeat(10);
    const pieces = splitOutput(text);
    expect(pieces.join('')).to.equal(text);
    expect(pieces[0]).to.equal('a'.repeat(999));
    expect(pieces[1]!.startsWith('😀')).to.equal(true);
    const worst = '\u0001'.repeat(5_000);
    for (const piece of splitOutput(worst)) expect(Buffer.byteLength(JSON.stringify({ k: 'out', o: 1e12, d: piece }))).to.be.at.most(MAX_MESSAGE_BYTES);
  });
});
