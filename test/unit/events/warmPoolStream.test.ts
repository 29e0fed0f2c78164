import { expect } from 'chai';
import { createMemoryBus } from '../../../src/events/bus';
import { createWarmWorkspacePublisher, warmWorkspaceChannel, type WarmWorkspaceMessage } from '../../../src/events/warmPoolStream';

describe('warm workspace stream publisher', () => {
  it('batches output, splits it to fit the bus, and sends a status after the output it ends', async () => {
    const bus = createMemoryBus();
    const id = '7d0c8a52-5a3e-4f43-9d1e-3c1f2b9a0e11';
    const seen: WarmWorkspaceMessage[] = [];
    await bus.subscribe(warmWorkspaceChannel(id), (raw) => seen.push(JSON.parse(raw)));
    const publisher = createWarmWorkspacePublisher(bus, id, (err) => {
      throw err;
    });
    publisher.output('line 1\n');
    publisher.output('line 2\n');
    publisher.output('x'.repeat(2500));
    await publisher.status('ready');
    const outputs = seen.filter((m): m is { t: 'output'; d: string } => m.t === 'output');
    expect(outputs.map((m) => m.d).join('')).to.equal(`line 1\nline 2\n${'x'.repeat(2500)}`);
    expect(outputs.every((m) => m.d.length <= 1000)).to.equal(true);
    expect(seen[seen.length - 1]).to.deep.equal({ t: 'status', status: 'ready' });
    expect(warmWorkspaceChannel(id)).to.match(/^[a-z_][a-z0-9_]{0,62}$/);
  });

  it('publishes every pending line before the row turns final, and announces the status after it', async () => {
    const bus = createMemoryBus();
    const id = '0b7e6a1c-2f0d-4c51-8a93-55c1d0e7f4a2';
    const seen: WarmWorkspaceMessage[] = [];
    await bus.subscribe(warmWorkspaceChannel(id), (raw) => seen.push(JSON.parse(raw)));
    // A bus that takes its time, as one under load does: output written just before the end
    // is still being published when the build is done.
    const slowBus = { ...bus, publish: async (channel: string, payload: string) => {
      await new Promise((resolve) => setImmediate(resolve));
      await bus.publish(channel, payload);
    } };
    const publisher = createWarmWorkspacePublisher(slowBus, id, (err) => {
      throw err;
    });
    publisher.output('first line\n');
    publisher.output('last line\n');
    let publishedAtWrite = '';
    const result = await publisher.finish('ready', async () => {
      publishedAtWrite = seen.map((m) => (m.t === 'output' ? m.d : `[${m.status}]`)).join('');
      return true;
    });
    expect(result).to.equal(true);
    expect(publishedAtWrite, 'what followers had been sent when the row turned ready').to.equal('first line\nlast line\n');
    expect(seen[seen.length - 1]).to.deep.equal({ t: 'status', status: 'ready' });

    // A write that changed nothing (the entry was drained meanwhile) announces nothing.
    const before = seen.length;
    expect(await publisher.finish('ready', async () => false)).to.equal(false);
    expect(seen).to.have.length(before);
  });
});
