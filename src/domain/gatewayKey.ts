/**
 * The placeholder key a workspace's agent CLIs hold instead of a provider key:
 * `hgw_<replica id, 32 hex digits>_<base64url HMAC-SHA256(engine secret, "hangar-ai-gateway:<replica id>")>`.
 * It names its replica and proves knowledge of that replica's engine secret, yet reveals
 * nothing that opens any other Hangar API (the engine secret itself stays in the container's
 * environment only). The worker writes it into the CLIs' configuration; the gateway checks it
 * against the replica's sealed engine secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'hgw_';
const CONTEXT = 'hangar-ai-gateway';
const KEY_PATTERN = /^hgw_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The canonical (lower-case, dashed) replica id. */
function canonicalId(replicaId: string): string {
  const id = replicaId.toLowerCase();
  if (!UUID_PATTERN.test(id)) throw new Error('a replica id is a UUID');
  return id;
}

function mac(engineSecret: string, replicaId: string): Buffer {
  return createHmac('sha256', engineSecret).update(`${CONTEXT}:${replicaId}`).digest();
}

/** The gateway key of a replica, derived from its engine secret (`HANGAR_ENGINE_SECRET`). */
export function gatewayKey(replicaId: string, engineSecret: string): string {
  const id = canonicalId(replicaId);
  return `${PREFIX}${id.replace(/-/g, '')}_${mac(engineSecret, id).toString('base64url')}`;
}

/** Whether a string looks like a gateway key (any replica). */
export const isGatewayKey = (value: string): boolean => KEY_PATTERN.test(value);

/** The replica a key claims to be for, or null when it is not a gateway key. Says nothing about validity. */
export function gatewayKeyReplica(key: string): string | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const hex = match[1]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether `key` is the gateway key of `replicaId` under `engineSecret` (constant time in the key's MAC). */
export function verifyGatewayKey(key: string, replicaId: string, engineSecret: string): boolean {
  const match = KEY_PATTERN.exec(key);
  if (!match || gatewayKeyReplica(key) !== canonicalId(replicaId)) return false;
  const presented = Buffer.from(match[2]!, 'base64url');
  const expected = mac(engineSecret, canonicalId(replicaId));
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
