/**
 * Forwards a workspace's MCP requests (streamable HTTP: JSON-RPC posts answered with JSON or
 * an event stream, the optional GET event stream and the session-ending DELETE) to a
 * third-party plugin's server, adding the plugin's secret on the way. undici, as in the AI
 * gateway: Node's own maintained client, streaming both bodies and cancelled with the client.
 * Only the protocol's own headers cross in either direction, so the workspace's engine secret
 * never leaves Hangar and the upstream's cookies or auth challenges never reach the agent.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { IncomingHttpHeaders } from 'node:http';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';

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

/**
 * Addresses a plugin URL may never reach from Hangar: link-local (cloud metadata services
 * live there: 169.254.169.254, fd00:ec2::254) and unspecified ones. Private and loopback
 * networks stay allowed: a self-hosted team runs its MCP servers there.
 */
const blocked = new BlockList();
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addSubnet('0.0.0.0', 8, 'ipv4');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addAddress('::', 'ipv6');
blocked.addAddress('fd00:ec2::254', 'ipv6');

export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** DNS lookup that refuses a name resolving to a blocked address (undici connects through it). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = (addresses as LookupAddress[]).filter((a) => !isBlockedAddress(a.address));
    if (list.length === 0) return callback(Object.assign(new Error(`${hostname} resolves only to link-local or unspecified addresses`), { code: 'EADDRBLOCKED' }), '', 0);
    if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

function reasonOf(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown; message?: unknown }; name?: unknown };
  const code = e.cause?.code ?? e.code;
  return typeof code === 'string' ? code : typeof e.name === 'string' ? e.name : 'error';
}

export function createMcpProxy() {
  const dispatcher = new Agent({ headersTimeout: SILENCE_LIMIT_MS, bodyTimeout: SILENCE_LIMIT_MS, connect: { lookup: guardedLookup, timeout: 10_000 } });

  return {
    async forward(upstream: UpstreamMcpServer, req: McpProxyRequest): Promise<McpProxyAnswer> {
      const url = new URL(upstream.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isBlockedAddress(host)) return { ok: false, reason: `${url.host} is a link-local or unspecified address` };
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
