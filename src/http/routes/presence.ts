/**
 * Presence (docs/decisions/clients.md, "Presence"): a member's heartbeat and explicit leave (personal
 * API keys only), and the organization's members online now (any key of the organization).
 */
import { successSchema } from '../../schemas/common';
import { heartbeatBody, membersEnvelope, presenceEnvelope, presenceQuery } from '../../schemas/presence';
import type { PresenceService } from '../../services/presence';
import { defineRoute, type Route } from '../route';

const tag = 'Presence';

export function presenceRoutes(presence: PresenceService): Route[] {
  return [
    defineRoute({
      method: 'put',
      path: '/v1/presence',
      operationId: 'putPresence',
      summary: "The member's heartbeat: where they are and whether they are typing (personal API key; send one well within the expiry, e.g. every 10 s)",
      tag,
      auth: 'apiKey',
      body: heartbeatBody,
      response: { status: 200, description: "The member's presence, with its new expiry", schema: presenceEnvelope },
      errors: [400, 401, 403, 404, 503],
      handler: async ({ actor, body }) => ({ presence: await presence.heartbeat(actor, body) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/presence',
      operationId: 'deletePresence',
      summary: 'The member leaves now instead of at the expiry (personal API key)',
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'Gone (also when the member was not present)', schema: successSchema },
      errors: [401, 403, 503],
      handler: async ({ actor }) => {
        await presence.leave(actor);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/presence',
      operationId: 'listPresence',
      summary: "The organization's members online now, optionally only those at one location",
      tag,
      auth: 'apiKey',
      query: presenceQuery,
      response: { status: 200, description: 'Members whose latest heartbeat has not expired, by display name', schema: membersEnvelope },
      errors: [400, 401, 503],
      handler: async ({ actor, query }) => ({ members: await presence.list(actor, query) }),
    }),
  ];
}
