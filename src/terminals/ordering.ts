/**
 * Input ordering for one terminal session (ARCHITECTURE.md, "Terminal input").
 *
 * A client numbers its input batches: `generation` is its own counter (bumped e.g. on
 * reconnect) and `sequence` counts batches from 0 within a generation. HTTP requests may
 * arrive out of order or twice, so the session applies batches strictly in sequence order:
 *
 * - a higher generation than any seen starts afresh (expected sequence 0, held batches of the
 *   older generation dropped); a lower one is refused (409: the client has moved on);
 * - the expected sequence is applied at once, followed by any held batches it unblocks;
 * - a later sequence within the window is held until the gap fills;
 * - a sequence already applied or already held is acknowledged and not applied again;
 * - a sequence at or beyond `next + window`, or one that would push the held input past
 *   `maxHeldChars`, is refused with 409: the request is well-formed (so not a 400) but
 *   conflicts with the session's state, and the same request succeeds once the missing
 *   batches have arrived.
 *
 * A refused batch leaves the state untouched, so a retry after the gap fills is accepted.
 */

export interface InputBatch {
  generation: number;
  sequence: number;
  data: string;
}

export type InputDecision =
  /** Write these, in this order: the batch itself, then the held batches it unblocked. */
  | { kind: 'apply'; writes: string[] }
  | { kind: 'held' }
  | { kind: 'duplicate' }
  | { kind: 'staleGeneration'; generation: number }
  | { kind: 'tooFarAhead'; expected: number; window: number }
  | { kind: 'heldFull'; heldChars: number; maxHeldChars: number };

export interface OrderingLimits {
  window: number;
  maxHeldChars: number;
}

export class InputOrdering {
  private generation = -1;
  private next = 0;
  private readonly held = new Map<number, string>();
  private heldChars = 0;

  constructor(private readonly limits: OrderingLimits) {
    if (!Number.isInteger(limits.window) || limits.window < 1) throw new Error('window must be a positive integer');
  }

  accept(batch: InputBatch): InputDecision {
    if (batch.generation < this.generation) return { kind: 'staleGeneration', generation: this.generation };
    const fresh = batch.generation > this.generation;
    const next = fresh ? 0 : this.next;

    if (!fresh && (batch.sequence < next || this.held.has(batch.sequence))) return { kind: 'duplicate' };
    if (batch.sequence >= next + this.limits.window) return { kind: 'tooFarAhead', expected: next, window: this.limits.window };
    const heldBefore = fresh ? 0 : this.heldChars;
    if (batch.sequence > next && heldBefore + batch.data.length > this.limits.maxHeldChars) {
      return { kind: 'heldFull', heldChars: heldBefore, maxHeldChars: this.limits.maxHeldChars };
    }

    if (fresh) {
      this.generation = batch.generation;
      this.next = 0;
      this.held.clear();
      this.heldChars = 0;
    }
    if (batch.sequence > this.next) {
      this.held.set(batch.sequence, batch.data);
      this.heldChars += batch.data.length;
      return { kind: 'held' };
    }
    const writes = [batch.data];
    this.next += 1;
    for (let data = this.held.get(this.next); data !== undefined; data = this.held.get(this.next)) {
      writes.push(data);
      this.held.delete(this.next);
      this.heldChars -= data.length;
      this.next += 1;
    }
    return { kind: 'apply', writes };
  }

  /** For logs and tests. */
  get state(): { generation: number; next: number; held: number[]; heldChars: number } {
    return { generation: this.generation, next: this.next, held: [...this.held.keys()].sort((a, b) => a - b), heldChars: this.heldChars };
  }
}
