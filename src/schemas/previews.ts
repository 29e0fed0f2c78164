/** Preview URLs (interop §6 and docs/decisions/previews.md "Previews"). */
import { LINK_MAX_SECONDS } from '../domain/previews';
import { type BodyOf, dateTime, type JsonSchema, object, uuid } from './common';

export const port = { type: 'integer', minimum: 1, maximum: 65535, description: 'A port of the workspace (1–65535)' } as const;

export const workspaceParams = object({ workspaceId: uuid }, ['workspaceId']);
export const workspacePortParams = object({ workspaceId: uuid, port }, ['workspaceId', 'port']);
export const portParams = object({ port }, ['port']);
export const linkParams = object({ workspaceId: uuid, port, linkId: uuid }, ['workspaceId', 'port', 'linkId']);

export const createPreviewBody = object(
  {
    port,
    authenticated: { type: 'boolean', description: 'Only members (API key in X-Hangar-Api-Key, or a signed link) may open it; default false (public)' },
  },
  ['port'],
);

export const createLinkBody = object({
  expires_in_seconds: { type: 'integer', minimum: 60, maximum: LINK_MAX_SECONDS, description: 'Default 900 (15 minutes), at most 86400 (24 h)' },
});

export const previewSchema: JsonSchema = object(
  {
    port,
    url: { type: 'string', format: 'uri', description: 'Host form `{port}-{token}.{domain}` (the domain `localhost` unless HANGAR_PREVIEW_DOMAIN is set), or `/preview/{token}/` on the preview listener (HANGAR_PREVIEW_PORT, without a domain); never the API\'s own origin' },
    authenticated: { type: 'boolean' },
    created_at: dateTime,
  },
  ['port', 'url', 'authenticated', 'created_at'],
);

export const deletePreviewResponse: JsonSchema = object({ success: { type: 'boolean' }, port: { type: 'integer' } }, ['success', 'port']);

export const previewLinkSchema: JsonSchema = object(
  {
    id: uuid,
    url: { type: 'string', format: 'uri', description: 'Opens the preview once in a browser: sets a cookie scoped to the preview and redirects to the URL without the link' },
    expires_at: dateTime,
  },
  ['id', 'url', 'expires_at'],
);

export const previewListAnswer = object({ previews: { type: 'array', items: previewSchema } }, ['previews']);
export const previewEnvelope = object({ preview: previewSchema }, ['preview']);
export const previewLinkEnvelope = object({ link: previewLinkSchema }, ['link']);

export type CreatePreviewInput = BodyOf<typeof createPreviewBody>;
export type CreatePreviewLinkInput = BodyOf<typeof createLinkBody>;
