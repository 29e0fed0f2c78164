/**
 * Signed webhook deliveries (GitHub, Linear, Sentry, Slack) all come down to one check: the
 * hex HMAC-SHA256 the sender claims, against the one computed over the raw bytes received.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Whether `claimedHex` is the HMAC-SHA256 of `parts` (concatenated) under `secret`, compared in
 * constant time. False for an empty secret or a claim that is not 64 hex digits.
 */
export function matchesHmacSha256(secret: string, parts: Array<Buffer | string>, claimedHex: string | undefined): boolean {
  if (typeof secret !== 'string' || secret.length === 0) return false;
  if (typeof claimedHex !== 'string' || !HEX_SHA256.test(claimedHex.trim())) return false;
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  // Both are 32 bytes (the pattern pins the claim's length), so timingSafeEqual cannot throw.
  return timingSafeEqual(Buffer.from(claimedHex.trim(), 'hex'), mac.digest());
}
