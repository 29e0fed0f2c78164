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
 *
 * Beside it: where a request goes and whether it may (access.ts), and what of its headers
 * reaches the workspace (requestHeaders.ts); an answer's headers are scoped here, on the way back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isPreviewPath, isUnderDomain, type PreviewScope, scopePreviewResponseHeaders } from '../../domain/previews';
import type { Logger } from '../../logger';
import { createForwarder, unreachable } from '../../previews/forwarder';
import { answerPage, continuePage, type Refusal, wantsHtml, writeRefusal } from '../../previews/pages';
import type { PreviewsService } from '../../services/previews';
import { type Hop, type Located, previewLocator } from './access';
import { prepareRequest } from './requestHeaders';

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

  const locate = previewLocator(previews, domain, options.listener);

  /** The request as the workspace gets it, and the scope its answer's headers get. */
  function prepare(req: IncomingMessage, located: Located, hop: Hop): void {
    prepareRequest(req, located, hop.grant);
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
