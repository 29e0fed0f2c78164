/**
 * JSON body parsing with a byte limit: 413 over the limit, 415 for a body that is not JSON,
 * 400 for malformed JSON, JSON nested too deep, or text PostgreSQL cannot store (NUL, lone
 * surrogates; `src/domain/inputHygiene.ts`). Requests without a body leave `ctx.request.body` undefined.
 */
import type { Context } from 'koa';
import { DomainError } from '../domain/errors';
import { parseJsonText } from '../domain/inputHygiene';

declare module 'koa' {
  interface Request {
    body?: unknown;
    rawBody?: Buffer;
  }
}

export async function readBody(req: NodeJS.ReadableStream & { headers: Record<string, unknown> }, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new DomainError('too_large', 'Request body too large', `limit is ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new DomainError('too_large', 'Request body too large', `limit is ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

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
