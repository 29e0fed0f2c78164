/** Presence (docs/decisions/clients.md, "Presence"): heartbeats, the organization's members online, and the events streams' presence news. */
import { type BodyOf, dateTime, type JsonSchema, object, type QueryOf, uuid } from './common';

const locationType = { type: 'string', enum: ['environment', 'workspace'] } as const;

export const presenceLocation = object(
  { type: { ...locationType, description: 'An environment, or a workspace (replica) id' }, id: uuid },
  ['type', 'id'],
);

export const heartbeatBody = object(
  {
    location: { ...presenceLocation, description: 'Where the member is: an environment or a workspace of the organization they may see' },
    typing: { type: 'boolean', description: 'Whether the member is typing there; default false' },
  },
  ['location'],
);

export const presenceMember: JsonSchema = object(
  {
    user_id: uuid,
    display_name: { type: 'string' },
    avatar_url: { type: ['string', 'null'] },
    location: presenceLocation,
    typing: { type: 'boolean' },
    last_seen_at: { ...dateTime, description: 'The latest heartbeat' },
    expires_at: { ...dateTime, description: 'Gone at this time unless another heartbeat comes first' },
  },
  ['user_id', 'display_name', 'avatar_url', 'location', 'typing', 'last_seen_at', 'expires_at'],
);

export const presenceEnvelope = object({ presence: presenceMember }, ['presence']);
export const membersEnvelope = object({ members: { type: 'array', items: presenceMember } }, ['members']);

export const presenceQuery = object({
  location_type: { ...locationType, description: 'With location_id: only the members at this location' },
  location_id: { ...uuid, description: 'With location_type' },
});

export type HeartbeatInput = BodyOf<typeof heartbeatBody>;
export type PresenceFilter = QueryOf<typeof presenceQuery>;
