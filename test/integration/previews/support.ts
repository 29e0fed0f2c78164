/**
 * The preview suite's pieces: a small app started inside a workspace (HTTP echo, a
 * server-sent-events stream the test releases step by step, a WebSocket echo, on two ports;
 * answers with headers that reach beyond a preview, and a page that registers a service worker
 * for `/`), and raw HTTP and WebSocket clients that can set any Host or Cookie header.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type Docker from 'dockerode';
import { execInContainer } from '../../support/containerExec';

/** Runs in the workspace with the image's node; answers on 3000 and 3001. */
const APP = String.raw`
const http = require('http');
const crypto = require('crypto');
let release = null;
function handler(req, res) {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url === '/sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('data: one\n\n');
      release = () => { res.write('data: two\n\n'); res.end(); };
      return;
    }
    if (req.url === '/headers') {
      res.writeHead(200, {
        'content-type': 'text/plain',
        'service-worker-allowed': '/',
        'clear-site-data': '"cookies", "storage"',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'set-cookie': ['own=1; Path=/', 'near=1', 'wide=1; Domain=localhost; Path=/', 'hangar_preview=forged; Path=/'],
      });
      res.end('headers');
      return;
    }
    // A page that asks for a service worker over the whole origin: '/', which the script's
    // Service-Worker-Allowed header would permit. Its title says what the browser did.
    if (req.url.endsWith('/sw.html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>pending</title><script>' +
        "navigator.serviceWorker.register('sw.js', { scope: '/' })" +
        ".then((r) => navigator.serviceWorker.ready.then(() => { document.title = 'registered ' + r.scope; }))" +
        ".catch((e) => { document.title = 'refused ' + e.name; });" +
        '</script>');
      return;
    }
    if (req.url.endsWith('/sw.js')) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'service-worker-allowed': '/' });
      res.end("self.addEventListener('install', () => self.skipWaiting());" +
        "self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));" +
        "self.addEventListener('fetch', (e) => e.respondWith(new Response('<title>hijacked</title>a preview answers here', { headers: { 'content-type': 'text/html' } })));");
      return;
    }
    if (req.url === '/release') {
      const r = release;
      release = null;
      if (r) r();
      res.end(r ? 'released' : 'nothing to release');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-app-port': String(req.socket.localPort) });
    res.end(JSON.stringify({ app: process.env.APP_NAME || null, method: req.method, url: req.url, headers: req.headers, body }));
  });
}
function upgrade(req, socket) {
  const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ' + accept + '\r\nX-Seen-Url: ' + req.url + '\r\n\r\n');
  socket.on('data', (buf) => {
    const len = buf[1] & 0x7f;
    const mask = buf.subarray(2, 6);
    const text = 'echo:' + Buffer.from(buf.subarray(6, 6 + len).map((b, i) => b ^ mask[i % 4])).toString();
    socket.write(Buffer.concat([Buffer.from([0x81, Buffer.byteLength(text)]), Buffer.from(text)]));
  });
}
for (const port of [3000, 3001]) {
  const server = http.createServer(handler);
  server.on('upgrade', upgrade);
  server.listen(port, '0.0.0.0');
}
`;

/** `name` comes back as `app` in every JSON answer, to tell workspaces apart; `docker`: another host's engine. */
export async function startApp(containerName: string, name = '', docker?: Docker): Promise<void> {
  if (!/^[a-z0-9-]*$/.test(name)) throw new Error(`app name ${name} is not a plain word`);
  // Returns once both ports answer: a test's first request must not race the app's start (node
  // takes seconds to start on a busy machine), which would read as "Nothing is listening".
  const ready = `const net = require('net'); const until = Date.now() + 60000;
    const knock = (port) => new Promise((done) => { const s = net.connect(port, '127.0.0.1'); s.once('connect', () => { s.destroy(); done(true); }); s.once('error', () => done(false)); });
    (async () => { for (;;) { if ((await knock(3000)) && (await knock(3001))) return console.log('started');
      if (Date.now() > until) return console.log('not listening after 60 s'); await new Promise((r) => setTimeout(r, 100)); } })();`.replace(/\s*\n\s*/g, ' ');
  const script = `cat > ~/preview-app.js <<'APP'\n${APP}\nAPP\nAPP_NAME=${name} setsid nohup /usr/local/bin/node ~/preview-app.js > ~/preview-app.log 2>&1 < /dev/null &\n/usr/local/bin/node -e ${JSON.stringify(ready)} || cat ~/preview-app.log`;
  const out = await execInContainer(containerName, script, docker);
  if (!out.includes('started')) throw new Error(`the app did not start: ${out}`);
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json(): any;
}

/** One HTTP request with exactly these headers (Host and Cookie included); no redirects followed. */
export function raw(baseUrl: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface SseReader {
  status: number;
  /** The next `data:` line's value; waits for it. */
  next(): Promise<string>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openSse(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const queue: string[] = [];
      const waiters: Array<(v: string) => void> = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let at = buffer.indexOf('\n\n'); at >= 0; at = buffer.indexOf('\n\n')) {
          const data = buffer.slice(0, at).split('\n').find((l) => l.startsWith('data: '));
          buffer = buffer.slice(at + 2);
          if (data === undefined) continue;
          const waiter = waiters.shift();
          if (waiter) waiter(data.slice(6));
          else queue.push(data.slice(6));
        }
      });
      resolve({
        status: res.statusCode!,
        next: () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise((r) => waiters.push(r))),
        ended: new Promise((r) => res.on('end', () => r())),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface WsAnswer {
  /** 101 when upgraded, else the refusal's status. */
  status: number;
  headers: IncomingHttpHeaders;
  /** Sends one text message and resolves with the first text message back. */
  roundTrip(text: string): Promise<string>;
  body: string;
  close(): void;
}

/** A WebSocket client handshake, then masked text frames (enough for short messages). */
export function openWebSocket(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<WsAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64'), ...headers },
    });
    req.on('upgrade', (res, socket: Socket) => {
      resolve({
        status: res.statusCode!,
        headers: res.headers,
        body: '',
        roundTrip: (text) =>
          new Promise((done) => {
            socket.once('data', (buf: Buffer) => done(buf.subarray(2, 2 + (buf[1]! & 0x7f)).toString('utf8')));
            const payload = Buffer.from(text);
            const mask = randomBytes(4);
            socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]));
          }),
        close: () => socket.destroy(),
      });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          roundTrip: () => Promise.reject(new Error('not upgraded')),
          close: () => undefined,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The Host header of a preview in the default host form (`{port}-{token}.localhost`), which a
 * browser resolves to loopback by itself; routing reads the name, not the port after it.
 */
export const previewHost = (token: string, port = 3000) => ({ host: `${port}-${token}.localhost` });

/** A preview's token, from its URL in either form. */
export const tokenOf = (url: string) => /(?:^https?:\/\/\d+-|\/preview\/)([0-9a-f]{32})/.exec(url)![1]!;
