/**
 * The `model` of a JSON request body, read from the bytes as they stream upstream: a small
 * scanner follows the JSON structure (strings, escapes, nesting) and reads the top-level keys,
 * without parsing or holding the body.
 *
 * Two uses. For usage rows it looks at the first 1 MiB at most and stops at the first `model`.
 * For an organization that restricts an agent's models it reads the whole body and also counts
 * what a provider's parser would see instead: a second top-level `model` (most JSON parsers keep
 * the last one), an OpenRouter-style `models` fallback list, keys spelt with escapes
 * (`"mod\u0065l"`). A body that is not a JSON object has no model.
 */
import { Transform } from 'node:stream';

export const MODEL_SCAN_LIMIT_BYTES = 1024 * 1024;
/** Keys and the model id are short; a longer top-level string is skipped, not kept. */
const MAX_CAPTURE_BYTES = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

export interface RequestScan {
  feed(chunk: Uint8Array): void;
  /** The first top-level `model` that is a string; null when none (yet). */
  readonly model: string | null;
  /** Top-level `model` keys seen; more than one means parsers disagree on which counts. */
  readonly modelKeys: number;
  /** A top-level `model` whose value is not a (short) string. */
  readonly modelNotString: boolean;
  /** A top-level `models` key (a list of fallback models, on OpenRouter). */
  readonly fallbackModels: boolean;
  /** `object`: still inside the top-level object; `closed`: it ended; `not_object`: the body is something else. */
  readonly shape: 'unknown' | 'object' | 'closed' | 'not_object';
  /** Bytes looked at. */
  readonly seen: number;
  /** How many bytes into the body the top-level model's value ended; null before. */
  readonly modelEnd: number | null;
}

/**
 * `stopAtModel`: stop at the first model (usage rows). Without it the scanner reads every byte
 * it is fed, so that nothing after the first model goes unseen.
 */
export function createRequestScanner(options: { limit?: number; stopAtModel?: boolean } = {}): RequestScan {
  const limit = options.limit ?? Infinity;
  const stopAtModel = options.stopAtModel ?? false;
  let seen = 0;
  let done = false;
  let shape: RequestScan['shape'] = 'unknown';
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** At depth 1: what the next string is (a key after `{` or `,`, a value after `:`). */
  let expect: 'key' | 'value' | 'none' = 'none';
  let role: 'key' | 'value' | null = null;
  let capture: number[] | null = null;
  let lastKey: string | null = null;
  let model: string | null = null;
  let modelKeys = 0;
  let modelNotString = false;
  let fallbackModels = false;
  let modelEnd: number | null = null;

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
    if (role === 'key') {
      lastKey = text;
      if (text === 'model') modelKeys += 1;
      if (text === 'models') fallbackModels = true;
    } else if (role === 'value' && lastKey === 'model') {
      if (text === null) modelNotString = true;
      else if (model === null && modelKeys === 1) {
        model = text;
        modelEnd = seen;
      }
      if (stopAtModel) done = true;
    }
    capture = null;
    role = null;
    expect = 'none';
  };

  /** A value at depth 1 that is not a string: for `model`, a model that is not a name. */
  const nonStringValue = () => {
    if (expect === 'value' && lastKey === 'model') modelNotString = true;
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
    if (shape === 'unknown') {
      if (b !== 0x7b) {
        shape = 'not_object';
        done = true;
      } else {
        shape = 'object';
        depth = 1;
        expect = 'key';
      }
      return;
    }
    if (shape === 'closed') return;
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
        if (depth === 1) nonStringValue();
        depth += 1;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        if (depth <= 0) {
          shape = 'closed';
          done = true;
        }
        return;
      case 0x2c: // ,
        if (depth === 1) expect = 'key';
        return;
      case 0x3a: // :
        if (depth === 1) expect = 'value';
        return;
      default:
        // A number, true, false or null at depth 1 is a value that is not a string.
        if (depth === 1 && expect === 'value') nonStringValue();
    }
  };

  return {
    feed(chunk) {
      // The next quote and backslash in this chunk at or after the position looked at (-1: none
      // left, -2: not looked for yet), so that each byte is searched once however many escapes.
      let nextQuote = -2;
      let nextBackslash = -2;
      for (let i = 0; i < chunk.length && !done; i++) {
        if (inString && !escaped && capture === null) {
          // Inside a string nobody keeps (message text, mostly): jump to its end or next escape.
          if (nextQuote !== -1 && nextQuote < i) nextQuote = chunk.indexOf(QUOTE, i);
          if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = chunk.indexOf(BACKSLASH, i);
          const stop = nextQuote === -1 ? nextBackslash : nextBackslash === -1 ? nextQuote : Math.min(nextQuote, nextBackslash);
          const skip = (stop === -1 ? chunk.length : stop) - i;
          if (seen + skip >= limit) {
            seen = limit;
            done = true;
            break;
          }
          seen += skip;
          i += skip;
          if (i >= chunk.length) break;
        }
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
    get modelKeys() {
      return modelKeys;
    },
    get modelNotString() {
      return modelNotString;
    },
    get fallbackModels() {
      return fallbackModels;
    },
    get shape() {
      return shape;
    },
    get seen() {
      return seen;
    },
    get modelEnd() {
      return modelEnd;
    },
  };
}

/** A pass-through stream that scans what passes (when `json`) and hands every chunk on unchanged. */
export function modelSniffer(json: boolean): { stream: Transform; model(): string | null } {
  const scanner = json ? createRequestScanner({ limit: MODEL_SCAN_LIMIT_BYTES, stopAtModel: true }) : null;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      scanner?.feed(chunk);
      callback(null, chunk);
    },
  });
  return { stream, model: () => scanner?.model ?? null };
}
