/**
 * The MCP server over Streamable HTTP, stateless: every POST gets a new server and transport
 * (the SDK's pattern for a server that keeps no sessions), answered with plain JSON. Its tools
 * call the API back over the connection's own local address with the key the request came
 * with, so each tool call is authenticated, limited and confined to the caller's organization
 * exactly as the same call over HTTP would be.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer } from './server';

/**
 * The URL of the listener a request arrived on, as seen from this host: the socket's local
 * address and port. IPv6 goes in brackets; a zone (`fe80::1%eth0`) cannot be written in a URL,
 * so such an address is reached through the loopback of its family instead (the same listener
 * when it is bound to every interface, which is what a zoned address implies here).
 */
export function loopbackBaseUrl(socket: { localAddress?: string; localPort?: number }): string {
  const address = socket.localAddress;
  const port = socket.localPort;
  if (!address || !port) throw new Error('the request has no local address to call back');
  if (address.includes('%')) return `http://[::1]:${port}`;
  if (isIP(address) === 6) return `http://[${address}]:${port}`;
  return `http://${address}:${port}`;
}

export interface McpHttpRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The JSON body, already read and parsed within the route's size limit. */
  body: unknown;
  /** The caller's API key, already verified by the route; tool calls carry it. */
  apiKey: string;
  version: string;
  /** Passed on to the API calls the tools make, so the access log ties them to this request. */
  requestId: string;
}

/** Answers one MCP POST; resolves once the answer is written. */
export async function handleMcpRequest(request: McpHttpRequest): Promise<void> {
  const server = createMcpServer({
    baseUrl: loopbackBaseUrl(request.req.socket),
    apiKey: request.apiKey,
    version: request.version,
    headers: { 'x-request-id': request.requestId },
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  // The tools' calls are abandoned when the client goes away; the SDK aborts them on close.
  request.res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request.req, request.res, request.body);
}
