/**
 * Presence news on the event bus: ephemeral, never a row. One channel per organization (its
 * `GET /v1/events` stream) and one per workspace (interleaved into `GET /v1/replica/{id}/events`
 * without an `id:`, so Last-Event-ID replay is untouched). The bus is PostgreSQL NOTIFY between
 * API processes, so an event published by the process that saw the change reaches streams held by
 * every other; a lost message costs a stale view until the next change or a `GET /v1/presence`.
 */
import type { PresenceAudience, PresenceEvent } from '../domain/presence';
import type { EventBus } from './bus';

/** What a stream writes: the replica stream's envelope, without an id. */
export type LivePresenceEvent = PresenceEvent & { ts: string };

const hex = (id: string) => id.replace(/-/g, '').toLowerCase();

export function presenceChannel(audience: PresenceAudience): string {
  return audience.kind === 'organization' ? `presence_org_${hex(audience.organizationId)}` : `presence_ws_${hex(audience.replicaId)}`;
}

export async function publishPresence(bus: EventBus, audience: PresenceAudience, event: PresenceEvent, now: number): Promise<void> {
  const message: LivePresenceEvent = { ts: new Date(now).toISOString(), ...event };
  await bus.publish(presenceChannel(audience), JSON.stringify(message));
}

export async function subscribePresence(bus: EventBus, audience: PresenceAudience, deliver: (event: LivePresenceEvent) => void): Promise<() => Promise<void>> {
  return bus.subscribe(presenceChannel(audience), (raw) => {
    let event: LivePresenceEvent;
    try {
      event = JSON.parse(raw) as LivePresenceEvent;
    } catch {
      return;
    }
    deliver(event);
  });
}
