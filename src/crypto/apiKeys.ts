/**
 * API keys are random, shown once, and stored only as a SHA-256 hash plus a short prefix
 * for display. SHA-256 (not a slow KDF) is right here: keys carry 192 bits of entropy, and
 * every request must look one up by hash.
 */
import { createHash, randomBytes } from 'node:crypto';

export type ApiKeyKind = 'org' | 'personal';

const PREFIX: Record<ApiKeyKind, string> = { org: 'hgr_org_', personal: 'hgr_usr_' };

export function generateApiKey(kind: ApiKeyKind): { secret: string; hash: string; displayPrefix: string } {
  const secret = PREFIX[kind] + randomBytes(24).toString('base64url');
  return { secret, hash: hashApiKey(secret), displayPrefix: secret.slice(0, PREFIX[kind].length + 4) };
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
