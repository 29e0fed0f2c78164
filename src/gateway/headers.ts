/**
 * Which headers cross the gateway. Hop-by-hop headers (RFC 9110 §7.6.1, plus any the
 * Connection header names) belong to one connection and never cross; `host` is the
 * upstream's; the client's auth headers carry the placeholder, which never leaves Hangar.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isGatewayKey } from '../domain/gatewayKey';

export type HeaderMap = Record<string, string | string[]>;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * Also kept back from the provider: the placeholder's headers; `expect` (the gateway streams
 * the body without a 100-continue round); and the forwarding headers of a reverse proxy in
 * front of Hangar, which describe the hop to Hangar, not to the provider.
 */
const NOT_FORWARDED = new Set(['host', 'authorization', 'x-api-key', 'expect', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'x-real-ip']);

function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  const list = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    list
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
}

function copy(headers: IncomingHttpHeaders, skip: (name: string) => boolean): HeaderMap {
  const named = connectionTokens(headers);
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || named.has(lower) || skip(lower)) continue;
    out[lower] = value;
  }
  return out;
}

/**
 * The client's headers as they go upstream. `accept-encoding: identity` asks for an
 * uncompressed answer, so server-sent events pass event by event and the usage fields can
 * be read on the way; `content-length` stays only with a body (a streamed body keeps the
 * client's length, or goes chunked without one).
 */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, hasBody: boolean): HeaderMap {
  const out = copy(incoming, (name) => NOT_FORWARDED.has(name) || (!hasBody && name === 'content-length'));
  out['accept-encoding'] = 'identity';
  return out;
}

/** The provider's answer headers as they go to the client. */
export function clientResponseHeaders(upstream: IncomingHttpHeaders): HeaderMap {
  return copy(upstream, () => false);
}

/**
 * The placeholder the client sent: `x-api-key` (Anthropic clients) or `Authorization: Bearer`
 * (OpenAI-style clients); when both are there, the one shaped like a gateway key.
 */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const apiKey = typeof headers['x-api-key'] === 'string' ? headers['x-api-key'].trim() : '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1] ?? '';
  const presented = [apiKey, bearer].filter(Boolean);
  return presented.find(isGatewayKey) ?? presented[0] ?? null;
}
