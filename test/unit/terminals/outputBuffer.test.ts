import { expect } from 'chai';
import { OutputBuffer } from '../../../src/terminals/outputBuffer';

describe('terminal output buffer', () => {
  it('replays everything while under capacity, with offsets', () => {
    const buffer = new OutputBuffer(100);
    buffer.append('hello ');
    buffer.append('world');
    expect(buffer.snapshot()).to.deep.equal({ data: 'hello world', start: 0, end: 11 });
    expect(buffer.snapshot(6)).to.deep.equal({ data: 'world', start: 6, end: 11 });
  });

  it('keeps only the most recent output, counting offsets from the very start', () => {
    const buffer = new OutputBuffer(5);
    buffer.append('abc');
    buffer.append('defg');
    buffer.append('hi');
    expect(buffer.snapshot()).to.deep.equal({ data: 'efghi', start: 4, end: 9 });
    // An offset older than what is held gets what is held; one at the end gets nothing.
    expect(buffer.snapshot(1).data).to.equal('efghi');
    expect(buffer.snapshot(9)).to.deep.equal({ data: '', start: 9, end: 9 });
    expect(buffer.snapshot(50).data).to.equal('');
  });

  it('never starts a replay with half of a surrogate pair', () => {
    const buffer = new OutputBuffer(2);
    buffer.append('ab😀');
    buffer.append('c');
    // Keeping two units would start inside the emoji: the whole emoji goes.
    const snap = buffer.snapshot();
    expect(snap.data).to.equal('c');
    const roomy = new OutputBuffer(3);
    roomy.append('ab😀c');
    expect(roomy.snapshot().data).to.equal('😀c');
    expect(snap.end - snap.start).to.equal(snap.data.length);
  });
});
