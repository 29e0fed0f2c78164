/**
 * Hangar's MCP server: the replica tools over the typed client. Both transports build it the
 * same way; only where the client points and which key it carries differ (src/mcp/stdio.ts,
 * src/mcp/http.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createHangarClient } from '../../client/src';
import { registerReplicaTools } from './tools';

export interface McpServerOptions {
  /** Where Hangar's API answers. */
  baseUrl: string;
  /** The key every tool call is made with. */
  apiKey: string;
  /** The service's version, reported to clients at initialization. */
  version: string;
  /** Sent with every API call (the request id of the MCP request that made it). */
  headers?: Record<string, string>;
  fetch?: typeof globalThis.fetch;
}

export function createMcpServer(options: McpServerOptions): McpServer {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const extra = options.headers ?? {};
  const client = createHangarClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    userAgent: `hangar-mcp/${options.version}`,
    fetch: Object.keys(extra).length === 0 ? fetchImpl : (input, init) => {
      const request = new Request(input, init);
      for (const [name, value] of Object.entries(extra)) request.headers.set(name, value);
      return fetchImpl(request);
    },
  });
  const server = new McpServer(
    { name: 'hangar', title: 'Hangar', version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Hangar runs coding agents in workspaces called replicas. Create one with create_replica, wait with get_replica until it is active, ' +
        'talk to its agent with send_replica_message and follow the work with read_replica_history.',
    },
  );
  registerReplicaTools(server, { client, baseUrl: options.baseUrl });
  return server;
}
