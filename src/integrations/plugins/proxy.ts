/**
 * Forwards a workspace's MCP requests (streamable HTTP: JSON-RPC posts answered with JSON or
 * an event stream, the optional GET event stream and the session-ending DELETE) to a
 * third-party plugin's server, adding the plugin's secret on the way. undici, as in the AI
 * gateway: Node's own maintained client, streaming both bodies and cancelled with the client.
 * Only the protocol's own headers cross in either direction, so the workspace's engine secret
 * never leaves Hangar and the upstream's cookies or auth challenges never reach the agent.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { isNeverReachable, type OutboundPolicy } from '../outbound/addressGuard';

export interface UpstreamMcpServer {
  url: string;
  /** The plugin's own headers and its secret's header. */
  headers: Record<string, string>;
}

export interface McpProxyRequest {
  method: string;
  headers: IncomingHttpHeaders;
  body: Readable | null;
  signal: AbortSignal;
}

export type McpProxyAnswer =
  | { ok: true; status: number; headers: Record<string, string | string[]>; body: Readable }
  | { ok: false; reason: string };

/** What the client's request carries to the server (streamable HTTP, MCP 2025-03-26 and later). */
const REQUEST_HEADERS = ['accept', 'content-type', 'content-length', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'];
/** What the server's answer carries back. */
const RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'mcp-protocol-version', 'cache-control'];

/** A tool call may think for long before its answer starts, and an event stream stays open. */
const SILENCE_LIMIT_MS = 30 * 60_000;

/** Kept for the install-time check of a URL's literal address; the proxy applies the whole policy. */
export const isBlockedAddress = isNeverReachable;

function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown; message?: unknown }; name?: unknown };
  const code = e.cause?.code ?? e.code;
  return typeof code === 'string' ? code : typeof e.name === 'string' ? e.name : 'error';
}

/** `policy` says where a plugin's server may be (the SSRF guard), checked on the URL and again at connect time. */
export function createMcpProxy(policy: OutboundPolicy) {
  const dispatcher = policy.dispatcher({ headersTimeout: SILENCE_LIMIT_MS, bodyTimeout: SILENCE_LIMIT_MS, connect: { timeout: 10_000 } });

  return {
    async forward(upstream: UpstreamMcpServer, req: McpProxyRequest): Promise<McpProxyAnswer> {
      const url = new URL(upstream.url);
      const refused = await policy.checkUrl(url.href);
      if (refused) return { ok: false, reason: `${url.host} is not allowed: ${refused}` };
      const headers: Record<string, string | string[]> = { 'accept-encoding': 'identity' };
      for (const name of REQUEST_HEADERS) {
        const value = req.headers[name];
        if (value !== undefined && !(name === 'content-length' && !req.body)) headers[name] = value;
      }
      Object.assign(headers, upstream.headers);
      let answer: Dispatcher.ResponseData;
      try {
        // undici follows no redirect: a plugin URL cannot bounce the request (and its secret) elsewhere.
        answer = await request(url, { method: req.method as Dispatcher.HttpMethod, headers, body: req.body ?? undefined, signal: req.signal, dispatcher });
      } catch (err) {
        return { ok: false, reason: `${url.host} (${reasonOf(err)})` };
      }
      const out: Record<string, string | string[]> = {};
      for (const name of RESPONSE_HEADERS) {
        const value = answer.headers[name];
        if (value !== undefined) out[name] = value;
      }
      return { ok: true, status: answer.statusCode, headers: out, body: answer.body };
    },

    async close(): Promise<void> {
      await dispatcher.destroy();
    },
  };
}

export type McpProxy = ReturnType<typeof createMcpProxy>;
