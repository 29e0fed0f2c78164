/**
 * AES-256-GCM for secrets at rest (variable values, file contents, credentials).
 *
 * Stored form: `v2.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). The row names the key
 * that sealed it, so keys rotate by adding a new active key in front (`hangar admin
 * rotate-encryption-key` re-seals the rest). A v2 value is sealed with associated data naming
 * where it lives — table, column and row (`sealedFields.ts`) — so a value copied into another
 * row or column does not open. `v1` values (no associated data) were written before that; they
 * still open, anywhere, until the rotation rewrites them as v2.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptionKey } from '../config';
import { associatedData, type SealedField } from './sealedFields';

export type { SealedField } from './sealedFields';

export interface SecretBox {
  /** The key new values are sealed with: the first configured one. */
  readonly activeKeyId: string;
  seal(plaintext: string, field: SealedField): string;
  /** Throws when the value names an unknown key, is damaged, or (v2) belongs to another field. */
  open(sealed: string, field: SealedField): string;
  /** Whether `sealed` is already in the form `seal` writes today (v2 under the active key). */
  isCurrent(sealed: string): boolean;
}

const CURRENT = 'v2';
const TAG_BYTES = 16;

export function createSecretBox(keys: EncryptionKey[]): SecretBox {
  if (keys.length === 0) throw new Error('at least one encryption key is required');
  const active = keys[0]!;
  const byId = new Map(keys.map((k) => [k.id, k.key]));
  const currentPrefix = `${CURRENT}.${active.id}.`;
  return {
    activeKeyId: active.id,
    seal(plaintext, field) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', active.key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(associatedData(field));
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [CURRENT, active.id, iv.toString('base64url'), tag.toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed, field) {
      const [version, keyId, iv, tag, ct, extra] = sealed.split('.');
      const key = keyId ? byId.get(keyId) : undefined;
      if ((version !== 'v1' && version !== CURRENT) || !key || iv === undefined || tag === undefined || ct === undefined || extra !== undefined) {
        throw new Error('sealed value has an unknown format or key id');
      }
      // GCM verifies only as many tag bytes as it is given (Node accepts 4 to 16): a cut tag
      // would be forged in far fewer tries, so nothing but the full 16 bytes opens.
      const tagBytes = Buffer.from(tag, 'base64url');
      if (tagBytes.length !== TAG_BYTES) throw new Error(`sealed value does not open as ${field.table}.${field.column} of this row`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tagBytes);
      if (version === CURRENT) decipher.setAAD(associatedData(field));
      try {
        return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new Error(`sealed value does not open as ${field.table}.${field.column} of this row`);
      }
    },
    isCurrent: (sealed) => sealed.startsWith(currentPrefix),
  };
}

export function generateEncryptionKey(id = 'k1'): string {
  return `${id}:${randomBytes(32).toString('base64')}`;
}
