/** The keys that seal secrets at rest. */
import { ConfigError, custom, section } from './schema';

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

/** `HANGAR_ENCRYPTION_KEYS=id1:base64key,id2:base64key` — each key 32 bytes (AES-256). */
export function parseEncryptionKeys(raw: string | undefined): EncryptionKey[] {
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const sep = entry.indexOf(':');
    const id = entry.slice(0, sep).trim();
    const key = Buffer.from(entry.slice(sep + 1).trim(), 'base64');
    if (sep <= 0 || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) {
      throw new ConfigError('HANGAR_ENCRYPTION_KEYS entries must look like <id>:<base64 key>');
    }
    if (key.length !== 32) throw new ConfigError(`HANGAR_ENCRYPTION_KEYS key "${id}" must decode to 32 bytes`);
    return { id, key };
  });
}

export const encryption = section(
  'Encryption at rest',
  {
    HANGAR_ENCRYPTION_KEYS: custom({
      type: 'secret',
      accepts: '`id:base64`, comma-separated; 32-byte keys',
      shownDefault: 'generated for dev',
      description:
        '`id:base64,...`, active key first (AES-256-GCM at rest); an old key is retired with `hangar admin rotate-encryption-key` (README). The api and worker refuse to start without it',
      parse: (raw) => parseEncryptionKeys(raw),
    }),
  },
  {},
  (read) => ({
    /** Active key first; older keys stay for decryption during a rotation. */
    encryptionKeys: read.get('HANGAR_ENCRYPTION_KEYS'),
  }),
);
