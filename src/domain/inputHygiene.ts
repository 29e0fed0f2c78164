/**
 * Input hygiene in one place: what every JSON body, query and path parameter goes through
 * before anything reads it, so bad input is a 400 naming the field and never a database error.
 *
 * - JSON is parsed only after a scan bounds its nesting (a 10,000-deep body would overflow the
 *   stack when it is stored or serialised again).
 * - No string (value or key) may hold NUL, which PostgreSQL cannot store in text or jsonb, or a
 *   lone UTF-16 surrogate, which jsonb refuses.
 * - `uuid` is the canonical 36-character form only (ajv's format also takes `urn:uuid:…`).
 *
 * `src/http/validate.ts` applies these to every body, query and path parameter; receivers that
 * read their own bodies (webhooks) parse with `parseJsonText`.
 */
import { invalid } from './errors';

/** Deeper than any document Hangar or the providers it hears from send. */
export const MAX_JSON_DEPTH = 64;

export const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null. */
export function unsafeText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}

/** How deep the JSON text nests (brackets outside strings), scanned without building anything. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

const pathOf = (at: string, key: string | number) => `${at}.${key}`;

/** The error's message names where the input was, as the validators do. */
const LOCATIONS: Record<string, string> = { body: 'Invalid body', query: 'Invalid query', params: 'Invalid path parameter' };
const refusal = (at: string) => LOCATIONS[at.split('.')[0]!] ?? 'Invalid body';

/** Throws a 400 naming the first string (value or key) that cannot be stored. */
export function checkStrings(value: unknown, at: string): void {
  if (typeof value === 'string') {
    const why = unsafeText(value);
    if (why) throw invalid(refusal(at), `${at}: ${why}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkStrings(item, pathOf(at, i)));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const why = unsafeText(key);
      if (why) throw invalid(refusal(at), `${at}: a field name ${why}`);
      checkStrings(item, pathOf(at, key));
    }
  }
}

/**
 * Throws a 400 naming the first number that is not finite: coercing a query or path parameter
 * turns `1e400` into Infinity, which ajv then takes for an integer and no query can mean.
 */
export function checkFinite(value: unknown, at: string): void {
  if (typeof value === 'number' && !Number.isFinite(value)) throw invalid(refusal(at), `${at}: must be a finite number`);
  if (Array.isArray(value)) value.forEach((item, i) => checkFinite(item, pathOf(at, i)));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) checkFinite(item, pathOf(at, key));
}

/**
 * Parses JSON text that will be stored or echoed: bounded depth, then parsed, then every
 * string checked. `at` names the location in errors (`body`, `payload`).
 */
export function parseJsonText(text: string, at = 'body'): unknown {
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw invalid('Invalid body', `${at}: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('Malformed JSON body');
  }
  checkStrings(parsed, at);
  return parsed;
}
