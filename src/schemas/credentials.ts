import { AGENT_IDS } from '../agents/catalog';
import { SECRET_MAX_BYTES } from '../domain/credentialSecrets';
import { type BodyOf, dateTime, type JsonSchema, object, uuid } from './common';

export const agentId = { enum: [...AGENT_IDS] } as const;
export const agentParams = object({ agent: agentId }, ['agent']);

const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
const secretFields = (description: string) => ({ minLength: 1, maxLength: SECRET_MAX_BYTES, description, writeOnly: true, 'x-secret': true }) as const;
const secret = (description: string) => ({ type: 'string', ...secretFields(description) }) as const;
const nullableSecret = (description: string) => ({ type: ['string', 'null'], ...secretFields(description) }) as const;

export const setCredentialBody = object(
  {
    kind: { enum: ['api_key', 'oauth_token'], description: 'agent_3 and agent_5 take api_key only' },
    secret: secret(`The API key or OAuth access token; at most ${SECRET_MAX_BYTES} bytes, no control characters`),
    refresh_token: nullableSecret('OAuth refresh token (oauth_token only)'),
    expires_at: { ...nullableDateTime, description: 'When the OAuth access token expires (oauth_token only)' },
  },
  ['kind', 'secret'],
);

const scope: JsonSchema = { enum: ['organization', 'personal'] };

export const credentialSchema: JsonSchema = {
  type: 'object',
  required: ['agent', 'scope', 'configured'],
  properties: {
    agent: agentId,
    scope,
    configured: { type: 'boolean' },
    id: { type: ['string', 'null'], format: 'uuid' },
    kind: { enum: ['api_key', 'oauth_token', null] },
    masked_secret: { type: ['string', 'null'], description: '`••••` followed by the last four characters (none for secrets under 12 characters)' },
    has_refresh_token: { type: 'boolean' },
    expires_at: nullableDateTime,
    created_at: nullableDateTime,
    updated_at: nullableDateTime,
    last_used_at: nullableDateTime,
  },
  description: 'Members see only agent, scope and configured for organization credentials',
};

export const credentialEnvelope = object({ credential: credentialSchema }, ['credential']);

export const credentialsOverviewSchema = object(
  {
    credentials: {
      type: 'array',
      items: object({
        agent: agentId,
        accepted_kinds: { type: 'array', items: { enum: ['api_key', 'oauth_token'] } },
        organization: credentialSchema,
        personal: { anyOf: [credentialSchema, { type: 'null' }], description: 'null for organization API keys' },
        effective_source: { enum: ['organization', 'personal', null], description: 'Which credential a workspace of the caller would use' },
      }),
    },
  },
  ['credentials'],
);

/** The original's one-agent routes (`/v1/agent_4-go/...`), camelCase as its clients expect. */
export const legacyCredentialBody = object({ api_key: secret('The agent_4 key') }, ['api_key']);

export const legacyCredentialSchema: JsonSchema = {
  type: 'object',
  required: ['hasCredentials'],
  properties: {
    hasCredentials: { type: 'boolean' },
    credentialId: uuid,
    apiKey: { type: 'string', description: 'Masked: `••••` and at most the last four characters' },
    lastFetchedAt: dateTime,
  },
};

export const legacyCreatedSchema = object({ success: { const: true }, credentialId: uuid }, ['success', 'credentialId']);

export type CredentialInput = BodyOf<typeof setCredentialBody>;
export type LegacyCredentialInput = BodyOf<typeof legacyCredentialBody>;
