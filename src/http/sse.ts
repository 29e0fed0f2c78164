/**
 * Server-sent events on a Koa context, written straight to the response: headers, messages,
 * comment heartbeats, and what a stream does for a client that reads slowly
 * (docs/decisions/workspaces.md, "Event stream caps and backpressure"):
 *  - `send` says when the client has fallen behind (the socket's buffer is past its
 *    high-water mark); a source that can wait (rows read from the database) waits for
 *    `drained()`, a source that may drop (live output a final event repeats) checks `behind`.
 *  - A source that can neither wait nor drop fills the buffer up to the process's cap
 *    (`HANGAR_STREAM_BUFFER_KB`); past it the stream ends with a final `overflow` event, so the
 *    client reconnects (with Last-Event-ID where the stream has ids). A client that does not
 *    even read that is cut off after a grace period. Heartbeats are skipped while behind.
 */
import type { Context } from 'koa';

export const DEFAULT_STREAM_BUFFER_BYTES = 256 * 1024;
/** After an overflow, how long a client that reads nothing keeps its connection and buffer. */
const OVERFLOW_GRACE_MS = 30_000;

declare module 'koa' {
  interface DefaultState {
    /** The process's buffer cap, set by the stream limits (src/http/streamLimits.ts). */
    streamBufferBytes?: number;
  }
}

export interface SseOptions {
  /** Comment heartbeat interval (15 s). */
  heartbeatMs?: number;
  /** Sent first as `retry:`: how long a disconnected client waits before reconnecting. */
  retryMs?: number;
  /** Runs with each heartbeat (the replica stream looks for news then). */
  onHeartbeat?: () => void;
  /** What the final `overflow` event tells the client. */
  overflowMessage?: string;
}

export interface SseStream {
  /**
   * Writes a message (without an `event:` line when `event` is null). False when the stream
   * is closed or the client has fallen behind: a source that can wait awaits `drained()`.
   */
  send(event: string | null, data: unknown, id?: string): boolean;
  /** Already formatted messages (`sseMessage`), e.g. a batch; the same rules as `send`. */
  write(text: string): boolean;
  /** A comment line; skipped while the client is behind (it is not idle then). */
  comment(text: string): void;
  /** The client has not taken what was written so far (past the socket's high-water mark). */
  readonly behind: boolean;
  /** Resolves once the client has caught up, or the stream has ended. */
  drained(): Promise<void>;
  close(): void;
  readonly closed: boolean;
  /** Aborts when the stream ends other than by `close()`: the client went away, or it overflowed. */
  readonly signal: AbortSignal;
}

export function sseMessage(event: string | null, data: unknown, id?: string): string {
  return `${id ? `id: ${id}\n` : ''}${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

const DEFAULT_OVERFLOW_MESSAGE = 'The client read too slowly and the stream fell behind; reconnect to continue';

/**
 * Takes over the response (`ctx.respond = false`): a client hanging up is the normal end of
 * a stream, not an error to report.
 */
export function openSse(ctx: Context, options: SseOptions = {}): SseStream {
  const res = ctx.res;
  const capBytes = ctx.state.streamBufferBytes ?? DEFAULT_STREAM_BUFFER_BYTES;
  const abort = new AbortController();
  let closed = false;
  let drain: Promise<void> | null = null;
  let grace: NodeJS.Timeout | null = null;

  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.respond = false;
  // Sent now: a client knows it is connected before the first message, however quiet the stream.
  res.writeHead(200);
  res.flushHeaders();

  const heartbeat = setInterval(() => {
    if (!res.writableNeedDrain) raw(': heartbeat\n\n');
    options.onHeartbeat?.();
  }, options.heartbeatMs ?? 15_000);

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    res.end();
  };
  res.once('close', () => {
    if (grace) clearTimeout(grace);
    if (!closed) abort.abort();
    close();
  });
  // A client that hung up while the stream was being set up has no 'close' left to fire.
  if (res.destroyed || ctx.req.socket.destroyed) {
    abort.abort();
    close();
  }

  function raw(text: string): boolean {
    if (closed) return false;
    return res.write(text);
  }

  function overflow() {
    raw(sseMessage('overflow', { type: 'overflow', message: options.overflowMessage ?? DEFAULT_OVERFLOW_MESSAGE }));
    close();
    abort.abort();
    grace = setTimeout(() => res.destroy(), OVERFLOW_GRACE_MS);
    grace.unref();
  }

  function write(text: string): boolean {
    if (closed) return false;
    // Checked before writing: one message may pass the cap, nothing after it.
    if (res.writableLength > capBytes) {
      overflow();
      return false;
    }
    return raw(text);
  }

  if (options.retryMs !== undefined) raw(`retry: ${options.retryMs}\n\n`);

  return {
    send: (event, data, id) => write(sseMessage(event, data, id)),
    write,
    comment(text) {
      if (!res.writableNeedDrain) raw(`: ${text}\n\n`);
    },
    get behind() {
      return res.writableNeedDrain;
    },
    drained() {
      if (closed || !res.writableNeedDrain) return Promise.resolve();
      drain ??= new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          drain = null;
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
      return drain;
    },
    close,
    get closed() {
      return closed;
    },
    signal: abort.signal,
  };
}

/**
 * Live output that may be dropped (a hook test's `complete` event carries the whole output;
 * a warm workspace's hook logs are kept): while the client is behind it is skipped rather
 * than buffered, and a line says how much was skipped before anything else is sent.
 */
export function skippableOutput(sse: SseStream, send: (text: string) => void) {
  let skipped = 0;
  const flush = () => {
    if (skipped === 0) return;
    const count = skipped;
    skipped = 0;
    send(`\n[hangar] ${count} characters of live output skipped: the client read too slowly\n`);
  };
  return {
    write(text: string) {
      if (sse.behind) {
        skipped += text.length;
        return;
      }
      flush();
      send(text);
    },
    /** Before any other event, so the notice precedes it. */
    flush,
  };
}
