/**
 * Pure rules for coding-agent secrets: what a stored secret may look like, and how much of
 * it a GET may show. Kept apart from the service so they are tested without a database.
 */
export const SECRET_MAX_BYTES = 8192;
export const MASK = '••••';

/** Secrets shorter than this show no tail at all: four characters would be too much of them. */
const MIN_LENGTH_FOR_TAIL = 12;
const TAIL_LENGTH = 4;

/** Why a secret (or refresh token) cannot be stored, or null. Never echoes the value. */
export function secretProblem(value: string): string | null {
  if (value.trim() === '') return 'must not be empty or blank';
  if (Buffer.byteLength(value, 'utf8') > SECRET_MAX_BYTES) return `must be at most ${SECRET_MAX_BYTES} bytes`;
  // Secrets end up in a container's environment and in HTTP headers; a control character there
  // is always a paste mistake and can split a header.
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'must not contain control characters (newlines, tabs)';
  return null;
}

/** The part of a secret kept in clear for display: its last four characters, or nothing. */
export function secretTail(secret: string): string {
  const chars = Array.from(secret);
  return chars.length >= MIN_LENGTH_FOR_TAIL ? chars.slice(-TAIL_LENGTH).join('') : '';
}

export function maskedSecret(tail: string): string {
  return MASK + tail;
}

/** The key id a `secretBox` sealed value names (`v1.<keyId>.…` or `v2.<keyId>.…`). */
export function sealedKeyId(sealed: string): string {
  const [version, keyId] = sealed.split('.');
  if ((version !== 'v1' && version !== 'v2') || !keyId) throw new Error('sealed value has an unknown format');
  return keyId;
}
