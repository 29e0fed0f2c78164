/**
 * Preview URLs (docs/decisions.md, "Previews"): where a preview is reached and how a request
 * names one. A preview is named by its token, 32 lowercase hex characters, so both forms are
 * DNS- and path-safe:
 *
 * - host form `{port}-{token}.{domain}` (wildcard DNS), the port repeated so a host name
 *   cannot be pointed at another port of the same workspace;
 * - path form `/preview/{token}/…` on Hangar's own base URL, for machines without wildcard DNS.
 */

export const PREVIEW_TOKEN = /^[0-9a-f]{32}$/;
/** The query parameter a signed link carries; it is swapped for a cookie and never forwarded. */
export const LINK_PARAM = 'hangar_preview_link';
/** The cookie a signed link sets: scoped to one preview (its host, or its path). */
export const SESSION_COOKIE = 'hangar_preview';
/** The header a member's API key rides in, so the app's own `Authorization` stays the app's. */
export const API_KEY_HEADER = 'x-hangar-api-key';
/** Signed-link purposes: a link opens once into a session cookie; neither opens anything else. */
export const LINK_PURPOSE = 'preview-link';
export const SESSION_PURPOSE = 'preview-session';

export const LINK_DEFAULT_SECONDS = 15 * 60;
export const LINK_MAX_SECONDS = 24 * 60 * 60;

const PATH_PREFIX = '/preview/';

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
 * A preview's URL. With a preview domain, the host form, on the scheme and port of Hangar's
 * public base URL (so `http://localhost:8080` gives `http://3000-….preview.localhost:8080/`);
 * without one, the path form on that base URL.
 */
export function previewUrl(options: { baseUrl: string; domain: string | undefined; port: number; token: string }): string {
  const base = new URL(options.baseUrl);
  if (!options.domain) return `${base.origin}${base.pathname.replace(/\/+$/, '')}${previewPathPrefix(options.token)}/`;
  const port = base.port ? `:${base.port}` : '';
  return `${base.protocol}//${options.port}-${options.token}.${options.domain}${port}/`;
}

/** `?a=1&hangar_preview_link=…&b=2` → `?a=1&b=2` (and `''` when nothing is left). */
export function withoutLinkParam(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(LINK_PARAM);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** The `Set-Cookie` value of a preview session: HttpOnly, SameSite=Lax, host-only, scoped to one preview. */
export function sessionCookie(options: { value: string; pathPrefix: string | null; maxAgeSeconds: number; secure: boolean }): string {
  const path = options.pathPrefix ? `${options.pathPrefix}/` : '/';
  return [
    `${SESSION_COOKIE}=${options.value}`,
    `Path=${path}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
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
