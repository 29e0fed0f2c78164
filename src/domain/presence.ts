/**
 * Presence rules: what a heartbeat, a leave or an expiry changes, and who hears of it. Entries
 * live in a short-lived store (src/presence), never in the database; a heartbeat that changes
 * nothing but the deadline is not news, so only joins, moves, typing toggles and departures are
 * broadcast (docs/decisions/clients.md, "Presence").
 */

export type PresenceLocationType = 'environment' | 'workspace';

export interface PresenceLocation {
  type: PresenceLocationType;
  id: string;
}

/** One member's presence as the store keeps it (times in epoch milliseconds). */
export interface PresenceEntry {
  organizationId: string;
  userId: string;
  displayName: string;
  avatarUrl: string | null;
  location: PresenceLocation;
  typing: boolean;
  lastSeenAt: number;
  /** The heartbeat's deadline: past it, the member is gone. */
  expiresAt: number;
}

/** The API's shape of an entry. */
export interface PresenceView {
  user_id: string;
  display_name: string;
  avatar_url: string | null;
  location: PresenceLocation;
  typing: boolean;
  last_seen_at: string;
  expires_at: string;
}

export type PresenceChange = 'joined' | 'moved' | 'typing';
/** `moved` only on the stream of the workspace the member moved away from. */
export type PresenceLeaveReason = 'left' | 'expired' | 'moved';

export type PresenceEvent =
  | { type: 'presence.changed'; payload: { change: PresenceChange; member: PresenceView; previous_location: PresenceLocation | null } }
  | { type: 'presence.left'; payload: { reason: PresenceLeaveReason; member: PresenceView } };

/** Where an event goes: the organization's stream, or the stream of one workspace (replica). */
export type PresenceAudience = { kind: 'organization'; organizationId: string } | { kind: 'workspace'; replicaId: string };

export interface PresenceBroadcast {
  audience: PresenceAudience;
  event: PresenceEvent;
}

export function presenceView(entry: PresenceEntry): PresenceView {
  return {
    user_id: entry.userId,
    display_name: entry.displayName,
    avatar_url: entry.avatarUrl,
    location: { type: entry.location.type, id: entry.location.id },
    typing: entry.typing,
    last_seen_at: new Date(entry.lastSeenAt).toISOString(),
    expires_at: new Date(entry.expiresAt).toISOString(),
  };
}

export const isLive = (entry: Pick<PresenceEntry, 'expiresAt'>, now: number) => entry.expiresAt > now;

const sameLocation = (a: PresenceLocation, b: PresenceLocation) => a.type === b.type && a.id === b.id;

const organization = (entry: PresenceEntry): PresenceAudience => ({ kind: 'organization', organizationId: entry.organizationId });
const workspaceOf = (location: PresenceLocation): PresenceAudience | null => (location.type === 'workspace' ? { kind: 'workspace', replicaId: location.id } : null);

function changed(entry: PresenceEntry, change: PresenceChange, previousLocation: PresenceLocation | null): PresenceEvent {
  return { type: 'presence.changed', payload: { change, member: presenceView(entry), previous_location: previousLocation } };
}

/** `entry` is the member as they were where they left. */
export function departure(entry: PresenceEntry, reason: 'left' | 'expired'): PresenceBroadcast[] {
  const event: PresenceEvent = { type: 'presence.left', payload: { reason, member: presenceView(entry) } };
  const place = workspaceOf(entry.location);
  return [{ audience: organization(entry), event }, ...(place ? [{ audience: place, event }] : [])];
}

/**
 * What a heartbeat announces, given what the store held before it (`previous`, null when the
 * member was absent). An entry past its deadline that no sweep has claimed yet counts as gone:
 * its departure is announced here, and the heartbeat is a new join.
 */
export function heartbeatBroadcasts(previous: PresenceEntry | null, current: PresenceEntry, now: number): PresenceBroadcast[] {
  const here = workspaceOf(current.location);
  const toHere = (event: PresenceEvent) => (here ? [{ audience: here, event }] : []);
  if (!previous || !isLive(previous, now)) {
    const event = changed(current, 'joined', null);
    return [...(previous ? departure(previous, 'expired') : []), { audience: organization(current), event }, ...toHere(event)];
  }
  if (!sameLocation(previous.location, current.location)) {
    const there = workspaceOf(previous.location);
    const left: PresenceEvent = { type: 'presence.left', payload: { reason: 'moved', member: presenceView(previous) } };
    return [
      { audience: organization(current), event: changed(current, 'moved', previous.location) },
      ...(there ? [{ audience: there, event: left }] : []),
      // For the workspace's own watchers, the member has just arrived.
      ...toHere(changed(current, 'joined', null)),
    ];
  }
  if (previous.typing !== current.typing) {
    const event = changed(current, 'typing', null);
    return [{ audience: organization(current), event }, ...toHere(event)];
  }
  return [];
}
