/**
 * `GET /v1/events`: the organization's live events as server-sent events, for every key of the
 * organization. Today it carries presence (`presence.changed`, `presence.left`); nothing on it
 * is stored, so there is no replay: a client opens it, then reads `GET /v1/presence` for the
 * state it starts from.
 */
import type { Logger } from '../../logger';
import type { LivePresenceEvent } from '../../events/presence';
import type { PresenceService } from '../../services/presence';
import { defineRoute, type Route } from '../route';
import { openSse, type SseStream } from '../sse';

export function organizationEventRoutes(presence: PresenceService, deps: { logger: Logger; heartbeatMs?: number }): Route[] {
  const logger = deps.logger.child({ component: 'organization-events' });
  return [
    defineRoute({
      method: 'get',
      path: '/v1/events',
      operationId: 'streamOrganizationEvents',
      summary: "Follow the organization's live events (server-sent events): members' presence",
      tag: 'Presence',
      auth: 'apiKey',
      raw: true,
      response: {
        status: 200,
        description:
          'Messages `event: <type>` + `data: {ts, type, payload}`, no `id:` (nothing is replayed). `presence.changed`: payload `{change: joined|moved|typing, member, previous_location}`; `presence.left`: payload `{reason: left|expired, member}` (member as in GET /v1/presence). A comment heartbeat every 15 s. A client that falls too far behind gets a final `overflow` event `{type, message}` and reconnects.',
        contentType: 'text/event-stream',
      },
      errors: [401],
      handler: async ({ actor, ctx }) => {
        // Subscribed before the response starts: a client that got its 200 misses nothing after it.
        let sse: SseStream | null = null;
        const held: LivePresenceEvent[] = [];
        const unsubscribe = await presence.followOrganization(actor, (event) => (sse ? sse.send(event.type, event) : void held.push(event)));
        // Presence cannot wait for one client: one that falls a whole buffer behind gets
        // `overflow`, reconnects and reads GET /v1/presence again, as at the start.
        const stream = openSse(ctx, { heartbeatMs: deps.heartbeatMs, overflowMessage: 'The client read too slowly; reconnect and read GET /v1/presence again' });
        const stop = () => void unsubscribe().catch((err: Error) => logger.warn('could not leave the organization channel', { err }));
        stream.signal.addEventListener('abort', stop, { once: true });
        // A client that hung up while we subscribed has no 'close' left to fire.
        if (ctx.req.socket.destroyed) {
          stream.close();
          stop();
          return;
        }
        // The headers leave with the first write; a client should not wait for news to know it is connected.
        stream.comment('connected');
        for (const event of held) stream.send(event.type, event);
        sse = stream;
      },
    }),
  ];
}
