/**
 * Preview URLs of a workspace's ports (interop §6): created, listed and deleted with an API
 * key or from inside the workspace with its engine secret; signed links for authenticated
 * ones. The traffic itself goes through the preview proxy (src/http/previewProxy/).
 */
import type { Context } from 'koa';
import { successSchema } from '../../schemas/common';
import {
  createLinkBody,
  createPreviewBody,
  deletePreviewResponse,
  linkParams,
  portParams,
  previewEnvelope,
  previewLinkEnvelope,
  previewListAnswer,
  workspaceParams,
  workspacePortParams,
} from '../../schemas/previews';
import type { PreviewsService } from '../../services/previews';
import { defineRoute, type Route } from '../route';

const tag = 'Preview';
/** The URL the request came in on (Koa trusts X-Forwarded-Proto and -Host: `app.proxy`). */
const originOf = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;
const base = '/v1/workspaces/:workspaceId/previews';

export function previewRoutes(previews: PreviewsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: base,
      operationId: 'listWorkspacePreviews',
      summary: "The workspace's shared ports and their URLs (API key, or the workspace's engine secret)",
      tag,
      auth: 'apiKeyOrEngine',
      params: workspaceParams,
      response: { status: 200, description: 'The previews, by port', schema: previewListAnswer },
      errors: [400, 401, 404],
      handler: async ({ actor, params, ctx }) => ({ previews: await previews.list(actor, params.workspaceId, originOf(ctx)) }),
    }),
    defineRoute({
      method: 'post',
      path: base,
      operationId: 'createWorkspacePreview',
      summary: 'Share a port of the workspace at a URL, public or for members only',
      tag,
      auth: 'apiKeyOrEngine',
      params: workspaceParams,
      body: createPreviewBody,
      response: {
        status: 201,
        description: 'The new preview',
        schema: previewEnvelope,
        alternate: { status: 200, description: 'The port was already shared: its preview, URL unchanged, `authenticated` as asked' },
      },
      errors: [400, 401, 404],
      handler: async ({ actor, params, body, ctx, useAlternate }) => {
        const { preview, created } = await previews.create(actor, params.workspaceId, body, originOf(ctx));
        if (!created) useAlternate();
        return { preview };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:port`,
      operationId: 'deleteWorkspacePreview',
      summary: 'Stop sharing a port; its URL and links stop working at once',
      tag,
      auth: 'apiKeyOrEngine',
      params: workspacePortParams,
      response: { status: 200, description: 'Preview deleted', schema: deletePreviewResponse },
      errors: [400, 401, 404],
      handler: async ({ actor, params, ctx }) => previews.remove(actor, params.workspaceId, params.port, originOf(ctx)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/previews/:port',
      operationId: 'deleteAgentPreview',
      summary: "Agent mode: stop sharing a port of the calling workspace (engine secret and X-Workspace-Id)",
      tag,
      auth: 'apiKeyOrEngine',
      params: portParams,
      response: { status: 200, description: 'Preview deleted', schema: deletePreviewResponse },
      errors: [400, 401, 404],
      handler: async ({ actor, params, ctx }) => previews.removeOwn(actor, params.port, originOf(ctx)),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:port/links`,
      operationId: 'createWorkspacePreviewLink',
      summary: 'A signed, expiring, revocable link that opens the preview in a browser',
      tag,
      auth: 'apiKeyOrEngine',
      params: workspacePortParams,
      body: createLinkBody,
      bodyOptional: true,
      response: { status: 201, description: 'The link', schema: previewLinkEnvelope },
      errors: [400, 401, 404],
      handler: async ({ actor, params, body, ctx }) => previews.createLink(actor, params.workspaceId, params.port, body?.expires_in_seconds, originOf(ctx)),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:port/links/:linkId`,
      operationId: 'revokeWorkspacePreviewLink',
      summary: 'Revoke a link: it and the browser sessions it opened stop working at once',
      tag,
      auth: 'apiKeyOrEngine',
      params: linkParams,
      response: { status: 200, description: 'Revoked', schema: successSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => previews.revokeLink(actor, params.workspaceId, params.port, params.linkId),
    }),
  ];
}
