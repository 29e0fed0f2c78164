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
