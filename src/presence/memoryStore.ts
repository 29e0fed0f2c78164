/**
 * Presence in this process's memory, for the single-process `npm start` without REDIS_URL.
 * Entries carry their deadline like Redis keys carry theirs: readers skip an entry past it, and
 * the sweep (`claimExpired`) removes it. Several API processes must share Redis instead: each
 * would otherwise see only the members whose heartbeats it happened to receive.
 */
import type { PresenceEntry } from '../domain/presence';
import type { PresenceStore } from './store';

export function createMemoryPresenceStore(options: { ttlMs: number }): PresenceStore {
  /** organization id → user id → entry */
  const organizations = new Map<string, Map<string, PresenceEntry>>();

  const membersOf = (organizationId: string) => {
    let members = organizations.get(organizationId);
    if (!members) organizations.set(organizationId, (members = new Map()));
    return members;
  };
  const remove = (entry: PresenceEntry) => {
    const members = organizations.get(entry.organizationId);
    members?.delete(entry.userId);
    if (members?.size === 0) organizations.delete(entry.organizationId);
  };
  const copy = (entry: PresenceEntry): PresenceEntry => ({ ...entry, location: { ...entry.location } });

  return {
    async heartbeat(input, now) {
      const members = membersOf(input.organizationId);
      const previous = members.get(input.userId) ?? null;
      const entry = copy({ ...input, lastSeenAt: now, expiresAt: now + options.ttlMs });
      members.set(input.userId, entry);
      return { entry: copy(entry), previous };
    },
    async leave(organizationId, userId) {
      const entry = organizations.get(organizationId)?.get(userId) ?? null;
      if (entry) remove(entry);
      return entry;
    },
    async list(organizationId, now) {
      const members = organizations.get(organizationId);
      if (!members) return [];
      return [...members.values()].filter((e) => e.expiresAt > now).map(copy);
    },
    async claimExpired(now, limit) {
      const claimed: PresenceEntry[] = [];
      for (const members of organizations.values()) {
        for (const entry of members.values()) {
          if (claimed.length >= limit) break;
          if (entry.expiresAt <= now) claimed.push(entry);
        }
      }
      for (const entry of claimed) remove(entry);
      return claimed;
    },
    async close() {
      organizations.clear();
    },
  };
}
