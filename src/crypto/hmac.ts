/**
 * Signed webhook deliveries (GitHub, Linear, Sentry, Slack) all come down to one check: the
 * hex HMAC-SHA256 the sender claims, against the one computed over the raw bytes received.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/** Whether a claimed signature is 64 hex digits (surrounding spaces ignored): anything else can never match. */
export const isHexSha256 = (claimedHex: string | undefined): claimedHex is string => typeof claimedHex === 'string' && HEX_SHA256.test(claimedHex.trim());

/**
 * Whether `claimedHex` is the HMAC-SHA256 of `parts` (concatenated) under `secret`, compared in
 * constant time. False for an empty secret or a claim that is not 64 hex digits.
 */
export function matchesHmacSha256(secret: string, parts: Array<Buffer | string>, claimedHex: string | undefined): boolean {
  const mac = streamingHmacSha256(secret, claimedHex);
  for (const part of parts) mac.update(part);
  return mac.matches();
}

/** An HMAC-SHA256 computed as the bytes arrive, compared with the claim once they have all arrived. */
export interface StreamingHmac {
  update(part: Buffer | string): void;
  /** Whether the bytes given so far carry the claimed signature (constant time); call once, at the end. */
  matches(): boolean;
}

/** As `matchesHmacSha256`, fed part by part: a body is checked while it streams in, without keeping it for the check. */
export function streamingHmacSha256(secret: string, claimedHex: string | undefined): StreamingHmac {
  const usable = typeof secret === 'string' && secret.length > 0 && isHexSha256(claimedHex);
  const mac = usable ? createHmac('sha256', secret) : null;
  return {
    update: (part) => void mac?.update(part),
    // Both are 32 bytes (the pattern pins the claim's length), so timingSafeEqual cannot throw.
    matches: () => mac !== null && timingSafeEqual(Buffer.from(claimedHex!.trim(), 'hex'), mac.digest()),
  };
}
