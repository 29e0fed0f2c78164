/**
 * Collects a run's output as one string in arrival order, capped in bytes. Past the cap a
 * marker line says so and everything else is dropped (the run itself goes on).
 */
import { StringDecoder } from 'node:string_decoder';
import type { StreamKind } from './stream';

export const DEFAULT_OUTPUT_LIMIT_BYTES = 1024 * 1024;

export function truncationMarker(limitBytes: number): string {
  return `[hangar] output truncated: the ${limitBytes}-byte limit was reached, later output was discarded`;
}

/** The longest prefix of `text` that fits in `maxBytes` of UTF-8 without splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.toString('utf8', 0, end);
}

export class OutputCollector {
  private readonly parts: string[] = [];
  private readonly decoders: Record<StreamKind, StringDecoder> = {
    stdout: new StringDecoder('utf8'),
    stderr: new StringDecoder('utf8'),
  };
  private bytes = 0;
  private atLineStart = true;
  truncated = false;

  constructor(
    private readonly limitBytes: number,
    private readonly onOutput: (chunk: string) => void = () => {},
  ) {}

  /** Raw bytes from one stream; multi-byte characters split across chunks stay whole. */
  write(kind: StreamKind, bytes: Buffer): void {
    this.append(this.decoders[kind].write(bytes));
  }

  /** A line of its own (a step header), counted against the cap like any output. */
  line(text: string): void {
    this.append(`${this.atLineStart ? '' : '\n'}${text}\n`);
  }

  /** A line that is shown even past the cap (how the run ended); it is short by construction. */
  notice(text: string): void {
    this.emit(`${this.atLineStart ? '' : '\n'}${text}\n`);
  }

  /** Flushes half-received characters and returns the whole output. */
  finish(): string {
    for (const decoder of Object.values(this.decoders)) this.append(decoder.end());
    return this.parts.join('');
  }

  private append(text: string): void {
    if (!text || this.truncated) return;
    const size = Buffer.byteLength(text, 'utf8');
    if (this.bytes + size <= this.limitBytes) {
      this.bytes += size;
      this.emit(text);
      return;
    }
    const kept = utf8Prefix(text, this.limitBytes - this.bytes);
    this.bytes = this.limitBytes;
    this.truncated = true;
    if (kept) this.emit(kept);
    this.emit(`${this.atLineStart ? '' : '\n'}${truncationMarker(this.limitBytes)}\n`);
  }

  private emit(text: string): void {
    this.parts.push(text);
    this.atLineStart = text.endsWith('\n');
    this.onOutput(text);
  }
}
