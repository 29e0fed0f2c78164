/**
 * The hop itself, shared by the API's preview proxy and a worker host's relay: http-proxy-3
 * forwarding a request or a WebSocket to one target, streaming both ways, with a connect
 * timeout and no half-open WebSockets.
 */
import type { Agent, ClientRequest, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import type { Logger } from '../logger';
import type { Refusal } from './pages';

export interface ForwardTarget {
  protocol: 'http:' | 'https:';
  host: string;
  port: number;
  /** How to connect, when not by TCP to `host` (a worker's relay goes through the engine's exec). */
  agent?: Agent;
}

export interface Forwarder {
  web(req: IncomingMessage, res: ServerResponse, target: ForwardTarget, onError: (err: NodeJS.ErrnoException) => void): void;
  ws(req: IncomingMessage, socket: Duplex, head: Buffer, target: ForwardTarget, onError: (err: NodeJS.ErrnoException) => void): void;
  close(): void;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 3000;

export interface ForwarderOptions {
  logger: Logger;
  connectTimeoutMs?: number;
  /** Sees, and may change in place, the headers of every answer before the client gets them (WebSocket handshakes included). */
  responseHeaders?: (req: IncomingMessage, headers: IncomingHttpHeaders) => void;
}

export function createForwarder(options: ForwarderOptions): Forwarder {
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const proxy = createProxyServer({ xfwd: false, ws: true, prependPath: false });

  // A port with nothing listening refuses at once; a container gone from the network does
  // not answer at all: give up on the connection (not on a long-lived response) after a while.
  const guardConnect = (proxyReq: ClientRequest) => {
    const timer = setTimeout(() => proxyReq.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })), connectTimeoutMs);
    proxyReq.once('socket', (socket: Socket) => {
      if (!socket.connecting) clearTimeout(timer);
      else socket.once('connect', () => clearTimeout(timer));
    });
    proxyReq.once('close', () => clearTimeout(timer));
  };
  proxy.on('proxyReq', (proxyReq) => guardConnect(proxyReq));
  // Emitted before http-proxy copies the headers to the client.
  const { responseHeaders } = options;
  if (responseHeaders) proxy.on('proxyRes', (proxyRes, req) => responseHeaders(req, proxyRes.headers));
  // A WebSocket has no half-close: when either side goes, both go (a server that ignores the
  // client's FIN would otherwise hold both sockets open for ever).
  // These listeners are added before http-proxy's own, so they run before it writes the answer.
  proxy.on('proxyReqWs', (proxyReq, req, socket) => {
    guardConnect(proxyReq);
    if (responseHeaders) proxyReq.once('response', (res: IncomingMessage) => responseHeaders(req, res.headers));
    proxyReq.once('upgrade', (res: IncomingMessage, proxySocket: Socket) => {
      responseHeaders?.(req, res.headers);
      socket.once('close', () => proxySocket.destroy());
      proxySocket.once('close', () => socket.destroy());
    });
  });
  // Errors arrive through each call's callback; this keeps a stray one from crashing the process.
  proxy.on('error', (err) => options.logger.debug('preview forwarding error', { err }));

  return {
    web: (req, res, target, onError) => proxy.web(req, res, proxyOptions(target), (err) => onError(err as NodeJS.ErrnoException)),
    ws: (req, socket, head, target, onError) => proxy.ws(req, socket, head, proxyOptions(target), (err) => onError(err as NodeJS.ErrnoException)),
    close: () => proxy.close(),
  };
}

const proxyOptions = ({ agent, ...target }: ForwardTarget) => ({ target, ...(agent ? { agent } : {}) });

/** What a client hears when the workspace's server could not be reached on `port`. */
export function unreachable(port: number, err: NodeJS.ErrnoException): Refusal {
  if (err.code === 'ECONNREFUSED' || err.code === 'ETIMEDOUT' || err.code === 'EHOSTUNREACH' || err.code === 'ENETUNREACH') {
    return { status: 502, error: 'Nothing is listening', details: `no server answers on port ${port} in the workspace; start one listening on 0.0.0.0:${port}` };
  }
  return { status: 502, error: 'Preview failed', details: `the server on port ${port} in the workspace broke the connection` };
}
