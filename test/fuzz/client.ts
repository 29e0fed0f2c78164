/**
 * Sends fuzz requests as they were built: node:http for ordinary ones (any method, any header
 * Node lets through, any body bytes) and a bare socket for malformed framing. Event streams
 * are cut after their headers; nothing waits longer than the timeout.
 */
import http from 'node:http';
import { connect } from 'node:net';
import type { FuzzRequest } from './cases';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  body: string;
  /** Set when no complete answer came: `timeout`, `closed without an answer`, a socket error. */
  failure?: string;
  /** Only the body's first bytes were kept (a large download or list). */
  truncated?: boolean;
}

/** What is kept of a body: enough for any JSON answer but a file download. */
const KEPT_BYTES = 16 << 20;

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export async function send(baseUrl: string, req: FuzzRequest, timeoutMs: number): Promise<Answer | 'unsendable'> {
  return req.raw !== undefined ? sendRaw(baseUrl, req.raw, timeoutMs) : sendHttp(baseUrl, req, timeoutMs);
}

function sendHttp(baseUrl: string, req: FuzzRequest, timeoutMs: number): Promise<Answer | 'unsendable'> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Answer | 'unsendable') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const headers: Record<string, string | number> = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => v !== ''));
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request({ host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, setHost: !('host' in headers) });
    } catch {
      // Node refuses to send it (a header value with a control character, an invalid method).
      return resolve('unsendable');
    }
    const timer = setTimeout(() => {
      outgoing.destroy();
      done({ status: 0, headers: {}, contentType: '', body: '', failure: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    outgoing.on('response', (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const answer = { status: res.statusCode ?? 0, headers: res.headers, contentType };
      if (contentType.startsWith('text/event-stream') && (res.statusCode ?? 0) < 300) {
        res.destroy();
        return done({ ...answer, body: '' });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= KEPT_BYTES) chunks.push(chunk);
      });
      res.on('end', () => done({ ...answer, body: Buffer.concat(chunks).toString('utf8'), ...(size > KEPT_BYTES ? { truncated: true } : {}) }));
      res.on('error', (err) => done({ ...answer, body: Buffer.concat(chunks).toString('utf8'), failure: `answer cut: ${err.message}` }));
    });
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      done({ status: 0, headers: {}, contentType: '', body: '', failure: `${err.code ?? 'error'}: ${err.message}` });
    });
    if (req.body !== undefined) outgoing.end(req.body);
    else outgoing.end();
  });
}

/** Writes the bytes and reads until the server closes (or the timeout); parses the first answer. */
function sendRaw(baseUrl: string, bytes: string, timeoutMs: number): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks), failure));
    };
    const timer = setTimeout(() => finish(), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One complete answer is enough: the server may keep the connection open after it.
      if (completeAnswer(Buffer.concat(chunks))) finish();
    });
    socket.on('close', () => finish());
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') finish(`${err.code ?? 'error'}: ${err.message}`);
    });
    socket.write(bytes, 'latin1');
  });
}

function completeAnswer(data: Buffer): boolean {
  const text = data.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const head = text.slice(0, end);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return text.length - end - 4 >= Number(length[1]);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return text.endsWith('0\r\n\r\n');
  return false;
}

function parseAnswer(data: Buffer, failure?: string): Answer {
  // Latin-1 keeps one character per byte, so chunk sizes count right; the body is decoded after.
  const text = data.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  if (end < 0 || status === 0) return { status: 0, headers: {}, contentType: '', body: '', failure: failure ?? (text ? `unparsable answer: ${text.slice(0, 200)}` : 'closed without an answer') };
  const headers: Record<string, string> = {};
  for (const line of text.slice(0, end).split('\r\n').slice(1)) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = text.slice(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = unchunk(body);
  // Only the first answer: a second request in the bytes gets one of its own.
  else if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
  body = Buffer.from(body, 'latin1').toString('utf8');
  return { status, headers, contentType: headers['content-type'] ?? '', body, ...(failure ? { failure } : {}) };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    if (lineEnd < 0) return out;
    const size = parseInt(rest.slice(0, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

export function closeClient(): void {
  agent.destroy();
}
