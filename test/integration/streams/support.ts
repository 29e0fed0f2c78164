/**
 * An API process of the streams suite's own (`buildApi`, as `src/bin/api.ts` builds it) on the
 * harness's database, Temporal and worker, with the stream settings a test chooses. It serves
 * on a Unix socket: the kernel holds about 200 KB for a client that stops reading there
 * (loopback TCP holds 4 MB), so the server's own buffer is what fills, and a test sees it in
 * `responses`: what each response held unsent after each write.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config, StreamLimits } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { buildApi, type ApiProcess } from '../../../src/processes';
import { harness } from '../../support/harness';
import { until } from '../../support/wait';

export interface TrackedResponse {
  requestId: string;
  method: string;
  path: string;
  /** `res.writableLength` after each write, in order. */
  buffered: number[];
  /** The server ended the response. */
  readonly ended: boolean;
  /** The response is gone (ended and sent, or the client went away): its stream slot is free. */
  readonly closed: boolean;
}

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: any;
}

export interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

export interface ClientStream {
  /** Sent as X-Request-Id: the server's side of this stream is `api.serverSide(stream)`. */
  requestId: string;
  status: number;
  headers: IncomingMessage['headers'];
  events: SseEvent[];
  /** Starts (or goes on) reading; a stream opened `paused` reads nothing until then. */
  resume(): void;
  /** Resolves when the server ends the stream (or the connection drops). */
  ended: Promise<void>;
  /** The whole body, parsed, once it has ended (a JSON answer: the stream was refused). */
  json(): Promise<any>;
  close(): void;
}

export interface StreamsApi {
  config: Config;
  responses: TrackedResponse[];
  request(method: string, path: string, key: string, body?: unknown): Promise<Answer>;
  /** Opens a stream and resolves with its headers; the body is read as it comes unless `paused`. */
  open(path: string, key: string, options?: { method?: string; body?: unknown; headers?: Record<string, string>; paused?: boolean }): Promise<ClientStream>;
  /** What the server holds for this stream. */
  serverSide(stream: ClientStream): TrackedResponse;
  close(): Promise<void>;
}

export async function startStreamsApi(streams: Partial<StreamLimits>): Promise<StreamsApi> {
  const h = harness();
  const config: Config = { ...h.config, streams: { ...h.config.streams, ...streams } };
  const logger = createLogger({ level: 'debug', write: (line) => h.logs.push(line) }).child({ suite: 'streams' });
  const api: ApiProcess = await buildApi({ config, logger, database: h.database, temporalAddress: h.temporal.address });
  const server: Server = api.attach(createServer());
  const responses: TrackedResponse[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    let closed = false;
    res.once('close', () => (closed = true));
    const tracked: TrackedResponse = {
      requestId: String(req.headers['x-request-id'] ?? ''),
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0]!,
      buffered: [],
      get ended() {
        return res.writableEnded;
      },
      get closed() {
        return closed;
      },
    };
    responses.push(tracked);
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      const accepted = write(...args);
      tracked.buffered.push(res.writableLength);
      return accepted;
    }) as ServerResponse['write'];
  });
  const socketPath = join(tmpdir(), `hangar-streams-${randomBytes(4).toString('hex')}.sock`);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const clients = new Set<ClientStream>();

  function send(method: string, path: string, key: string, body: unknown, headers: Record<string, string> = {}) {
    const requestId = randomUUID();
    const req = httpRequest({
      socketPath,
      path,
      method,
      agent: false,
      headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    });
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req.once('response', resolve);
      req.once('error', reject);
    });
    req.end(body === undefined ? undefined : JSON.stringify(body));
    return { req, response, requestId };
  }

  return {
    config,
    responses,
    async request(method, path, key, body) {
      const { response } = send(method, path, key, body);
      const res = await response;
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      return { status: res.statusCode!, headers: res.headers, body: (res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text };
    },
    async open(path, key, options = {}) {
      const { req, response, requestId } = send(options.method ?? 'GET', path, key, options.body, options.headers);
      const res = await response;
      const events: SseEvent[] = [];
      const isStream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
      let text = '';
      let buffer = '';
      let paused = options.paused ?? false;
      res.setEncoding('utf8');
      if (paused) res.pause();
      const stream: ClientStream = {
        requestId,
        status: res.statusCode!,
        headers: res.headers,
        events,
        resume() {
          paused = false;
          res.resume();
        },
        ended: new Promise<void>((resolve) => {
          res.once('end', resolve);
          res.once('close', resolve);
          res.once('error', () => resolve());
        }),
        async json() {
          await stream.ended;
          return JSON.parse(text);
        },
        close() {
          clients.delete(stream);
          req.destroy();
        },
      };
      clients.add(stream);
      res.on('data', (chunk: string) => {
        if (!isStream) return void (text += chunk);
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const lines = buffer
            .slice(0, at)
            .split('\n')
            .filter((l) => l && !l.startsWith(':') && !l.startsWith('retry:'));
          buffer = buffer.slice(at + 2);
          if (lines.length === 0) continue;
          const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          events.push({ event: field('event') ?? 'message', id: field('id'), data: JSON.parse(field('data') ?? 'null') });
        }
        if (paused) res.pause();
      });
      return stream;
    },
    serverSide(stream) {
      const found = responses.find((r) => r.requestId === stream.requestId);
      if (!found) throw new Error(`the server has not seen request ${stream.requestId}`);
      return found;
    },
    async close() {
      for (const client of clients) client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      await rm(socketPath, { force: true });
    },
  };
}

/** Resolves once the server has let go of `streams` (all it answered, without any): their slots are free. */
export async function untilClosed(api: StreamsApi, streams?: ClientStream[]): Promise<void> {
  const held = () => (streams ? streams.map((s) => api.serverSide(s)) : api.responses);
  await until('the server to let go of the streams', async () => held().every((r) => r.closed), 10_000, 20);
}
