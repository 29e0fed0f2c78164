/** Plugin installs (`/v1/plugins`, `/v1/user/plugins`), the native catalog and a workspace's plugins. */
import { SECRET_MAX_BYTES } from '../domain/credentialSecrets';
import { INTEGRATIONS, PLUGIN_KINDS, PLUGIN_SLUG_PATTERN } from '../domain/plugins';
import { type BodyOf, dateTime, type JsonSchema, nullableUuid, object, uuid } from './common';
import { remoteConfigSchema, stdioConfigSchema } from './environmentResources';

const headerName = { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 256 } as const;
const kind = { enum: [...PLUGIN_KINDS], description: '`native`: served by Hangar (see the catalog); `http`: an MCP server over streamable HTTP; `stdio`: a command run inside the workspace' } as const;
const provides = { enum: [...INTEGRATIONS, null], description: 'The integration this plugin gives the workspace (reported in the replica\'s environment block); native plugins have their own' } as const;
const scope = { enum: ['org', 'user'] } as const;

export const pluginIdParams = object({ id: uuid }, ['id']);
export const workspacePluginParams = object({ workspaceId: uuid, installId: uuid }, ['workspaceId', 'installId']);
export const workspaceParams = object({ workspaceId: uuid }, ['workspaceId']);

export const pluginSecretBody = object(
  {
    type: { enum: ['api_key', 'oauth_token'] },
    value: { type: 'string', minLength: 1, maxLength: SECRET_MAX_BYTES, writeOnly: true, 'x-secret': true, description: 'Sealed at rest; never shown again' },
    header: { ...headerName, description: 'Where Hangar sends it: `Authorization` (default; the value goes as `Bearer <value>`) or another header (an api_key only; the value as it is)' },
  },
  ['type', 'value'],
);

/** The config must fit the kind named beside it. */
const configByKind = [
  { if: { type: 'object', required: ['kind'], properties: { kind: { const: 'stdio' } } }, then: { type: 'object', properties: { config: stdioConfigSchema } } },
  { if: { type: 'object', required: ['kind'], properties: { kind: { const: 'http' } } }, then: { type: 'object', properties: { config: remoteConfigSchema } } },
] as const;

export const installPluginBody = {
  ...object(
    {
      slug: { type: 'string', pattern: PLUGIN_SLUG_PATTERN, description: 'Names the plugin in its scope; a member\'s install of a slug replaces the organization\'s in their workspaces. A native plugin\'s slug is its catalog slug' },
      kind,
      name: { type: 'string', minLength: 1, maxLength: 100 },
      provides,
      enabled: { type: 'boolean', default: true },
      config: { type: 'object', description: 'http: `{url, headers{}}` (headers without secrets); stdio: `{command, args[], env{}}` (nothing secret). None for native plugins' },
      secret: pluginSecretBody,
    },
    ['slug', 'kind'],
  ),
  allOf: configByKind,
} as const;

export const updatePluginBody = object({
  name: { type: 'string', minLength: 1, maxLength: 100 },
  provides,
  enabled: { type: 'boolean' },
  config: { type: 'object', description: "A whole new config for the plugin's kind" },
  secret: { anyOf: [pluginSecretBody, { type: 'null' }], description: 'A new secret, or null to remove it' },
});

export const pluginSchema: JsonSchema = object(
  {
    id: uuid,
    organization_id: uuid,
    user_id: nullableUuid,
    scope,
    slug: { type: 'string' },
    name: { type: 'string' },
    kind,
    provides,
    enabled: { type: 'boolean' },
    config: { type: ['object', 'null'], description: 'null for native plugins' },
    secret: {
      anyOf: [object({ type: { enum: ['api_key', 'oauth_token'] }, header: { type: 'string' } }, ['type', 'header']), { type: 'null' }],
      description: 'Which secret is set and where it goes; never its value',
    },
    created_by: nullableUuid,
    created_at: dateTime,
    updated_at: dateTime,
  },
  ['id', 'organization_id', 'user_id', 'scope', 'slug', 'name', 'kind', 'provides', 'enabled', 'config', 'secret', 'created_by', 'created_at', 'updated_at'],
);

export const pluginEnvelope = object({ plugin: pluginSchema }, ['plugin']);
export const pluginListSchema = object({ plugins: { type: 'array', items: pluginSchema } }, ['plugins']);

export const catalogSchema = object(
  {
    plugins: {
      type: 'array',
      items: object(
        {
          slug: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          kind: { const: 'native' },
          provides,
          available: { type: 'boolean' },
          unavailable_reason: { type: ['string', 'null'] },
          tools: { type: 'array', items: object({ name: { type: 'string' }, description: { type: 'string' } }, ['name', 'description']) },
        },
        ['slug', 'name', 'description', 'kind', 'provides', 'available', 'unavailable_reason', 'tools'],
      ),
    },
  },
  ['plugins'],
);

/** A plugin as a workspace gets it (also in the replica's environment block). */
export const workspacePluginSchema = object(
  {
    id: uuid,
    slug: { type: 'string' },
    name: { type: 'string' },
    scope,
    kind,
    provides,
    mcp_server: { type: 'string', description: 'The server\'s name in the agent\'s MCP config (`hangar-<slug>`)' },
  },
  ['id', 'slug', 'name', 'scope', 'kind', 'provides', 'mcp_server'],
);

export const workspacePluginsSchema = object({ plugins: { type: 'array', items: workspacePluginSchema } }, ['plugins']);

export type PluginSecretInput = BodyOf<typeof pluginSecretBody>;
export type InstallPluginInput = BodyOf<typeof installPluginBody>;
export type UpdatePluginInput = BodyOf<typeof updatePluginBody>;
