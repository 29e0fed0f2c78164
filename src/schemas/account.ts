/**
 * The caller's profile (camelCase, interop §7) and API keys (snake_case, interop §1.5). The
 * same key shapes serve personal keys and the organization's keys.
 */
import { type BodyOf, dateTime, type JsonSchema, object, pageEnvelope, pageQuery, uuid } from './common';

export const DISPLAY_NAME_MAX = 80;
export const AVATAR_URL_MAX = 2048;
export const KEY_NAME_MAX = 100;
/** interop §1.2 */
export const KEY_LIST_DEFAULT_LIMIT = 10;

// `\S`: a value of spaces only is blank, whatever its length; stored values are trimmed.
const displayName = { type: 'string', minLength: 1, maxLength: DISPLAY_NAME_MAX, pattern: '\\S' } as const;
const avatarUrl = {
  type: ['string', 'null'],
  maxLength: AVATAR_URL_MAX,
  format: 'uri',
  pattern: '^https?://[^\\s/?#]+',
  description: 'An http(s) URL with a host, or null to clear the avatar',
} as const;

export const profileSchema = object(
  { userId: uuid, email: { type: 'string' }, displayName: { type: 'string' }, avatarUrl: { type: ['string', 'null'] } },
  ['userId', 'email', 'displayName', 'avatarUrl'],
);
export const profileEnvelope = object({ profile: profileSchema }, ['profile']);

/** Fields left out keep their value (like the original's multipart form without an avatar). */
export const updateProfileBody = { ...object({ displayName, avatarUrl }), minProperties: 1 } as const;
export type UpdateProfileInput = BodyOf<typeof updateProfileBody>;

export const createApiKeyBody = object({ name: { type: 'string', minLength: 1, maxLength: KEY_NAME_MAX, pattern: '\\S' } }, ['name']);

const apiKeyProperties: Record<string, JsonSchema> = {
  id: uuid,
  name: { type: 'string' },
  prefix: { type: 'string', description: 'The first characters of the key, for recognising it' },
  created_at: dateTime,
  last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Updated at most once a minute' },
};
const apiKeyRequired = ['id', 'name', 'prefix', 'created_at', 'last_used_at'];

export const apiKeySchema = object(apiKeyProperties, apiKeyRequired);
export const createdApiKeyEnvelope = object(
  {
    api_key: object(
      { ...apiKeyProperties, key: { type: 'string', description: 'The secret; shown only in this answer', 'x-secret': true } },
      [...apiKeyRequired, 'key'],
    ),
  },
  ['api_key'],
);
export const apiKeyPage = pageEnvelope('api_keys', apiKeySchema);
export const apiKeyListQuery = pageQuery(KEY_LIST_DEFAULT_LIMIT);
export const apiKeyIdParams = object({ apiKeyId: uuid }, ['apiKeyId']);
