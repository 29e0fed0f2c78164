/**
 * `/v1/ai-gateway/<agent>/<provider path>`: the AI gateway's front. The route reads neither
 * the body nor the key itself (no JSON parsing, no body limit, no API-key auth): it hands the
 * raw request to the gateway and streams the answer back, headers first, chunk by chunk.
 */
import { pipeline } from 'node:stream/promises';
import type { Context } from 'koa';
import type { AiGateway, GatewayAnswer } from '../../gateway';
import { gatewayParams as params } from '../../schemas/aiGateway';
import { defineRoute, type Route, type RouteInput } from '../route';
import { markWorkspaceVerified } from '../verifiedWorkspace';

const tag = 'AI gateway';
const PATH = '/v1/ai-gateway/:agent/*path';

/** The agent segment and everything after it, exactly as the client sent them. */
function splitUrl(url: string): { agent: string; target: string } {
  const match = /^\/[^/?]*\/[^/?]*\/([^/?]*)(.*)$/s.exec(url);
  return { agent: match?.[1] ?? '', target: match?.[2] ?? '' };
}

const hasBody = (ctx: Context) => ctx.method !== 'GET' && ctx.method !== 'HEAD' && (ctx.get('transfer-encoding') !== '' || Number(ctx.get('content-length') || '0') > 0);

async function respond(ctx: Context, answer: GatewayAnswer): Promise<void> {
  const res = ctx.res;
  ctx.respond = false;
  if (Buffer.isBuffer(answer.body)) {
    res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
    return;
  }
  // A client gone while the provider answered has no socket left: nothing to tune.
  ctx.req.socket?.setNoDelay(true);
  res.writeHead(answer.status, answer.headers);
  res.flushHeaders();
  // A client leaving or the provider breaking off ends the pipeline early; the gateway has
  // cancelled the upstream request and recorded how the answer ended.
  await pipeline(answer.body, res).catch(() => undefined);
}

export function aiGatewayRoutes(gateway: AiGateway): Route[] {
  const handler = async ({ ctx }: RouteInput<unknown, unknown, unknown>) => {
    // The client's own signals that it left: its request cut mid-body, or its connection
    // closed before the answer ended. Never the state of the body stream the gateway forwards.
    const clientGone = new AbortController();
    ctx.req.once('aborted', () => clientGone.abort());
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) clientGone.abort();
    });
    const { agent, target } = splitUrl(ctx.originalUrl);
    const answer = await gateway.forward({
      agent,
      method: ctx.method,
      target,
      headers: ctx.req.headers,
      body: hasBody(ctx) ? ctx.req : null,
      signal: clientGone.signal,
    });
    if (answer.verifiedReplicaId) markWorkspaceVerified(ctx, answer.verifiedReplicaId);
    if (clientGone.signal.aborted) {
      ctx.respond = false;
      ctx.res.statusCode = answer.status;
      if (!Buffer.isBuffer(answer.body)) answer.body.destroy();
      return;
    }
    await respond(ctx, answer);
  };
  const common = {
    path: PATH,
    tag,
    auth: 'none' as const,
    workspaceCredential: 'gatewayKey' as const,
    ownBody: true,
    raw: true,
    params,
    response: {
      status: 200,
      description:
        "The provider's answer with its own status, streamed as it arrives (server-sent events pass event by event). The gateway's own errors come in the provider's error shape, not Hangar's: 401 unknown or revoked placeholder or no credential for the agent, 403 an agent the workspace does not use or a model the organization has not enabled, 404 unknown agent, 502 provider unreachable. A path that would leave the agent's base path (dot segments, backslashes, encoded slashes in any spelling) is a 400 with Hangar's Error body",
      contentType: '*/*',
    },
    // 400 (a path outside the base) is Hangar's Error; the rest are the provider's error bodies,
    // documented in the response description.
    errors: [400],
    handler,
  };
  // One operation per method the agent CLIs use (GET also answers HEAD; OPTIONS is the router's).
  return [
    defineRoute({
      ...common,
      method: 'post',
      operationId: 'proxyAiGateway',
      summary:
        "Forward a coding agent's provider request with the workspace's placeholder key (x-api-key or Authorization: Bearer) replaced by the resolved credential; agent_1 speaks Anthropic's API, agents 2–5 OpenAI-style APIs",
    }),
    defineRoute({
      ...common,
      method: 'get',
      operationId: 'proxyAiGatewayGet',
      summary: 'The same forwarding for GET and HEAD requests (e.g. model lists)',
    }),
  ];
}
