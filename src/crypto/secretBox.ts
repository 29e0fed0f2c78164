/**
 * AES-256-GCM for secrets at rest (variable values, file contents, credentials).
 * Stored form: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so a row names the
 * key that sealed it and keys can be rotated by adding a new active key in front.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from '../config';

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(keys: EncryptionKey[]): SecretBox {
  if (keys.length === 0) throw new Error('at least one encryption key is required');
  const active = keys[0]!;
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', active.key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', active.id, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, keyId, iv, tag, ct] = sealed.split('.');
      const key = keyId ? byId.get(keyId) : undefined;
      if (version !== 'v1' || !key || iv === undefined || tag === undefined || ct === undefined) {
        throw new Error('sealed value has an unknown format or key id');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export function generateEncryptionKey(id = 'k1'): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}
