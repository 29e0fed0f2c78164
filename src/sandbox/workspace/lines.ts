/**
 * Splits a byte stream into UTF-8 lines (without their `\n` or a trailing `\r`), for agents
 * that speak JSON lines. A line longer than the cap is delivered in pieces rather than held
 * in memory without bound.
 */
import { StringDecoder } from 'node:string_decoder';

export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineChars = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer): void {
    let text = this.pending + this.decoder.write(chunk);
    let from = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
      this.onLine(stripCr(text.slice(from, at)));
      from = at + 1;
    }
    text = text.slice(from);
    while (text.length > this.maxLineChars) {
      this.onLine(text.slice(0, this.maxLineChars));
      text = text.slice(this.maxLineChars);
    }
    this.pending = text;
  }

  /** Delivers a last line that had no newline. */
  end(): void {
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    if (rest) this.onLine(stripCr(rest));
  }
}

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/**
 * Splits a byte stream into lines as LineSplitter does, and says where each one ends in the
 * stream (the byte after its `\n`, counted from `offset`), so that a reader can record how far
 * it has read and later start again exactly there. A line longer than the cap is delivered in
 * pieces, each with its own end.
 */
export class OffsetLineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(
    private offset: number,
    private readonly onLine: (line: string, end: number) => void,
    private readonly maxLineBytes = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer): void {
    let from = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, from)) {
      const line = this.take(chunk.subarray(from, at));
      this.offset += line.length + 1;
      this.onLine(stripCr(line.toString('utf8')), this.offset);
      from = at + 1;
    }
    if (from < chunk.length) {
      this.pending.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
    }
    while (this.pendingBytes > this.maxLineBytes) {
      const all = this.take(Buffer.alloc(0));
      this.offset += this.maxLineBytes;
      this.onLine(all.toString('utf8', 0, this.maxLineBytes), this.offset);
      this.pending = [all.subarray(this.maxLineBytes)];
      this.pendingBytes = all.length - this.maxLineBytes;
    }
  }

  /** Delivers a last line that had no newline. */
  end(): void {
    if (!this.pendingBytes) return;
    const rest = this.take(Buffer.alloc(0));
    this.offset += rest.length;
    this.onLine(stripCr(rest.toString('utf8')), this.offset);
  }

  /** What is pending followed by `tail`, as one buffer; nothing is pending afterwards. */
  private take(tail: Buffer): Buffer {
    if (!this.pendingBytes) return tail;
    const whole = Buffer.concat([...this.pending, tail]);
    this.pending = [];
    this.pendingBytes = 0;
    return whole;
  }
}
