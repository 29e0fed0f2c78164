/**
 * What lets an API process through a worker host's preview relay: a grant naming one workspace
 * and one port, signed for a minute. The API issues it only after it has authorised the
 * preview; the relay forwards to nothing a valid grant does not name. The key is derived (HKDF)
 * from the deployment's encryption keys under a label of its own, so a grant is no preview
 * link, media link or session, and the raw keys never sign anything.
 */
import type { EncryptionKey } from '../config';
import { createSignedLinks } from '../crypto/signedLinks';

/** The request header a grant travels in; the relay removes it before forwarding. */
export const GRANT_HEADER = 'x-hangar-relay-grant';

/** Long enough for a request to reach the relay, short enough that a captured grant soon stops working. */
export const GRANT_TTL_MS = 60_000;

const INFO = 'hangar preview relay grants v1';
const PURPOSE = 'preview-relay';
const REPLICA_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface RelayGrant {
  replicaId: string;
  port: number;
}

export interface RelayGrants {
  issue(grant: RelayGrant, now?: Date): string;
  /** The grant a token carries, when it is genuine and unexpired; null for anything else. */
  verify(token: string | undefined, now?: Date): RelayGrant | null;
}

export function createRelayGrants(keys: EncryptionKey[]): RelayGrants {
  const signed = createSignedLinks(keys, { info: INFO });
  return {
    issue: ({ replicaId, port }, now = new Date()) => signed.sign(PURPOSE, { r: replicaId, p: port }, new Date(now.getTime() + GRANT_TTL_MS)),
    verify(token, now = new Date()) {
      if (typeof token !== 'string') return null;
      const claims = signed.verify(PURPOSE, token, now);
      if (!claims) return null;
      const { r, p } = claims;
      if (typeof r !== 'string' || !REPLICA_ID.test(r) || typeof p !== 'number' || !Number.isInteger(p) || p < 1 || p > 65535) return null;
      return { replicaId: r, port: p };
    },
  };
}
