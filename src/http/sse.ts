/** Server-sent events on a Koa context: headers, named events, comment heartbeats. */
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

export interface SseStream {
  send(event: string, data: unknown, id?: string): void;
  /** A comment line: Node sends the headers with the first write, so a quiet stream opens with one. */
  comment(text: string): void;
  close(): void;
  readonly closed: boolean;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
}

export function openSse(ctx: Context, heartbeatMs = 15_000): SseStream {
  const stream = new PassThrough();
  const abort = new AbortController();
  let closed = false;
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.body = stream;
  const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), heartbeatMs);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    stream.end();
  };
  ctx.res.once('close', () => {
    if (!closed) abort.abort();
    close();
  });
  return {
    send(event, data, id) {
      if (closed) return;
      stream.write(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    comment(text) {
      if (!closed) stream.write(`: ${text}\n\n`);
    },
    close,
    get closed() {
      return closed;
    },
    signal: abort.signal,
  };
}
