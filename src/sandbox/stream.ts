/**
 * Byte-level parsing of an exec's attach stream: Docker's multiplexed frames (Tty false),
 * then the runner's control lines inside stdout. Both keep state across chunks, because
 * frames and control lines arrive split at arbitrary points.
 */
import { parseControl, type ControlEvent } from './runner';

export type StreamKind = 'stdout' | 'stderr';

const HEADER_BYTES = 8;

/** Splits Docker's `[type, 0, 0, 0, size(4, big endian)] payload` frames, in order. */
export class FrameDemuxer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly onFrame: (kind: StreamKind, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (buf.length >= HEADER_BYTES) {
      const size = buf.readUInt32BE(4);
      if (buf.length < HEADER_BYTES + size) break;
      // 2 is stderr; 0 (stdin) and 1 are treated as stdout.
      const kind: StreamKind = buf[0] === 2 ? 'stderr' : 'stdout';
      const payload = buf.subarray(HEADER_BYTES, HEADER_BYTES + size);
      buf = buf.subarray(HEADER_BYTES + size);
      if (payload.length) this.onFrame(kind, payload);
    }
    this.pending = Buffer.from(buf);
  }
}

/** Longest control line body we accept ("F123456:255"); anything longer is plain output. */
const MAX_BODY = 16;

export type ScanItem = { text: Buffer } | { control: ControlEvent };

/**
 * Pulls control lines (`prefix` + body + `\n`) out of a byte stream and passes the rest
 * through untouched. Only bytes that could still become a control line are held back.
 */
export class ControlScanner {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly prefix: Buffer) {}

  push(chunk: Buffer): ScanItem[] {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const items: ScanItem[] = [];
    const text = (b: Buffer) => {
      if (b.length) items.push({ text: b });
    };
    for (;;) {
      const at = buf.indexOf(this.prefix);
      if (at === -1) {
        const keep = this.partialPrefixAtEnd(buf);
        text(buf.subarray(0, buf.length - keep));
        buf = buf.subarray(buf.length - keep);
        break;
      }
      text(buf.subarray(0, at));
      const bodyStart = at + this.prefix.length;
      const newline = buf.indexOf(0x0a, bodyStart);
      if (newline === -1) {
        if (buf.length - bodyStart <= MAX_BODY) {
          buf = buf.subarray(at);
          break;
        }
        text(buf.subarray(at, bodyStart));
        buf = buf.subarray(bodyStart);
        continue;
      }
      const control = newline - bodyStart <= MAX_BODY ? parseControl(buf.toString('latin1', bodyStart, newline)) : null;
      if (control) {
        items.push({ control });
        buf = buf.subarray(newline + 1);
      } else {
        text(buf.subarray(at, bodyStart));
        buf = buf.subarray(bodyStart);
      }
    }
    this.pending = Buffer.from(buf);
    return items;
  }

  /** Whatever is still held back, as plain output (the stream ended). */
  flush(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }

  private partialPrefixAtEnd(buf: Buffer): number {
    const from = Math.max(0, buf.length - (this.prefix.length - 1));
    for (let at = buf.indexOf(this.prefix[0], from); at !== -1; at = buf.indexOf(this.prefix[0], at + 1)) {
      const tail = buf.subarray(at);
      if (tail.equals(this.prefix.subarray(0, tail.length))) return tail.length;
    }
    return 0;
  }
}
