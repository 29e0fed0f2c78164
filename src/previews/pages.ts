/**
 * What the preview proxy answers when it does not forward: the spec's Error body as JSON, or
 * a small HTML page for a browser (one that accepts text/html). The waking page refreshes
 * itself until the workspace answers.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

export interface Refusal {
  status: number;
  error: string;
  details: string | null;
  /** Seconds, sent as Retry-After (and the page's refresh). */
  retryAfter?: number;
  /** The workspace is starting: the page says so and refreshes. */
  waking?: boolean;
  /** A 401 of an authenticated preview. */
  authenticated?: boolean;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function wantsHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept ?? '';
  return /\btext\/html\b/.test(accept);
}

export function htmlPage(refusal: Refusal): string {
  const refresh = refusal.retryAfter ? `<meta http-equiv="refresh" content="${refusal.retryAfter}">` : '';
  const hint = refusal.waking
    ? '<p>This page reloads by itself.</p>'
    : refusal.authenticated
      ? '<p>Open the preview with a link from a member of the workspace&#39;s organization.</p>'
      : '';
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    refresh,
    `<title>${escape(refusal.error)} · Hangar preview</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}p{color:#555}</style>',
    '</head><body>',
    `<h1>${escape(refusal.error)}</h1>`,
    refusal.details ? `<p>${escape(refusal.details)}</p>` : '',
    hint,
    '</body></html>',
  ].join('');
}

function headersOf(refusal: Refusal, html: boolean, length: number): Record<string, string> {
  return {
    'content-type': html ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': String(length),
    'cache-control': 'no-store',
    ...(refusal.retryAfter ? { 'retry-after': String(refusal.retryAfter) } : {}),
  };
}

export function answerPage(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const html = wantsHtml(req);
  const body = Buffer.from(html ? htmlPage(refusal) : JSON.stringify({ error: refusal.error, details: refusal.details }));
  res.writeHead(refusal.status, headersOf(refusal, html, body.length));
  res.end(body);
}

/**
 * After a signed link set the session cookie: a page whose refresh, started by the preview's own
 * origin, opens the preview with the cookie (`headers` hold the cookie and the location).
 */
export function continuePage(res: ServerResponse, headers: Record<string, string>): void {
  const target = escape(headers.location ?? '/');
  const body = Buffer.from(
    [
      '<!doctype html><html lang="en"><head><meta charset="utf-8">',
      `<meta http-equiv="refresh" content="0;url=${target}">`,
      '<title>Opening the preview · Hangar</title>',
      '</head><body>',
      `<p>Opening the preview… <a href="${target}">continue</a></p>`,
      '</body></html>',
    ].join(''),
  );
  const { location: _location, ...rest } = headers;
  res.writeHead(200, { ...rest, 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
}

/** A refused WebSocket upgrade: a plain HTTP answer on the socket, then close. */
export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ error: refusal.error, details: refusal.details });
  const headers = { ...headersOf(refusal, false, Buffer.byteLength(body)), connection: 'close' };
  const head = [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  socket.end(`${head}\r\n\r\n${body}`);
}
