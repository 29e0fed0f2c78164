/**
 * Keyed hashes of secrets a delivery presents in clear (a GitLab hook's `X-Gitlab-Token`), so
 * the row that holds the secret is found by an indexed equality on the hash: the lookup takes
 * the same time however close a guess is, no other row's secret is opened, and a stolen
 * database does not let weak tokens be tried offline without the deployment's key.
 *
 * HMAC-SHA256 under a key derived (HKDF) from each encryption key, with the purpose in the
 * message. The row stores the hash and the id of the key it was made under; a lookup computes
 * the hash under every configured key, so rows hashed before a rotation keep matching until the
 * rotation (`hangar admin rotate-encryption-key`) hashes them again under the active key.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { EncryptionKey } from '../config';

export interface LookupHash {
  keyId: string;
  /** Lower-case hex. */
  hash: string;
}

export interface LookupHashes {
  readonly activeKeyId: string;
  /** The hash to store: under the active key. */
  current(purpose: string, secret: string): LookupHash;
  /** The hashes to look up: one per configured key. */
  candidates(purpose: string, secret: string): LookupHash[];
}

const INFO = 'hangar lookup hashes v1';

export function createLookupHashes(keys: EncryptionKey[]): LookupHashes {
  if (keys.length === 0) throw new Error('at least one encryption key is required');
  const derived = keys.map((k) => ({ id: k.id, key: Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), INFO, 32)) }));
  const hashUnder = (entry: { id: string; key: Buffer }, purpose: string, secret: string): LookupHash => ({
    keyId: entry.id,
    hash: createHmac('sha256', entry.key).update(`${purpose}\n`).update(secret, 'utf8').digest('hex'),
  });
  return {
    activeKeyId: derived[0]!.id,
    current: (purpose, secret) => hashUnder(derived[0]!, purpose, secret),
    candidates: (purpose, secret) => derived.map((entry) => hashUnder(entry, purpose, secret)),
  };
}

/** The purpose of a GitLab connection's webhook token hash (`connections.webhook_token_hash`). */
export const GITLAB_WEBHOOK_TOKEN_PURPOSE = 'gitlab-webhook-token';

/**
 * Every keyed-hash column, the column naming its key, and the sealed secret it is the hash of
 * (a field of that column's JSON): the rotation hashes them again under the active key.
 */
export const LOOKUP_HASH_COLUMNS = [
  {
    table: 'connections',
    column: 'webhook_token_hash',
    keyIdColumn: 'webhook_token_key_id',
    source: { column: 'secrets_sealed', field: 'webhook_token' },
    purpose: GITLAB_WEBHOOK_TOKEN_PURPOSE,
  },
] as const;

export type LookupHashColumn = (typeof LOOKUP_HASH_COLUMNS)[number];

