/**
 * The `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): a
 * structured-field string, `"8e03978e-40d5-43e8-bc93-6894a57f9324"`. The bare form most
 * clients send (`Idempotency-Key: 8e03978e-…`, as Stripe's and others' APIs take it) is
 * accepted too. Keys are 1 to 255 printable ASCII characters.
 */
import { invalid } from './errors';

export const IDEMPOTENCY_KEY_MAX = 255;

/** The key, or null when the header is absent; a 400 naming the rule when it is malformed. */
export function parseIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined || header === '') return null;
  const trimmed = header.trim();
  let key = trimmed;
  if (trimmed.startsWith('"')) {
    // A structured-field string: quoted, with `\"` and `\\` the only escapes.
    const match = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(trimmed);
    if (!match) throw invalid('Invalid Idempotency-Key', 'headers.idempotency-key: must be a quoted string of printable ASCII characters');
    key = match[1]!.replace(/\\(["\\])/g, '$1');
  } else if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw invalid('Invalid Idempotency-Key', 'headers.idempotency-key: must be printable ASCII characters without spaces, or a quoted string');
  }
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw invalid('Invalid Idempotency-Key', `headers.idempotency-key: must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return key;
}
