/**
 * The `model` of a JSON request body, read from the bytes as they stream upstream: a small
 * scanner follows the JSON structure (strings, escapes, nesting) and picks the top-level
 * `model` string, without parsing or holding the body. It looks at the first 1 MiB at most
 * and stops at the first answer; a body that is not a JSON object yields null.
 */
import { Transform } from 'node:stream';

export const MODEL_SCAN_LIMIT_BYTES = 1024 * 1024;
/** Keys and the model id are short; a longer top-level string is skipped, not kept. */
const MAX_CAPTURE_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

export interface ModelScanner {
  feed(chunk: Uint8Array): void;
  readonly model: string | null;
}

export function createModelScanner(limit = MODEL_SCAN_LIMIT_BYTES): ModelScanner {
  let seen = 0;
  let done = false;
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** At depth 1: what the next string is (a key after `{` or `,`, a value after `:`). */
  let expect: 'key' | 'value' | 'none' = 'none';
  let role: 'key' | 'value' | null = null;
  let capture: number[] | null = null;
  let lastKey: string | null = null;
  let model: string | null = null;

  const decode = (bytes: number[]): string | null => {
    try {
      const text = JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as unknown;
      return typeof text === 'string' ? text : null;
    } catch {
      return null;
    }
  };

  const endString = () => {
    const text = capture && capture.length <= MAX_CAPTURE_BYTES ? decode(capture) : null;
    if (role === 'key') lastKey = text;
    else if (role === 'value' && lastKey === 'model') {
      model = text;
      done = true;
    }
    capture = null;
    role = null;
    expect = 'none';
  };

  const step = (b: number) => {
    if (inString) {
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) {
        inString = false;
        if (role) endString();
        return;
      }
      if (capture && capture.length <= MAX_CAPTURE_BYTES) capture.push(b);
      return;
    }
    if (isSpace(b)) return;
    if (!started) {
      started = true;
      if (b !== 0x7b) done = true;
      else {
        depth = 1;
        expect = 'key';
      }
      return;
    }
    switch (b) {
      case QUOTE:
        inString = true;
        if (depth === 1 && expect !== 'none') {
          role = expect;
          capture = [];
        }
        return;
      case 0x7b: // {
      case 0x5b: // [
        depth += 1;
        if (depth === 2) expect = 'none';
        return;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        if (depth <= 0) done = true;
        return;
      case 0x2c: // ,
        if (depth === 1) expect = 'key';
        return;
      case 0x3a: // :
        if (depth === 1) expect = 'value';
        return;
      default:
        // A number, true, false or null at depth 1 is a value that is not a string.
        if (depth === 1) expect = 'none';
    }
  };

  return {
    feed(chunk) {
      for (let i = 0; i < chunk.length && !done; i++) {
        if (seen >= limit) {
          done = true;
          break;
        }
        seen += 1;
        step(chunk[i]!);
      }
    },
    get model() {
      return model;
    },
  };
}

/** A pass-through stream that scans what passes (when `json`) and hands every chunk on unchanged. */
export function modelSniffer(json: boolean): { stream: Transform; model(): string | null } {
  const scanner = json ? createModelScanner() : null;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      scanner?.feed(chunk);
      callback(null, chunk);
    },
  });
  return { stream, model: () => scanner?.model ?? null };
}
