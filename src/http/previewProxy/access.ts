/**
 * Where a preview request goes, or why it goes nowhere: the preview found by its token (in the
 * host or, on the preview listener, the path), a signed link turned into the preview's own
 * cookie, access checked (public; or a member's API key, or that cookie, which changes nothing
 * from another origin), the workspace's state, and the next hop (its container or its host's
 * relay). An old path-form link on the API's listener is sent to where the preview answers now.
 */
import type { IncomingMessage } from 'node:http';
import type { PreviewTarget } from '../../db/previewsRepository';
import {
  API_KEY_HEADER,
  crossOriginStateChange,
  hangarBearer,
  hostName,
  isForwardableAddress,
  isUnderDomain,
  LINK_PARAM,
  parsePreviewHost,
  parsePreviewPath,
  previewPathPrefix,
  type PreviewScope,
  sessionCookie,
  splitCookies,
  withoutLinkParam,
} from '../../domain/previews';
import type { ForwardTarget } from '../../previews/forwarder';
import type { Refusal } from '../../previews/pages';
import type { PreviewsService } from '../../services/previews';
import { firstHeader, proto } from './requestHeaders';

/** The next hop: the container or its host's relay, and the grant the relay wants. */
export interface Hop {
  target: ForwardTarget;
  grant: string | null;
  /** A relay that does not answer is the host's fault, not the workspace's. */
  relayed: boolean;
}

/** Where a request is going, once the preview is found and may be opened. */
export interface Located {
  target: PreviewTarget;
  /** The path and query the workspace's server sees. */
  url: string;
  /** `/preview/{token}` in the path form, null in the host form. */
  prefix: string | null;
  /** How far the app's own cookies may reach. */
  scope: PreviewScope;
}

/** `cookie`: a signed link was opened; a browser gets a page that follows on from the preview's own origin. */
export type Outcome = { kind: 'forward'; located: Located; hop: Hop } | { kind: 'redirect'; location: string; cookie?: string } | { kind: 'refuse'; refusal: Refusal };

const refuse = (status: number, error: string, details: string | null, extra: Partial<Refusal> = {}): Outcome => ({ kind: 'refuse', refusal: { status, error, details, ...extra } });

/** `listener` as in PreviewProxyOptions: on the API's own, the path form only redirects. */
export function previewLocator(previews: PreviewsService, domain: string, listener: 'api' | 'previews') {
  /** Finds the preview, applies a signed link, checks access and the workspace's state. */
  async function locate(req: IncomingMessage, websocket: boolean): Promise<Outcome> {
    const rawUrl = req.url ?? '/';
    let token: string;
    let url = rawUrl;
    let prefix: string | null = null;
    let hostPort: number | null = null;
    let scope: PreviewScope;
    if (isUnderDomain(req.headers.host, domain)) {
      const parsed = parsePreviewHost(req.headers.host, domain);
      if (!parsed) return refuse(404, 'Preview not found', 'the host name does not name a preview');
      ({ token } = parsed);
      hostPort = parsed.port;
      scope = { host: hostName(req.headers.host) };
    } else {
      const parsed = parsePreviewPath(rawUrl);
      if (!parsed) return refuse(404, 'Preview not found', 'the path does not name a preview');
      token = parsed.token;
      if (listener === 'api') return moved(req, token, parsed.rest, websocket);
      prefix = previewPathPrefix(token);
      url = parsed.rest;
      scope = { pathPrefix: prefix };
      // Relative URLs of the app resolve below `/preview/{token}/` only.
      if (parsed.bare && !websocket) return { kind: 'redirect', location: `${prefix}${parsed.rest}` };
    }

    const target = await previews.resolve(token);
    if (!target || target.replica.deleted || (hostPort !== null && hostPort !== target.port)) {
      return refuse(404, 'Preview not found', 'no such preview: it may have been deleted');
    }
    const located: Located = { target, url, prefix, scope };

    const query = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    const linkToken = new URLSearchParams(query).get(LINK_PARAM);
    if (linkToken !== null && !websocket) {
      const opened = await previews.openLink(target, linkToken);
      if (!opened) return refuse(401, 'Link expired or revoked', 'ask for a new link to this preview', { authenticated: true });
      const path = url.slice(0, url.length - query.length);
      return {
        kind: 'redirect',
        location: `${prefix ?? ''}${path}${withoutLinkParam(query)}`,
        cookie: sessionCookie({ value: opened.session, pathPrefix: prefix, maxAgeSeconds: (opened.expiresAt.getTime() - Date.now()) / 1000, secure: proto(req) === 'https' }),
      };
    }

    if (target.authenticated) {
      const opener = await openedBy(req, target);
      if (!opener) {
        return refuse(401, 'Authentication required', `this preview is for members: send an API key in ${API_KEY_HEADER}, or open a signed link`, { authenticated: true });
      }
      // A page of another origin may not use the visitor's cookie to change anything here.
      if (opener === 'session' && crossOriginStateChange({ method: req.method, websocket, origin: firstHeader(req.headers.origin), host: req.headers.host })) {
        return refuse(403, 'Cross-origin request refused', "a members-only preview takes requests that change state with its cookie only from its own origin");
      }
    }
    switch (target.replica.status) {
      case 'sleeping':
      case 'archived':
        await previews.wake(target);
        return refuse(503, 'Workspace is waking', 'the workspace was asleep and is starting; try again in a few seconds', { retryAfter: 5, waking: true });
      case 'preparing':
        return refuse(503, 'Workspace is starting', 'the workspace is being prepared; try again in a few seconds', { retryAfter: 5, waking: true });
      case 'error':
        return refuse(502, 'Workspace failed', 'the workspace is in error and cannot serve this preview');
      default:
        break;
    }
    // Active, but the worker has not recorded where the container answers yet (it just started).
    if (!isForwardableAddress(target.replica.container_address)) {
      return refuse(503, 'Workspace is starting', 'the workspace is not reachable yet; try again in a few seconds', { retryAfter: 5, waking: true });
    }
    const hop = hopTo(target);
    if (!hop) {
      return refuse(502, 'Workspace unreachable', "the workspace's worker host has no preview relay, and this API does not reach containers itself (HANGAR_PREVIEW_DIAL=relay)");
    }
    previews.keepAwake(target);
    return { kind: 'forward', located, hop };
  }

  /**
   * An old path-form URL on the API's listener: a redirect to where the preview answers now (the
   * same path, query and signed link), so existing links keep working and nothing of the
   * workspace is served here. A WebSocket cannot follow a redirect: it is told where to go.
   */
  async function moved(req: IncomingMessage, token: string, rest: string, websocket: boolean): Promise<Outcome> {
    const target = await previews.resolve(token);
    if (!target || target.replica.deleted) return refuse(404, 'Preview not found', 'no such preview: it may have been deleted');
    const current = previews.currentUrl(target, `${proto(req)}://${req.headers.host ?? 'localhost'}`);
    const location = `${current.replace(/\/$/, '')}${rest}`;
    if (websocket) return refuse(404, 'Preview moved', `previews no longer answer on Hangar's own origin; connect to ${current}`);
    return { kind: 'redirect', location };
  }

  /** What lets the caller in: a member's API key, a signed link's session cookie, or nothing. */
  async function openedBy(req: IncomingMessage, target: PreviewTarget): Promise<'key' | 'session' | null> {
    const headerKey = firstHeader(req.headers[API_KEY_HEADER]);
    if (headerKey && (await previews.keyOpens(target, headerKey))) return 'key';
    const bearer = hangarBearer(req.headers.authorization);
    if (bearer && (await previews.keyOpens(target, bearer))) return 'key';
    for (const session of splitCookies(req.headers.cookie).sessions) {
      if (await previews.sessionOpens(target, session)) return 'session';
    }
    return null;
  }

  function hopTo(target: PreviewTarget): Hop | null {
    const hop = previews.hop(target);
    if (hop.kind === 'none') return null;
    if (hop.kind === 'direct') return { target: { protocol: 'http:', host: hop.address, port: target.port }, grant: null, relayed: false };
    const url = new URL(hop.url);
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
    return { target: { protocol, host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (protocol === 'https:' ? 443 : 80)) }, grant: hop.grant, relayed: true };
  }

  return locate;
}
