import { expect } from 'chai';
import { InputOrdering, type InputDecision } from '../../../src/terminals/ordering';

const limits = { window: 4, maxHeldChars: 100 };

/** Feeds batches and returns what the terminal would have received, in order. */
function run(ordering: InputOrdering, batches: Array<[generation: number, sequence: number, data: string]>) {
  const written: string[] = [];
  const decisions: InputDecision['kind'][] = [];
  for (const [generation, sequence, data] of batches) {
    const decision = ordering.accept({ generation, sequence, data });
    decisions.push(decision.kind);
    if (decision.kind === 'apply') written.push(...decision.writes);
  }
  return { written, decisions };
}

describe('terminal input ordering', () => {
  it('applies batches that arrive in order at once', () => {
    const { written, decisions } = run(new InputOrdering(limits), [
      [0, 0, 'a'],
      [0, 1, 'b'],
      [0, 2, 'c'],
    ]);
    expect(written).to.deep.equal(['a', 'b', 'c']);
    expect(decisions).to.deep.equal(['apply', 'apply', 'apply']);
  });

  it('holds an early batch until the gap before it fills, then applies both in order', () => {
    const ordering = new InputOrdering(limits);
    expect(ordering.accept({ generation: 0, sequence: 1, data: 'second' })).to.deep.equal({ kind: 'held' });
    expect(ordering.state).to.include({ next: 0 });
    expect(ordering.accept({ generation: 0, sequence: 0, data: 'first' })).to.deep.equal({ kind: 'apply', writes: ['first', 'second'] });
    expect(ordering.state).to.deep.equal({ generation: 0, next: 2, held: [], heldChars: 0 });
  });

  it('applies a reversed burst in sequence order, draining only the consecutive run', () => {
    const { written, decisions } = run(new InputOrdering(limits), [
      [0, 3, 'd'],
      [0, 1, 'b'],
      [0, 0, 'a'],
      [0, 2, 'c'],
    ]);
    expect(decisions).to.deep.equal(['held', 'held', 'apply', 'apply']);
    expect(written).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('acknowledges a repeated sequence without applying it again, applied or held', () => {
    const ordering = new InputOrdering(limits);
    const { written, decisions } = run(ordering, [
      [0, 0, 'a'],
      [0, 0, 'a'],
      [0, 2, 'c'],
      [0, 2, 'c-again'],
      [0, 1, 'b'],
      [0, 1, 'b'],
      [0, 2, 'c'],
    ]);
    expect(decisions).to.deep.equal(['apply', 'duplicate', 'held', 'duplicate', 'apply', 'duplicate', 'duplicate']);
    expect(written).to.deep.equal(['a', 'b', 'c']);
  });

  it('starts afresh on a higher generation, dropping what the older one held', () => {
    const ordering = new InputOrdering(limits);
    const { written, decisions } = run(ordering, [
      [0, 0, 'a'],
      [0, 2, 'stale-held'],
      [3, 0, 'x'],
      [3, 1, 'y'],
      [0, 1, 'late'],
    ]);
    expect(decisions).to.deep.equal(['apply', 'held', 'apply', 'apply', 'staleGeneration']);
    expect(written).to.deep.equal(['a', 'x', 'y']);
    expect(ordering.state).to.deep.equal({ generation: 3, next: 2, held: [], heldChars: 0 });
  });

  it('refuses an older generation, even a repeat of a batch it applied', () => {
    const ordering = new InputOrdering(limits);
    run(ordering, [
      [1, 0, 'a'],
      [2, 0, 'b'],
    ]);
    expect(ordering.accept({ generation: 1, sequence: 0, data: 'a' })).to.deep.equal({ kind: 'staleGeneration', generation: 2 });
  });

  it('accepts any generation first, and a new generation may itself begin out of order', () => {
    const { written, decisions } = run(new InputOrdering(limits), [
      [7, 1, 'b'],
      [7, 0, 'a'],
    ]);
    expect(decisions).to.deep.equal(['held', 'apply']);
    expect(written).to.deep.equal(['a', 'b']);
  });

  it('refuses a sequence at or beyond the window, without changing the state', () => {
    const ordering = new InputOrdering(limits);
    expect(ordering.accept({ generation: 0, sequence: 3, data: 'd' }).kind).to.equal('held');
    expect(ordering.accept({ generation: 0, sequence: 4, data: 'e' })).to.deep.equal({ kind: 'tooFarAhead', expected: 0, window: 4 });
    expect(ordering.state.held).to.deep.equal([3]);
    // Once the window moves on, the same request is accepted.
    const { written } = run(ordering, [
      [0, 0, 'a'],
      [0, 4, 'e'],
      [0, 1, 'b'],
      [0, 2, 'c'],
    ]);
    expect(written).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
  });

  it('refuses a too-far sequence in a new generation without resetting the current one', () => {
    const ordering = new InputOrdering(limits);
    run(ordering, [[0, 0, 'a']]);
    expect(ordering.accept({ generation: 1, sequence: 9, data: 'z' }).kind).to.equal('tooFarAhead');
    expect(ordering.state).to.include({ generation: 0, next: 1 });
    expect(ordering.accept({ generation: 0, sequence: 1, data: 'b' })).to.deep.equal({ kind: 'apply', writes: ['b'] });
  });

  it('bounds the characters held while a sequence is missing, but never the one that fills the gap', () => {
    const ordering = new InputOrdering({ window: 64, maxHeldChars: 10 });
    expect(ordering.accept({ generation: 0, sequence: 1, data: '123456' }).kind).to.equal('held');
    expect(ordering.accept({ generation: 0, sequence: 2, data: '12345' })).to.deep.equal({ kind: 'heldFull', heldChars: 6, maxHeldChars: 10 });
    expect(ordering.accept({ generation: 0, sequence: 0, data: 'x'.repeat(50) }).kind).to.equal('apply');
    expect(ordering.state.heldChars).to.equal(0);
    expect(ordering.accept({ generation: 0, sequence: 3, data: '12345' }).kind).to.equal('held');
  });

  it('treats empty batches as batches (they use up a sequence number)', () => {
    const { written, decisions } = run(new InputOrdering(limits), [
      [0, 1, 'b'],
      [0, 0, ''],
    ]);
    expect(decisions).to.deep.equal(['held', 'apply']);
    expect(written).to.deep.equal(['', 'b']);
  });
});
