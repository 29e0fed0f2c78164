/**
 * Plugins: the native catalog, organization installs (`/v1/plugins`, admins write), members'
 * own (`/v1/user/plugins`), the plugins a workspace gets, and the MCP endpoint a workspace's
 * agent reaches them at (engine secret only; the MCP traffic passes untouched).
 */
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import { markWorkspaceVerified } from '../verifiedWorkspace';
import { successSchema } from '../../schemas/common';
import {
  catalogSchema,
  installPluginBody,
  pluginEnvelope,
  pluginIdParams,
  pluginListSchema,
  updatePluginBody,
  workspaceParams,
  workspacePluginParams,
  workspacePluginsSchema,
} from '../../schemas/plugins';
import type { PluginsScope, PluginsService } from '../../services/plugins';
import { defineRoute, type Route, type RouteInput } from '../route';

const tag = 'Plugins';
type EndpointP = { workspaceId: string; installId: string };

function scopedRoutes(plugins: PluginsService, scope: PluginsScope): Route[] {
  const base = scope === 'org' ? '/v1/plugins' : '/v1/user/plugins';
  const Op = scope === 'org' ? 'Organization' : 'User';
  const who = scope === 'org' ? "the organization's" : "the caller's own";
  // Personal routes refuse organization keys (403); organization writes refuse members (403).
  const errors = [400, 401, 403, 404];
  return [
    defineRoute({
      method: 'get',
      path: base,
      operationId: `list${Op}Plugins`,
      summary: `List ${who} plugin installs`,
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The installs, by slug', schema: pluginListSchema },
      errors: scope === 'org' ? [401] : [401, 403],
      handler: ({ actor }) => plugins.list(actor, scope),
    }),
    defineRoute({
      method: 'post',
      path: base,
      operationId: `install${Op}Plugin`,
      summary: scope === 'org' ? 'Install a plugin for every member (admins)' : 'Install a plugin for yourself; it replaces the organization\'s install of the same slug in your workspaces',
      tag,
      auth: 'apiKey',
      body: installPluginBody,
      response: { status: 201, description: 'Installed', schema: pluginEnvelope },
      errors: [400, 401, 403, 409],
      handler: ({ actor, body }) => plugins.install(actor, scope, body),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:id`,
      operationId: `get${Op}Plugin`,
      summary: `One of ${who} plugin installs`,
      tag,
      auth: 'apiKey',
      params: pluginIdParams,
      response: { status: 200, description: 'The install', schema: pluginEnvelope },
      errors,
      handler: ({ actor, params }) => plugins.get(actor, scope, params.id),
    }),
    defineRoute({
      method: 'patch',
      path: `${base}/:id`,
      operationId: `update${Op}Plugin`,
      summary: 'Rename, enable or disable an install, or replace its config or secret',
      tag,
      auth: 'apiKey',
      params: pluginIdParams,
      body: updatePluginBody,
      response: { status: 200, description: 'The install as changed', schema: pluginEnvelope },
      errors,
      handler: ({ actor, params, body }) => plugins.update(actor, scope, params.id, body),
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:id`,
      operationId: `delete${Op}Plugin`,
      summary: 'Uninstall: workspaces stop getting it at their next turn',
      tag,
      auth: 'apiKey',
      params: pluginIdParams,
      response: { status: 200, description: 'Uninstalled', schema: successSchema },
      errors,
      handler: ({ actor, params }) => plugins.remove(actor, scope, params.id),
    }),
  ];
}

const hasBody = (ctx: Context) => ctx.method === 'POST' && (ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || '0') > 0);

/** The MCP endpoint: a native plugin answers here; a third-party one is forwarded and streamed back. */
async function endpoint(plugins: PluginsService, { params, ctx }: RouteInput<EndpointP, unknown, unknown>): Promise<void> {
  const target = await plugins.openEndpoint(params.workspaceId, params.installId, ctx.get('x-workspace-id'), ctx.get('authorization'));
  // Opening it checked the engine secret of the workspace X-Workspace-Id names (the path's).
  markWorkspaceVerified(ctx, ctx.get('x-workspace-id'));
  if (target.kind === 'native') {
    ctx.respond = false;
    await target.serve(ctx.req, ctx.res);
    return;
  }
  const clientGone = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) clientGone.abort();
  });
  const answer = await target.forward({ method: ctx.method, headers: ctx.req.headers, body: hasBody(ctx) ? ctx.req : null, signal: clientGone.signal });
  if (!answer.ok) {
    ctx.status = 502;
    ctx.body = { error: 'The plugin\'s server could not be reached', details: answer.reason };
    return;
  }
  ctx.respond = false;
  ctx.res.socket?.setNoDelay(true);
  ctx.res.writeHead(answer.status, answer.headers);
  ctx.res.flushHeaders();
  // Event streams pass event by event; a client leaving cancels the upstream request.
  await pipeline(answer.body, ctx.res).catch(() => undefined);
}

export function pluginRoutes(plugins: PluginsService): Route[] {
  const mcp = {
    path: '/v1/workspaces/:workspaceId/plugins/:installId/mcp',
    tag,
    auth: 'none' as const,
    workspaceCredential: 'engineSecret' as const,
    ownBody: true,
    raw: true,
    params: workspacePluginParams,
    response: {
      status: 200,
      description:
        "MCP streamable HTTP: the plugin's JSON-RPC answer (JSON or an event stream). Engine secret only: `Authorization: Bearer <engine secret>` with `X-Workspace-Id`; 401 without them, 404 for another workspace or a plugin this workspace does not get, 502 when a third-party server cannot be reached",
      contentType: '*/*',
    },
    errors: [401, 404, 502],
    handler: (input: RouteInput<EndpointP, unknown, unknown>) => endpoint(plugins, input),
  };
  return [
    defineRoute({
      method: 'get',
      path: '/v1/plugins/catalog',
      operationId: 'listPluginCatalog',
      summary: 'The native plugins Hangar serves, and whether this deployment can serve each',
      tag,
      auth: 'apiKey',
      response: { status: 200, description: 'The catalog', schema: catalogSchema },
      errors: [401],
      handler: () => plugins.catalog(),
    }),
    ...scopedRoutes(plugins, 'org'),
    ...scopedRoutes(plugins, 'user'),
    defineRoute({
      method: 'get',
      path: '/v1/workspaces/:workspaceId/plugins',
      operationId: 'listWorkspacePlugins',
      summary: "The plugins a workspace gets: the organization's, with its owner's own installs in their place (API key, or the workspace's engine secret)",
      tag,
      auth: 'apiKeyOrEngine',
      params: workspaceParams,
      response: { status: 200, description: 'The plugins, by slug', schema: workspacePluginsSchema },
      errors: [400, 401, 404],
      handler: ({ actor, params }) => plugins.workspacePlugins(actor, params.workspaceId),
    }),
    defineRoute({ ...mcp, method: 'post', operationId: 'postWorkspacePluginMcp', summary: "A workspace's MCP request to one of its plugins" }),
    defineRoute({ ...mcp, method: 'get', operationId: 'getWorkspacePluginMcp', summary: "A workspace's MCP event stream from one of its plugins (when the plugin's server offers one)" }),
    defineRoute({ ...mcp, method: 'delete', operationId: 'deleteWorkspacePluginMcp', summary: "Ends a workspace's MCP session with one of its plugins (when the plugin's server keeps one)" }),
  ];
}

