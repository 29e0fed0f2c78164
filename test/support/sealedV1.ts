/** A value sealed the way Hangar sealed secrets before associated data (`v1`, bound to nothing). */
import { createCipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from '../../src/config';

export function sealV1(key: EncryptionKey, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', key.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}
