/**
 * Preview URLs (docs/decisions/previews.md, "Previews"): where a preview is reached and how a request
 * names one. A preview is named by its token, 32 lowercase hex characters, so both forms are
 * DNS- and path-safe:
 *
 * - host form `{port}-{token}.{domain}`, the port repeated so a host name cannot be pointed at
 *   another port of the same workspace: the default, under `localhost` (browsers resolve every
 *   `*.localhost` name to loopback) or an operator's wildcard domain. Each preview is an origin
 *   of its own.
 * - path form `/preview/{token}/…`, only on a listener of its own (its own port, so never the
 *   API's origin), for deployments without wildcard DNS; every preview there shares that origin.
 *
 * Workspace content never runs on the API's origin: the proxy drops the response headers that
 * reach beyond one preview (`previewResponseHeaders`).
 */

export const PREVIEW_TOKEN = /^[0-9a-f]{32}$/;
/** The query parameter a signed link carries; it is swapped for a cookie and never forwarded. */
export const LINK_PARAM = 'hangar_preview_link';
/** The cookie a signed link sets: scoped to one preview (its host, or its path), SameSite=Strict. */
export const SESSION_COOKIE = 'hangar_preview';
/** The header a member's API key rides in, so the app's own `Authorization` stays the app's. */
export const API_KEY_HEADER = 'x-hangar-api-key';
/** Signed-link purposes: a link opens once into a session cookie; neither opens anything else. */
export const LINK_PURPOSE = 'preview-link';
export const SESSION_PURPOSE = 'preview-session';

export const LINK_DEFAULT_SECONDS = 15 * 60;
export const LINK_MAX_SECONDS = 24 * 60 * 60;

const PATH_PREFIX = '/preview/';

/** The preview domain when the operator sets none: every `*.localhost` name is loopback to a browser. */
export const DEFAULT_PREVIEW_DOMAIN = 'localhost';

/**
 * Where previews answer, as answers name them: the host form under a domain (on the API's
 * listener, a host of its own per preview), or the path form on the preview listener (its
 * port, and its public base URL when the operator gives one).
 */
export type PreviewOrigins = { form: 'host'; domain: string } | { form: 'path'; listenerPort: number; baseUrl: string | undefined };

export interface HostPreview {
  port: number;
  token: string;
}

/** A Host header without its port, lower case, no trailing dot. */
export function hostName(host: string | undefined): string {
  if (!host) return '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

/** Whether a host name lies under the preview domain (those requests never reach the API). */
export function isUnderDomain(host: string | undefined, domain: string | undefined): boolean {
  return !!domain && hostName(host).endsWith(`.${domain}`);
}

/** `{port}-{token}.{domain}` → its port and token; null for anything else. */
export function parsePreviewHost(host: string | undefined, domain: string | undefined): HostPreview | null {
  if (!isUnderDomain(host, domain)) return null;
  const label = hostName(host).slice(0, -(domain!.length + 1));
  const match = /^([1-9]\d{0,4})-([0-9a-f]{32})$/.exec(label);
  if (!match) return null;
  const port = Number(match[1]);
  return port <= 65535 ? { port, token: match[2]! } : null;
}

export interface PathPreview {
  token: string;
  /** What the workspace's server sees: the path after the token (at least `/`) and the query. */
  rest: string;
  /** `/preview/{token}` alone: relative URLs only work below `/preview/{token}/`. */
  bare: boolean;
}

export const isPreviewPath = (url: string | undefined) => !!url && url.startsWith(PATH_PREFIX);

/** `/preview/{token}/rest?query` → token and `/rest?query`; null when the token is malformed. */
export function parsePreviewPath(url: string): PathPreview | null {
  if (!isPreviewPath(url)) return null;
  const after = url.slice(PATH_PREFIX.length);
  const end = after.search(/[/?]/);
  const token = end < 0 ? after : after.slice(0, end);
  if (!PREVIEW_TOKEN.test(token)) return null;
  const tail = end < 0 ? '' : after.slice(end);
  if (tail === '' || tail.startsWith('?')) return { token, rest: `/${tail}`, bare: true };
  return { token, rest: tail, bare: false };
}

export const previewPathPrefix = (token: string) => `${PATH_PREFIX}${token}`;

/**
 * A preview's URL. The host form takes the scheme and port of Hangar's base URL (so
 * `http://localhost:8080` gives `http://3000-….localhost:8080/`). The path form lives on the
 * preview listener: its public base URL, else Hangar's base URL with the listener's port.
 */
export function previewUrl(options: { baseUrl: string; origins: PreviewOrigins; port: number; token: string }): string {
  const base = new URL(options.baseUrl);
  const { origins } = options;
  if (origins.form === 'host') {
    const port = base.port ? `:${base.port}` : '';
    return `${base.protocol}//${options.port}-${options.token}.${origins.domain}${port}/`;
  }
  if (origins.baseUrl) {
    const listener = new URL(origins.baseUrl);
    return `${listener.origin}${listener.pathname.replace(/\/+$/, '')}${previewPathPrefix(options.token)}/`;
  }
  base.port = String(origins.listenerPort);
  return `${base.origin}${previewPathPrefix(options.token)}/`;
}

/** `?a=1&hangar_preview_link=…&b=2` → `?a=1&b=2` (and `''` when nothing is left). */
export function withoutLinkParam(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(LINK_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The `Set-Cookie` value of a preview session: HttpOnly, host-only, scoped to one preview, and
 * SameSite=Strict, so no other site's page (another preview's included, in the host form) makes
 * a browser send it.
 */
export function sessionCookie(options: { value: string; pathPrefix: string | null; maxAgeSeconds: number; secure: boolean }): string {
  const path = options.pathPrefix ? `${options.pathPrefix}/` : '/';
  return [
    `${SESSION_COOKIE}=${options.value}`,
    `Path=${path}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * Splits a Cookie header into Hangar's preview sessions and everything else (forwarded to
 * the workspace as it came, minus Hangar's own).
 */
export function splitCookies(header: string | undefined): { sessions: string[]; others: string | null } {
  const sessions: string[] = [];
  const others: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const pair = part.trim();
    if (!pair) continue;
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) sessions.push(pair.slice(eq + 1).trim());
    else others.push(pair);
  }
  return { sessions, others: others.length ? others.join('; ') : null };
}

/** Hangar's API keys carry a recognisable prefix: an `Authorization` with one is Hangar's, not the app's. */
export const isHangarKey = (value: string) => /^hgr_[a-z]+_/.test(value);

/** The bearer value of an Authorization header, when it is a Hangar key. */
export function hangarBearer(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match && isHangarKey(match[1]!) ? match[1]! : null;
}

/**
 * A container address the proxy may forward to: an IP literal on a container network. Never
 * loopback, unspecified or link-local, whatever the database says, so a preview cannot reach
 * Hangar's own host.
 */
export function isForwardableAddress(address: string | null | undefined): address is string {
  if (!address) return false;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (v4.slice(1).some((o) => Number(o) > 255)) return false;
    return a !== 0 && a !== 127 && !(a === 169 && b === 254) && a < 224;
  }
  if (!/^[0-9a-f:]+$/i.test(address) || !address.includes(':')) return false;
  const lower = address.toLowerCase();
  return lower !== '::' && lower !== '::1' && !lower.startsWith('fe80:') && !lower.startsWith('::ffff:');
}

/** Where a preview's own cookies may reach: its host (host form) or its path on the shared listener. */
export type PreviewScope = { host: string } | { pathPrefix: string };

/**
 * Response headers a workspace's server may not send through the proxy, because they act beyond
 * one preview: a service worker scope wider than the script's folder, wiping another origin's
 * storage, or HSTS for a host the preview shares (the operator's front decides that one).
 */
const DROPPED_RESPONSE_HEADERS = ['service-worker-allowed', 'clear-site-data', 'strict-transport-security'];

/** The name and attributes of one `Set-Cookie` value (the last of each attribute wins, as in RFC 6265). */
function cookieParts(setCookie: string): { name: string; attributes: Map<string, string> } {
  const [pair = '', ...attrs] = setCookie.split(';');
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? '' : pair.slice(0, eq)).trim();
  const attributes = new Map<string, string>();
  for (const attr of attrs) {
    const at = attr.indexOf('=');
    const key = (at < 0 ? attr : attr.slice(0, at)).trim().toLowerCase();
    if (key) attributes.set(key, at < 0 ? '' : attr.slice(at + 1).trim());
  }
  return { name, attributes };
}

/**
 * Whether a cookie the app sets stays within its preview: never Hangar's own cookie; in the
 * host form no `Domain` but the preview's own host (a parent domain would reach every preview
 * and Hangar); in the path form no `Domain` at all and a `Path` within `/preview/{token}/` (an
 * absent or relative path defaults to the request's folder, which is within it).
 */
export function cookieStaysInPreview(setCookie: string, scope: PreviewScope): boolean {
  const { name, attributes } = cookieParts(setCookie);
  if (name === SESSION_COOKIE) return false;
  const domain = attributes.get('domain');
  if ('host' in scope) return domain === undefined || domain.replace(/^\./, '').toLowerCase().replace(/\.$/, '') === scope.host;
  if (domain !== undefined) return false;
  const path = attributes.get('path');
  if (path === undefined || !path.startsWith('/')) return true;
  return path === scope.pathPrefix || path.startsWith(`${scope.pathPrefix}/`);
}

/** Removes, in place, what a preview's response may not carry to the browser; returns what it removed. */
export function scopePreviewResponseHeaders(headers: Record<string, string | string[] | undefined>, scope: PreviewScope): string[] {
  const removed: string[] = [];
  for (const name of DROPPED_RESPONSE_HEADERS) {
    if (headers[name] !== undefined) {
      delete headers[name];
      removed.push(name);
    }
  }
  const cookies = headers['set-cookie'];
  if (cookies !== undefined) {
    const list = Array.isArray(cookies) ? cookies : [cookies];
    const kept = list.filter((cookie) => cookieStaysInPreview(cookie, scope));
    if (kept.length < list.length) removed.push(`set-cookie (${list.length - kept.length})`);
    if (kept.length) headers['set-cookie'] = kept;
    else delete headers['set-cookie'];
  }
  return removed;
}

/** Methods a browser may send cross-origin without changing anything (the rest change state). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request carrying a preview's session cookie comes from a page of another origin
 * and would change state (an unsafe method, or a WebSocket, which browsers open from any page
 * with the cookie). `Origin` is compared with the Host the browser connected to; a request with
 * no `Origin` is not from a browser page (browsers send one with every such request), and
 * `Origin: null` (a sandboxed or opaque page) is foreign.
 */
export function crossOriginStateChange(options: { method: string | undefined; websocket: boolean; origin: string | undefined; host: string | undefined }): boolean {
  if (!options.websocket && SAFE_METHODS.has((options.method ?? 'GET').toUpperCase())) return false;
  if (options.origin === undefined) return false;
  try {
    const origin = new URL(options.origin);
    // The Host read on the Origin's scheme, so a default port written or not compares equal.
    const host = new URL(`${origin.protocol}//${options.host ?? ''}`);
    if (host.username || host.password || host.pathname !== '/') return true;
    return !origin.host || origin.host !== host.host;
  } catch {
    return true;
  }
}
