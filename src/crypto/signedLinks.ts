/**
 * Short-lived signed links (media downloads, preview links, desktop installers): a token that
 * carries its own claims and expiry, signed with HMAC-SHA256 under a key derived (HKDF) from
 * the deployment's encryption keys, so every API process verifies what another one issued
 * without a shared table. A token is bound to one purpose: a media token never opens a preview.
 *
 * Form: `<keyId>.<base64url(JSON claims)>.<base64url(mac)>`. Rotation follows the encryption
 * keys: new tokens use the active key, tokens of an older key still verify until it is removed.
 * Revocation is the caller's: claims name what they open (a link id), and the caller checks it.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { EncryptionKey } from '../config';

export type LinkClaims = Record<string, string | number | boolean>;

export interface SignedLinks {
  /** A token for `purpose` carrying `claims`, valid until `expiresAt`. */
  sign(purpose: string, claims: LinkClaims, expiresAt: Date): string;
  /** The claims of a valid, unexpired token for `purpose`; null for anything else. */
  verify(purpose: string, token: string, now?: Date): (LinkClaims & { exp: number }) | null;
}

const INFO = 'hangar signed links v1';
const MAX_TOKEN_CHARS = 4096;

/** `info`: the HKDF label; another label gives keys that never verify these tokens (preview relay grants use their own). */
export function createSignedLinks(keys: EncryptionKey[], options: { info?: string } = {}): SignedLinks {
  if (keys.length === 0) throw new Error('at least one encryption key is required');
  const info = options.info ?? INFO;
  const derived = new Map(keys.map((k) => [k.id, Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), info, 32))]));
  const active = keys[0]!.id;
  const mac = (key: Buffer, purpose: string, body: string) => createHmac('sha256', key).update(`${purpose}\n${body}`).digest();

  return {
    sign(purpose, claims, expiresAt) {
      if ('exp' in claims) throw new Error('claims must not set exp; pass expiresAt');
      const body = Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(expiresAt.getTime() / 1000) })).toString('base64url');
      return `${active}.${body}.${mac(derived.get(active)!, purpose, body).toString('base64url')}`;
    },
    verify(purpose, token, now = new Date()) {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return null;
      const parts = token.split('.');
      if (parts.length !== 3) return null;
      const [keyId, body, signature] = parts as [string, string, string];
      const key = derived.get(keyId);
      if (!key) return null;
      const expected = mac(key, purpose, body);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let claims: unknown;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
      const exp = (claims as { exp?: unknown }).exp;
      if (typeof exp !== 'number' || exp * 1000 <= now.getTime()) return null;
      return claims as LinkClaims & { exp: number };
    },
  };
}
