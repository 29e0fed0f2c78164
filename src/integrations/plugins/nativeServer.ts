/**
 * Serves one native plugin over MCP's streamable HTTP with the official SDK, statelessly: each
 * request gets a fresh server and transport (no session to keep between the API processes a
 * workspace's requests may reach), answers come as JSON, and the optional standalone event
 * stream (GET) and session end (DELETE) are answered 405, which the protocol allows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../logger';
import { argumentProblem, type NativePlugin, type NativeToolContext } from './native';

const SERVER_VERSION = '1.0.0';

function buildServer(plugin: NativePlugin, ctx: NativeToolContext, logger: Logger): Server {
  const server = new Server({ name: `hangar-${plugin.slug}`, version: SERVER_VERSION }, { capabilities: { tools: {} }, instructions: plugin.description });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: plugin.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = plugin.tools.find((t) => t.name === request.params.name);
    const fail = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
    if (!tool) return fail(`unknown tool ${request.params.name}; the ${plugin.slug} plugin has ${plugin.tools.map((t) => t.name).join(', ')}`);
    const args = request.params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) return fail(`invalid arguments: ${problem}`);
    try {
      const outcome = await tool.run(args, ctx);
      return { content: [{ type: 'text', text: outcome.text }], ...(outcome.isError ? { isError: true } : {}) };
    } catch (err) {
      logger.error('a native plugin tool failed', { plugin: plugin.slug, tool: tool.name, workspaceId: ctx.workspaceId, err: err as Error });
      return fail('the tool failed inside Hangar; try again later');
    }
  });
  return server;
}

/** Answers one MCP request of a workspace to a native plugin on `res`. */
export async function serveNativePlugin(plugin: NativePlugin, ctx: NativeToolContext, req: IncomingMessage, res: ServerResponse, logger: Logger): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server keeps no session and offers no event stream' }, id: null }));
    return;
  }
  const server = buildServer(plugin, ctx, logger);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}
