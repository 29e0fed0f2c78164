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
});
