/**
 * The preview proxy, in front of Koa in the API process: requests whose Host lies under the
 * preview domain are a workspace's, never the API's. It finds the preview by its token, checks
 * access (public; or a member's API key, or the cookie a signed link set, which changes nothing
 * from another origin), wakes a sleeping workspace, strips Hangar's credentials and forwards,
 * both ways, streaming (server-sent events, WebSockets): to the workspace container's own
 * address on its Docker network, or, when the workspace's host has a preview relay, to that
 * relay with a signed grant for this workspace and port (src/previews/relay.ts). Answers lose
 * the headers that would act beyond their preview.
 *
 * The path form `/preview/{token}/…` is served only on the preview listener (its own port, so
 * its own origin). On the API's listener such a path, an old link, is redirected to where the
 * preview answers now: workspace content never runs on the API's origin.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PreviewTarget } from '../db/previewsRepository';
import {
  API_KEY_HEADER,
  crossOriginStateChange,
  hangarBearer,
  hostName,
  isForwardableAddress,
  isPreviewPath,
  isUnderDomain,
  LINK_PARAM,
  parsePreviewHost,
  parsePreviewPath,
  previewPathPrefix,
  type PreviewScope,
  scopePreviewResponseHeaders,
  sessionCookie,
  splitCookies,
  withoutLinkParam,
} from '../domain/previews';
import type { Logger } from '../logger';
import { createForwarder, type ForwardTarget, unreachable } from '../previews/forwarder';
import { answerPage, continuePage, type Refusal, wantsHtml, writeRefusal } from '../previews/pages';
import { GRANT_HEADER } from '../previews/relayGrants';
import type { PreviewsService } from '../services/previews';

export interface PreviewProxyOptions {
  previews: PreviewsService;
  /** `HANGAR_PREVIEW_DOMAIN` (default `localhost`): hosts under it are previews on any listener. */
  domain: string;
  /**
   * `api`: the API's own listener, where `/preview/…` only redirects to the preview's origin;
   * `previews`: the preview listener, which serves the path form and nothing of the API's.
   */
  listener: 'api' | 'previews';
  logger: Logger;
  /** A port with nothing behind it answers 502 within this, rather than hang. */
  connectTimeoutMs?: number;
}

export interface PreviewProxy {
  /** Whether the request is a preview's (the proxy answers it) rather than the API's. */
  owns(req: IncomingMessage): boolean;
  web(req: IncomingMessage, res: ServerResponse): void;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends every WebSocket the proxy carries (a closing server waits for upgraded sockets otherwise). */
  dropUpgrades(): void;
  close(): void;
}

/** The next hop: the container or its host's relay, and the grant the relay wants. */
interface Hop {
  target: ForwardTarget;
  grant: string | null;
  /** A relay that does not answer is the host's fault, not the workspace's. */
  relayed: boolean;
}

/** Where a request is going, once the preview is found and may be opened. */
interface Located {
  target: PreviewTarget;
  /** The path and query the workspace's server sees. */
  url: string;
  /** `/preview/{token}` in the path form, null in the host form. */
  prefix: string | null;
  /** How far the app's own cookies may reach. */
  scope: PreviewScope;
}

/** `cookie`: a signed link was opened; a browser gets a page that follows on from the preview's own origin. */
type Outcome = { kind: 'forward'; located: Located; hop: Hop } | { kind: 'redirect'; location: string; cookie?: string } | { kind: 'refuse'; refusal: Refusal };

const refuse = (status: number, error: string, details: string | null, extra: Partial<Refusal> = {}): Outcome => ({ kind: 'refuse', refusal: { status, error, details, ...extra } });

function firstHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.split(',')[0]?.trim() || undefined;
}

export function createPreviewProxy(options: PreviewProxyOptions): PreviewProxy {
  const { previews, domain, logger } = options;
  /** The scope of each request being forwarded, for its answer's headers. */
  const scopes = new WeakMap<IncomingMessage, PreviewScope>();
  const forwarder = createForwarder({
    logger,
    connectTimeoutMs: options.connectTimeoutMs,
    responseHeaders: (req, headers) => {
      const scope = scopes.get(req);
      // Nothing from a workspace reaches a browser unscoped.
      const removed = scope ? scopePreviewResponseHeaders(headers, scope) : scopePreviewResponseHeaders(headers, { pathPrefix: '/preview/-' });
      if (removed.length) logger.debug('preview answer headers dropped', { removed });
    },
  });
  const upgraded = new Set<Duplex>();

  const proto = (req: IncomingMessage) => firstHeader(req.headers['x-forwarded-proto']) ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');

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
      if (options.listener === 'api') return moved(req, token, parsed.rest, websocket);
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

  /** No member secret reaches the container: Hangar's key header, a Hangar bearer, Hangar's cookie. */
  function prepare(req: IncomingMessage, located: Located, hop: Hop): void {
    delete req.headers[API_KEY_HEADER];
    // Only this process's own grant travels on, and only to a relay (which removes it).
    if (hop.grant) req.headers[GRANT_HEADER] = hop.grant;
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
    scopes.set(req, located.scope);
  }

  function failed(located: Located, hop: Hop, err: NodeJS.ErrnoException): Refusal {
    if (hop.relayed && (err.code === 'ECONNREFUSED' || err.code === 'ETIMEDOUT' || err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH' || err.code === 'ENOTFOUND')) {
      return { status: 502, error: 'Worker host unreachable', details: "the preview relay of the workspace's worker host does not answer" };
    }
    return unreachable(located.target.port, err);
  }

  return {
    owns: (req) => options.listener === 'previews' || isUnderDomain(req.headers.host, domain) || isPreviewPath(req.url),

    web(req, res) {
      locate(req, false).then(
        (outcome) => {
          if (outcome.kind === 'refuse') return answerPage(req, res, outcome.refusal);
          if (outcome.kind === 'redirect') {
            const headers: Record<string, string> = { location: outcome.location, 'cache-control': 'no-store' };
            if (!outcome.cookie) {
              res.writeHead(308, headers);
              return res.end();
            }
            headers['set-cookie'] = outcome.cookie;
            // A redirect would still belong to the navigation that brought the link from another
            // site, which a SameSite=Strict cookie does not join; the page's own refresh does.
            if (wantsHtml(req)) return continuePage(res, headers);
            res.writeHead(302, headers);
            return res.end();
          }
          prepare(req, outcome.located, outcome.hop);
          forwarder.web(req, res, outcome.hop.target, (err) => {
            if (res.headersSent) return void res.destroy();
            answerPage(req, res, failed(outcome.located, outcome.hop, err));
          });
        },
        (err: unknown) => {
          logger.error('preview request failed', { err: err as Error, url: req.url });
          if (!res.headersSent) answerPage(req, res, { status: 500, error: 'Internal server error', details: null });
          else res.destroy();
        },
      );
    },

    upgrade(req, socket, head) {
      socket.on('error', () => undefined);
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      socket.once('end', () => socket.destroy());
      locate(req, true).then(
        (outcome) => {
          if (outcome.kind !== 'forward') {
            const refusal = outcome.kind === 'refuse' ? outcome.refusal : { status: 404, error: 'Preview not found', details: null };
            return writeRefusal(socket, refusal);
          }
          prepare(req, outcome.located, outcome.hop);
          forwarder.ws(req, socket, head, outcome.hop.target, (err) => {
            if (socket.writable && !(socket as { bytesWritten?: number }).bytesWritten) writeRefusal(socket, failed(outcome.located, outcome.hop, err));
            else socket.destroy();
          });
        },
        (err: unknown) => {
          logger.error('preview upgrade failed', { err: err as Error, url: req.url });
          writeRefusal(socket, { status: 500, error: 'Internal server error', details: null });
        },
      );
    },

    dropUpgrades() {
      for (const socket of upgraded) socket.destroy();
      upgraded.clear();
    },

    close: () => forwarder.close(),
  };
}
