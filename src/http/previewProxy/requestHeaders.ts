/**
 * A preview request's headers on their way to the workspace: none of a member's secrets goes
 * on (Hangar's key header, a Hangar bearer, Hangar's cookie), only this process's own relay
 * grant does, and the app is told where the request came from (`x-forwarded-*`).
 */
import type { IncomingMessage } from 'node:http';
import { API_KEY_HEADER, hangarBearer, splitCookies } from '../../domain/previews';
import { GRANT_HEADER } from '../../previews/relayGrants';

export function firstHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

/** The scheme the visitor used: a proxy in front says so, else this listener's own. */
export const proto = (req: IncomingMessage) => firstHeader(req.headers['x-forwarded-proto']) ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');

/**
 * No member secret reaches the container: Hangar's key header, a Hangar bearer, Hangar's cookie.
 * `url` is what the workspace's server sees, `prefix` the path form's `/preview/{token}`, `grant`
 * the relay's grant (null when the hop is the container itself).
 */
export function prepareRequest(req: IncomingMessage, located: { url: string; prefix: string | null }, grant: string | null): void {
  delete req.headers[API_KEY_HEADER];
  // Only this process's own grant travels on, and only to a relay (which removes it).
  if (grant) req.headers[GRANT_HEADER] = grant;
  else delete req.headers[GRANT_HEADER];
  if (hangarBearer(req.headers.authorization)) delete req.headers.authorization;
  const { others } = splitCookies(req.headers.cookie);
  if (others === null) delete req.headers.cookie;
  else req.headers.cookie = others;

  const host = firstHeader(req.headers['x-forwarded-host']) ?? req.headers.host ?? '';
  const scheme = proto(req);
  const forwardedFor = req.headers['x-forwarded-for'];
  const remote = req.socket.remoteAddress ?? '';
  req.headers['x-forwarded-for'] = forwardedFor ? `${Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor}, ${remote}` : remote;
  req.headers['x-forwarded-host'] = host;
  req.headers['x-forwarded-proto'] = scheme;
  req.headers['x-forwarded-port'] = /:(\d+)$/.exec(host)?.[1] ?? (scheme === 'https' ? '443' : '80');
  if (located.prefix) req.headers['x-forwarded-prefix'] = located.prefix;
  else delete req.headers['x-forwarded-prefix'];
  req.url = located.url;
}
