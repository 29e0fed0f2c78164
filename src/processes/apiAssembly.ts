/**
 * The API process's assembly (HTTP only). Kept apart from the worker's so that an API process
 * never loads the worker's modules (the Temporal worker, Docker, the sandbox).
 */
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type Koa from 'koa';
import { version } from '../../package.json';
import type { Config } from '../config';
import { createSecretBox } from '../crypto/secretBox';
import { createApp } from '../http/app';
import { httpMetrics } from '../http/metrics';
import { createDatabaseGauges } from '../metrics/database';
import { createRateLimiter } from '../http/rateLimit';
import { openBucketStore } from '../limits';
import { allRoutes } from '../http/routes';
import type { Logger } from '../logger';
import { createTerminalClient } from '../terminals';
import { createServices, type Services } from '../services';
import { connectTemporal, createWorkflowControl, type WorkflowControl } from '../temporal/workflowControl';
import { temporalConnectionOptions } from '../temporal/connectionOptions';
import { verifySearchAttributes } from '../temporal/searchAttributes';
import type { Database } from '../db/database';
import type { Tracing } from '../tracing';
import { createPreviewProxy, type PreviewProxy } from '../http/previewProxy';
import { DEFAULT_PREVIEW_DOMAIN, hostName } from '../domain/previews';
import { closingOnError, workflowControlOptions } from './shared';

export interface ApiProcess {
  app: Koa;
  services: Services;
  temporal: WorkflowControl;
  /**
   * Serves on `server`: preview traffic (a Host under the preview domain, WebSocket upgrades
   * included) goes to the preview proxy, an old `/preview/…` link to a redirect, everything
   * else to Koa.
   */
  attach(server: Server): Server;
  /** Serves the preview listener on `server`: the path form and nothing of the API's. */
  attachPreviews(server: Server): Server;
  /**
   * A new HTTP server with `attach`, listening; resolves once it listens. With
   * `HANGAR_PREVIEW_PORT`, the preview listener starts beside it (and `close` stops it).
   */
  listen(port: number, host: string): Promise<Server>;
  close(): Promise<void>;
}

/** `tracing`: the process's traces (src/tracing), made by its entry point; absent, nothing is traced. */
export async function buildApi(options: { config: Config; logger: Logger; database: Database; temporalAddress: string; tracing?: Tracing }): Promise<ApiProcess> {
  const { config, logger, database, tracing } = options;
  const connection = await connectTemporal(temporalConnectionOptions(config, options.temporalAddress));
  if (config.temporalSearchAttributes) await verifySearchAttributes(connection, config.temporalNamespace).catch(closingOnError(connection));
  const temporal = createWorkflowControl(connection, workflowControlOptions(config, tracing));
  const terminalClient = createTerminalClient({ bus: database.bus, logger: logger.child({ component: 'terminals' }) });
  const services = createServices({ repos: database.repos, bus: database.bus, secretBox: createSecretBox(config.encryptionKeys), temporal, terminalClient, config, logger });
  const routes = allRoutes({
    services,
    legacyCreateTimeoutMs: config.legacyCreateTimeoutMs,
    publicBaseUrl: config.publicBaseUrl,
    streams: config.streams,
    bus: database.bus,
    logger,
    version,
    probes: [
      { name: 'database', check: () => database.repos.ping() },
      { name: 'temporal', check: () => temporal.ping() },
    ],
  });
  // Buckets in Redis with REDIS_URL (shared by every API process), else in this process.
  const rateLimiter = config.rateLimit
    ? createRateLimiter({ identity: services.identity, store: openBucketStore(config, logger), settings: config.rateLimit })
    : null;
  const app = createApp({
    logger,
    identity: services.identity,
    routes,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyLimits: { messages: config.messageBodyLimitBytes, codeHosting: config.codeHostingBodyLimitBytes },
    unverifiedBodies: { max: config.maxUnverifiedBodies },
    authenticateEngine: (workspaceId, authorization) => services.replicas.authenticateEngine(workspaceId, authorization),
    // Off without a token: the API's port is public, and metrics are for operators.
    metrics: config.metrics.token ? httpMetrics({ token: config.metrics.token, routes, registries: [createDatabaseGauges(database.repos.metrics)] }) : undefined,
    rateLimit: rateLimiter?.forRoute,
    tracer: tracing?.tracer,
  });
  // Code-hosting delivery ids are remembered for a week (at least 72 h is required).
  const pruneDeliveries = () =>
    services.automationIntake.pruneDeliveries().catch((err) => logger.warn('pruning webhook delivery ids failed', { err }));
  const pruneTimer = setInterval(pruneDeliveries, 60 * 60 * 1000).unref();
  const previewLogger = logger.child({ component: 'previews' });
  const previewProxy = createPreviewProxy({ previews: services.previews, domain: config.previewDomain, listener: 'api', logger: previewLogger });
  const pathProxy = createPreviewProxy({ previews: services.previews, domain: config.previewDomain, listener: 'previews', logger: previewLogger });
  warnOfLocalPreviews(config, previewLogger);
  const pruneLinks = () => services.previews.pruneLinks().catch((err) => logger.warn('pruning expired preview links failed', { err }));
  const pruneLinksTimer = setInterval(pruneLinks, 60 * 60 * 1000).unref();
  // Every API process sweeps for expired presence; the store lets one of them announce each.
  services.presence.startSweeping();
  const serve = (server: Server, proxy: PreviewProxy, koa: ((req: IncomingMessage, res: ServerResponse) => void) | null) => {
    server.on('request', (req, res) => (!koa || proxy.owns(req) ? proxy.web(req, res) : koa(req, res)));
    server.on('upgrade', (req, socket, head) => {
      if (proxy.owns(req)) return proxy.upgrade(req, socket, head);
      // The API itself speaks no WebSocket.
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    });
    // A request Node's parser refuses (bad chunking, a NUL in a header, headers over the limit,
    // an unknown method) still gets the Error body when the socket can take one.
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      // A connection that ended mid-request (HPE_INVALID_EOF_STATE) is a client that left, not a
      // malformed request to answer: closing it is what tells the request in flight (the AI
      // gateway cancels its upstream request on it).
      if (!socket.writable || err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE') return void socket.destroy();
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({ error: STATUS_CODES[status], details: parserRefusal(err) });
      // The headers were read and a response is in flight (the body was malformed): answer on it.
      const inFlight = (socket as { _httpMessage?: ServerResponse })._httpMessage;
      if (inFlight) {
        if (inFlight.headersSent) return void socket.destroy();
        inFlight.shouldKeepAlive = false;
        inFlight.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
        return void inFlight.end(body, () => socket.destroy());
      }
      // An answer to HEAD has no body (a client would read it as a second, malformed answer).
      const head = (err as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${head ? '' : body}`);
    });
    // Node's close waits for upgraded sockets, which closeAllConnections does not reach.
    const closeServer = server.close.bind(server);
    server.close = ((callback?: (err?: Error) => void) => {
      proxy.dropUpgrades();
      return closeServer(callback);
    }) as Server['close'];
    return server;
  };
  const attach = (server: Server) => serve(server, previewProxy, app.callback());
  const attachPreviews = (server: Server) => serve(server, pathProxy, null);
  const listening = async (server: Server, port: number, host: string) => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return server;
  };
  let previewServer: Server | null = null;
  return {
    app,
    services,
    temporal,
    attach,
    attachPreviews,
    listen: async (port, host) => {
      const server = await listening(attach(createServer()), port, host);
      if (config.previewListener && !previewServer) {
        previewServer = await listening(attachPreviews(createServer()), config.previewListener.port, config.previewListener.host).catch((err: unknown) => {
          server.close();
          throw err;
        });
        previewLogger.info('preview listener (path form) listening', { port: config.previewListener.port });
      }
      return server;
    },
    close: async () => {
      clearInterval(pruneTimer);
      clearInterval(pruneLinksTimer);
      if (previewServer) {
        const closing = previewServer;
        previewServer = null;
        closing.closeAllConnections();
        await new Promise((resolve) => closing.close(resolve));
      }
      previewProxy.close();
      pathProxy.close();
      await terminalClient.shutdown();
      services.replicas.close();
      await services.aiGateway.close();
      await services.plugins.close();
      await services.presence.close();
      await services.identity.close();
      await rateLimiter?.close();
      await temporal.close();
    },
  };
}

/**
 * Preview URLs under `localhost` open only in a browser on the API's own machine: say so when
 * the API is published elsewhere and nothing else was set.
 */
function warnOfLocalPreviews(config: Config, logger: Logger): void {
  if (config.previewUrls !== 'host' || config.previewDomain !== DEFAULT_PREVIEW_DOMAIN || !config.publicBaseUrl) return;
  const host = hostName(new URL(config.publicBaseUrl).host);
  if (host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]') return;
  logger.warn('preview URLs are http://{port}-{token}.localhost/…, which open only on this machine: set HANGAR_PREVIEW_DOMAIN (wildcard DNS) or HANGAR_PREVIEW_PORT (the path form on a listener of its own)', {
    publicUrl: config.publicBaseUrl,
  });
}

/** What the client got wrong, in words (Node's parser codes are not for clients). */
function parserRefusal(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'the request headers are too large';
    case 'HPE_INVALID_METHOD':
      return 'unknown HTTP method';
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return 'malformed chunked body';
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
      return 'invalid or conflicting Content-Length';
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'a header name or value holds a character HTTP does not allow';
    default:
      return 'the request is not valid HTTP/1.1';
  }
}

