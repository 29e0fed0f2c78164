import { expect } from 'chai';
import type { EventBus } from '../../../src/events/bus';
import { createOutputBatcher, skippedNotice } from '../../../src/events/outputBatcher';

type Message = { t: 'output'; d: string } | { t: 'end' };

/** A bus whose publishes wait until the test lets them through, as a bus that fell behind. */
function stalledBus() {
  const published: Message[] = [];
  let gate: () => void = () => {};
  let open = new Promise<void>((resolve) => (gate = resolve));
  const bus: EventBus = {
    async publish(_channel, message) {
      await open;
      published.push(JSON.parse(message) as Message);
    },
    subscribe: async () => async () => {},
    close: async () => {},
  };
  return {
    bus,
    published,
    release() {
      gate();
      open = Promise.resolve();
    },
  };
}

describe('output batcher', () => {
  it('skips output past its backlog while the bus is behind, then says how much it skipped', async () => {
    const { bus, published, release } = stalledBus();
    const batcher = createOutputBatcher<Message>(bus, 'test_channel', (d) => ({ t: 'output', d }), (err) => {
      throw err;
    }, 8000);
    const chunk = 'x'.repeat(1000);
    for (let i = 0; i < 50; i++) batcher.output(chunk);
    // Nothing was published, and no more than the cap waits for the bus.
    expect(published).to.have.length(0);
    expect(batcher.backlog).to.equal(8000);

    release();
    await batcher.settled();
    expect(batcher.backlog).to.equal(0);
    batcher.output('after\n');
    batcher.send({ t: 'end' });
    await batcher.settled();
    const text = published.flatMap((m) => (m.t === 'output' ? [m.d] : [])).join('');
    expect(text).to.equal(`${chunk.repeat(8)}${skippedNotice(42_000)}after\n`);
    expect(published.at(-1)).to.deep.equal({ t: 'end' });
  });

  it('reports skipped output before the next message even when no output follows', async () => {
    const { bus, published, release } = stalledBus();
    const batcher = createOutputBatcher<Message>(bus, 'test_channel', (d) => ({ t: 'output', d }), (err) => {
      throw err;
    }, 1000);
    batcher.output('a'.repeat(1000));
    batcher.output('b'.repeat(500));
    batcher.send({ t: 'end' });
    release();
    await batcher.settled();
    expect(published.map((m) => (m.t === 'output' ? m.d : m.t)).join('')).to.equal(`${'a'.repeat(1000)}${skippedNotice(500)}end`);
  });
});
