/**
 * Where presence lives: short-lived per-member entries, never the database. Two stores keep the
 * same contract (test/integration/presence/stores.test.ts runs one suite against both): Redis,
 * shared by every API process, and an in-process map for the single-process `npm start`.
 *
 * Time is the caller's (`now`, epoch milliseconds), so every process judges deadlines alike
 * and tests need no clock of their own. An entry whose deadline has passed is gone for every
 * reader at once; announcing its departure is a separate step (`claimExpired`) that hands each
 * expired entry to exactly one caller, across processes.
 */
import type { PresenceEntry } from '../domain/presence';

export type PresenceInput = Omit<PresenceEntry, 'lastSeenAt' | 'expiresAt'>;

export interface HeartbeatResult {
  /** The member as stored now, deadline `now + ttl`. */
  entry: PresenceEntry;
  /**
   * What was stored before: null when absent (never seen, left, or claimed by a sweep); an
   * entry past its deadline when it expired and no sweep had claimed it yet (this heartbeat
   * claimed it instead: no sweep will).
   */
  previous: PresenceEntry | null;
}

export interface PresenceStore {
  heartbeat(input: PresenceInput, now: number): Promise<HeartbeatResult>;
  /** Removes the member's entry; returns it (live or expired-but-unclaimed), or null. */
  leave(organizationId: string, userId: string): Promise<PresenceEntry | null>;
  /** The organization's live entries (deadline after `now`), by user id. */
  list(organizationId: string, now: number): Promise<PresenceEntry[]>;
  /** Removes and returns up to `limit` entries whose deadline is at or before `now`; each goes to one caller only. */
  claimExpired(now: number, limit: number): Promise<PresenceEntry[]>;
  close(): Promise<void>;
}
