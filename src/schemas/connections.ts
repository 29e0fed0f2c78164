/** Connections: an organization's Slack, Linear and Sentry apps and GitLab hooks, and members' linked identities. */
import { type BodyOf, dateTime, nullableUuid, object, uuid } from './common';

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max, pattern: '\\S' }) as const;
const secret = { type: 'string', minLength: 1, maxLength: 4096 } as const;

export const CONNECTION_PROVIDERS = ['slack', 'linear', 'sentry', 'gitlab'] as const;
export const IDENTITY_PROVIDERS = ['slack', 'linear', 'github', 'gitlab'] as const;

/** Each provider's secrets (sealed at rest, never answered) and settings. */
const secretsSchema = object({
  bot_token: secret,
  signing_secret: secret,
  access_token: secret,
  webhook_secret: secret,
  client_secret: secret,
  webhook_token: {
    type: 'string',
    minLength: 16,
    maxLength: 4096,
    description: "GitLab: the hooks' secret token (X-Gitlab-Token), at least 16 characters; it alone decides which organization a delivery reaches, so make it random (e.g. openssl rand -hex 32)",
  },
  api_token: { ...secret, description: 'GitLab: the access token answers are posted with (api scope), sent as PRIVATE-TOKEN' },
});
const settingsSchema = object({
  bot_user_id: { type: 'string', minLength: 1, maxLength: 100, description: 'Slack: the app\'s bot user (its own messages are never forwarded)' },
  app_user_id: { type: 'string', minLength: 1, maxLength: 100, description: 'Linear: the app user issues are assigned to' },
  installation_id: { type: 'string', minLength: 1, maxLength: 100, description: 'Sentry: the integration installation (uuid)' },
  instance_url: { type: 'string', minLength: 1, maxLength: 2000, description: "GitLab: the instance's base URL (default: the deployment's HANGAR_GITLAB_API_URL without /api/v4)" },
});

export const connectionSchema = object(
  {
    id: uuid,
    provider: { type: 'string', enum: [...CONNECTION_PROVIDERS] },
    external_id: { type: 'string', description: 'Slack team id, Linear organization id, Sentry organization slug, GitLab instance host and group (e.g. gitlab.com/acme)' },
    name: { type: 'string' },
    settings: { type: 'object' },
    secrets_set: { type: 'array', items: { type: 'string' }, description: 'Which secrets are stored (never their values)' },
    created_by: nullableUuid,
    created_at: dateTime,
    updated_at: dateTime,
  },
  ['id', 'provider', 'external_id', 'name', 'settings', 'secrets_set', 'created_by', 'created_at', 'updated_at'],
);

export const connectionParams = object({ connectionId: uuid }, ['connectionId']);
export const createConnectionBody = object(
  { provider: { type: 'string', enum: [...CONNECTION_PROVIDERS] }, external_id: text(200), name: text(200), secrets: secretsSchema, settings: settingsSchema },
  ['provider', 'external_id', 'name', 'secrets'],
);
export const patchConnectionBody = { ...object({ name: text(200), secrets: secretsSchema, settings: settingsSchema }), minProperties: 1 } as const;
export const connectionResponse = object({ connection: connectionSchema }, ['connection']);
export const connectionListResponse = object({ connections: { type: 'array', items: connectionSchema } }, ['connections']);

export const identitySchema = object(
  {
    id: uuid,
    user_id: uuid,
    provider: { type: 'string', enum: [...IDENTITY_PROVIDERS] },
    external_user_id: { type: 'string', description: 'Slack or Linear user id; GitHub or GitLab numeric user id (never the login)' },
    external_name: { type: ['string', 'null'], description: 'A readable name (GitHub or GitLab: the login when linked)' },
    email: { type: ['string', 'null'] },
    linked_via: { type: 'string', enum: ['email', 'explicit'] },
    created_at: dateTime,
  },
  ['id', 'user_id', 'provider', 'external_user_id', 'external_name', 'email', 'linked_via', 'created_at'],
);
export const identityParams = object({ identityId: uuid }, ['identityId']);
export const linkIdentityBody = object(
  { provider: { type: 'string', enum: [...IDENTITY_PROVIDERS] }, external_user_id: text(200), external_name: text(200), user_id: uuid },
  ['provider', 'external_user_id'],
);
export const identityResponse = object({ connection: identitySchema }, ['connection']);
export const identityListResponse = object({ connections: { type: 'array', items: identitySchema } }, ['connections']);

export type CreateConnectionInput = BodyOf<typeof createConnectionBody>;
export type PatchConnectionInput = BodyOf<typeof patchConnectionBody>;
export type LinkIdentityInput = BodyOf<typeof linkIdentityBody>;
