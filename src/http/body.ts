/**
 * Request bodies with a byte limit: 413 naming the limit (from a declared Content-Length before
 * any byte is read, else as soon as the bytes read pass it), 415 for a body that is not JSON,
 * 400 for malformed JSON, JSON nested too deep, or text PostgreSQL cannot store (NUL, lone
 * surrogates; `src/domain/inputHygiene.ts`). Requests without a body leave `ctx.request.body` undefined.
 *
 * A body is never read by async iteration: leaving a `for await` early destroys the request and
 * with it the socket, and the 413 would never reach the client. Reading stops by pausing; the
 * route then answers with `Connection: close` (see `app.ts`), so the unread rest is not kept.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { DomainError } from '../domain/errors';
import { parseJsonText } from '../domain/inputHygiene';

declare module 'koa' {
  interface Request {
    body?: unknown;
    rawBody?: Buffer;
  }
}

const MiB = 1024 * 1024;

function describeBytes(bytes: number): string {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes} bytes (${bytes / MiB} MiB)`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes} bytes (${bytes / 1024} KiB)`;
  return `${bytes} bytes`;
}

export const tooLarge = (limit: number) => new DomainError('too_large', 'Request body too large', `the limit for this operation is ${describeBytes(limit)}`);

/** The 413 for a Content-Length over the limit, before anything is read. */
export function refuseDeclaredOverLimit(req: Pick<IncomingMessage, 'headers'>, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
}

/**
 * Hands the body's chunks to `sink` as they arrive and resolves with the byte count at its end.
 * A sink that returns a promise (a disk write) holds the next chunk back until it settles. Past
 * `limit`, or when the sink throws, reading stops (the request is paused, not destroyed) and the
 * promise rejects; a client that goes away mid-body is a 400 nobody will read.
 */
export function streamBody(req: IncomingMessage, limit: number, sink: (chunk: Buffer) => void | Promise<void>): Promise<number> {
  refuseDeclaredOverLimit(req, limit);
  if (req.readableEnded) return Promise.resolve(0);
  return new Promise((resolve, reject) => {
    let size = 0;
    let settled = false;
    let ended = false;
    let writing = false;
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('close', onClose);
      if (err === undefined) return resolve(size);
      req.pause();
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return settle(tooLarge(limit));
      let pending: void | Promise<void>;
      try {
        pending = sink(chunk);
      } catch (err) {
        return settle(err);
      }
      if (!pending) return;
      writing = true;
      req.pause();
      pending.then(() => {
        writing = false;
        if (ended) settle();
        else if (!settled) req.resume();
      }, settle);
    };
    const onEnd = () => {
      ended = true;
      if (!writing) settle();
    };
    const onGone = () => settle(new DomainError('invalid', 'Request body incomplete', 'the connection closed before the body ended'));
    const onClose = () => {
      if (!req.complete) onGone();
    };
    req.on('data', onData).once('end', onEnd).once('error', onGone).once('close', onClose);
    req.resume();
  });
}

/** The whole body in memory, at most `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const size = await streamBody(req, limit, (chunk) => void chunks.push(chunk));
  return Buffer.concat(chunks, size);
}

/** Whether the request carries a body (a length other than 0, or chunked). */
function hasBody(ctx: Context): boolean {
  const length = ctx.get('content-length');
  return ctx.get('transfer-encoding') !== '' || (length !== '' && length !== '0');
}

/** Parses the request's JSON body into `ctx.request.body` (and keeps the bytes in `rawBody`). */
export function jsonBody(limit: number) {
  return async (ctx: Context) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) || !hasBody(ctx)) return;
    if (!ctx.is('application/json', '+json')) {
      throw new DomainError('unsupported_media_type', 'Unsupported media type', 'send the body as Content-Type: application/json');
    }
    const raw = await readBody(ctx.req, limit);
    ctx.request.rawBody = raw;
    if (raw.length > 0) ctx.request.body = parseJsonText(raw.toString('utf8'));
  };
}
