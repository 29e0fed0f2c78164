/**
 * A third-party MCP server for plugin tests, built with the official SDK's server over
 * streamable HTTP as real ones are: stateful (an `mcp-session-id` from `initialize` on), its
 * answers as event streams, and bearer tokens required (401 without one it accepts). It records
 * every request (method, the bearer token, the headers), and its `whoami` tool answers the
 * token its caller sent, so a test can tell whose secret reached it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface FakeMcpCall {
  method: string;
  /** The bearer token, or null. */
  token: string | null;
  headers: IncomingHttpHeaders;
}

export interface FakeMcpServer {
  url: string;
  calls: FakeMcpCall[];
  /** Tokens it accepts; a request with another (or none) is 401. */
  tokens: Set<string>;
  close(): Promise<void>;
}

const bearerOf = (headers: IncomingHttpHeaders) => /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? null;

function buildServer(): Server {
  const server = new Server({ name: 'fake-third-party', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'whoami', description: 'Answers the bearer token of the request that called it.', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name !== 'whoami') return { isError: true, content: [{ type: 'text', text: `unknown tool ${request.params.name}` }] };
    const headers = (extra.requestInfo?.headers ?? {}) as IncomingHttpHeaders;
    return { content: [{ type: 'text', text: JSON.stringify({ token: bearerOf(headers), tenant: headers['x-tenant'] ?? null }) }] };
  });
  return server;
}

export async function startFakeMcpServer(tokens: string[]): Promise<FakeMcpServer> {
  const calls: FakeMcpCall[] = [];
  const accepted = new Set(tokens);
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const token = bearerOf(req.headers);
    calls.push({ method: req.method ?? '', token, headers: req.headers });
    if (!token || !accepted.has(token)) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="fake"' });
      return void res.end(JSON.stringify({ error: 'invalid_token' }));
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (typeof sessionId === 'string') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      }
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void sessions.set(id, fresh),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      transport = fresh;
      await buildServer().connect(fresh);
    }
    await transport.handleRequest(req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    calls,
    tokens: accepted,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
