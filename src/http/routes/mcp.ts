/**
 * `POST /v1/mcp`: the replica tools as an MCP server over Streamable HTTP (src/mcp/http.ts).
 * The route is an ordinary one up to its handler: rate-limited, authenticated by bearer key
 * and its JSON body read within the `messages` limit (a tool call may carry a message's
 * images). From there the SDK writes the answer: JSON-RPC, whose protocol errors are JSON-RPC
 * error objects as MCP clients read them, while the tools' own failures are tool results.
 */
import { handleMcpRequest } from '../../mcp/http';
import { mcpAnswer, mcpBody } from '../../schemas/mcp';
import { defineRoute, type Route } from '../route';

export function mcpRoutes(options: { version: string }): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/mcp',
      operationId: 'mcp',
      summary:
        'The replica tools as an MCP server (Streamable HTTP, stateless: no session, JSON answers). Send MCP JSON-RPC messages with ' +
        '`Accept: application/json, text/event-stream`; each tool calls this API with the same key.',
      tag: 'MCP',
      auth: 'apiKey',
      raw: true,
      body: mcpBody,
      bodyLimit: 'messages',
      response: {
        status: 200,
        description: 'The JSON-RPC answer (202 with no body for notifications); protocol errors are JSON-RPC error objects',
        contentType: 'application/json',
        schema: mcpAnswer,
      },
      errors: [400, 401, 413, 415, 429],
      handler: async ({ ctx, body }) => {
        // The route authenticated this bearer key; the tools present the same one to the API.
        const apiKey = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))![1]!;
        ctx.respond = false;
        try {
          await handleMcpRequest({ req: ctx.req, res: ctx.res, body, apiKey, version: options.version, requestId: ctx.state.requestId });
        } catch (err) {
          // Nothing written yet: Koa answers after all, with the error middleware's Error body.
          if (!ctx.res.headersSent) ctx.respond = true;
          throw err;
        }
      },
    }),
  ];
}
