/**
 * The web console: static HTML, CSS and ES modules from `console/` at the repository root,
 * and xterm.js from its npm package, served as they are (no build step). The pages hold no
 * secret: the browser signs in with an API key it keeps in sessionStorage and calls the API
 * itself. Like /docs, these routes stay out of the OpenAPI document (they are not API).
 */
import { createReadStream, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Context } from 'koa';
import { consoleFileParams } from '../../schemas/console';
import { packageRoot } from '../../packageRoot';
import { defineRoute, type Route } from '../route';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Scripts only from this origin and never inline; API calls and event streams only to this
 * origin; no framing. xterm.js sets the size and colours of its rows through `<style>`
 * elements it writes at run time, hence inline styles (which cannot run code) are allowed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The console's own files (a flat folder), found once at start: anything else is a 400. */
function consoleFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name !== 'index.html' && TYPES[extname(name)] !== undefined);
}

const VENDOR: Record<string, string> = {
  'xterm.mjs': 'lib/xterm.mjs',
  'xterm.css': 'css/xterm.css',
};

function send(ctx: Context, file: string, cache: string) {
  ctx.type = TYPES[extname(file)]!;
  ctx.set('Content-Security-Policy', CONSOLE_CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', cache);
  ctx.body = createReadStream(file);
}

export function consoleRoutes(options: { dir?: string } = {}): Route[] {
  const dir = options.dir ?? join(packageRoot(), 'console');
  const xtermDir = join(require.resolve('@xterm/xterm/package.json'), '..');
  const files = consoleFiles(dir);
  const tag = 'Operations';
  // The console's own files change with the server; revalidating keeps an upgrade visible at once.
  const own = 'no-cache';
  return [
    defineRoute({
      method: 'get',
      path: '/console',
      operationId: 'console',
      summary: 'The web console',
      tag,
      auth: 'none',
      raw: true,
      response: { status: 200, description: 'HTML page', contentType: 'text/html' },
      errors: [],
      handler: ({ ctx }) => send(ctx, join(dir, 'index.html'), own),
    }),
    defineRoute({
      method: 'get',
      path: '/console/vendor/:file',
      operationId: 'consoleVendorAsset',
      summary: 'Third-party console assets (xterm.js), served from their npm packages',
      tag,
      auth: 'none',
      raw: true,
      params: consoleFileParams(Object.keys(VENDOR)),
      response: { status: 200, description: 'Asset' },
      errors: [400],
      handler: ({ ctx, params }) => send(ctx, join(xtermDir, VENDOR[params.file]!), 'public, max-age=86400'),
    }),
    defineRoute({
      method: 'get',
      path: '/console/:file',
      operationId: 'consoleAsset',
      summary: "The console's scripts and styles",
      tag,
      auth: 'none',
      raw: true,
      params: consoleFileParams(files),
      response: { status: 200, description: 'Asset' },
      errors: [400],
      handler: ({ ctx, params }) => send(ctx, join(dir, params.file), own),
    }),
  ];
}
