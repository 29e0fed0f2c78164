/**
 * Builds the Koa app without listening. Middleware order: metrics, the request's span (when
 * traced), request id and access log, the one error middleware, then the declared routes: each authenticated by bearer key unless it
 * says otherwise, then its JSON body parsed within the route's limit (`ownBody` routes read
 * theirs with `readBody`), then validated by its own schemas.
 */
import { createHash, randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa, { type Context, type Middleware } from 'koa';
import { DomainError, invalid } from '../domain/errors';
import { outageOf, statusOf } from './errors';
import type { Logger } from '../logger';
import type { Actor } from '../domain/actor';
import type { IdentityService } from '../services/identity';
import { jsonBody } from './body';
import { bearerKeyHash } from './bearer';
import { createOwnBodies, DEFAULT_MAX_UNVERIFIED_BODIES, type OwnBodyReader, type UnverifiedBodySettings } from './ownBody';
import { markWorkspaceVerified } from './verifiedWorkspace';
import type { BodyLimitName, ReadBodyOptions, Route } from './route';
import { compileValidator } from './validate';
import { currentTraceId, tracingMiddleware } from './tracing';
import type { Tracer } from '@opentelemetry/api';

export interface AppOptions {
  logger: Logger;
  identity: IdentityService;
  routes: Route[];
  /** The `json` body limit: every route that names no other. */
  bodyLimitBytes: number;
  /** The other named body limits (`Route.bodyLimit`); each falls back to `bodyLimitBytes`. */
  bodyLimits?: Partial<Record<Exclude<BodyLimitName, 'json'>, number>>;
  /** The cap on webhook bodies read before their sender is verified (default 64 at once). */
  unverifiedBodies?: UnverifiedBodySettings;
  /** Checks a workspace engine secret (routes with `auth: 'apiKeyOrEngine'`). */
  authenticateEngine?: (workspaceId: string, authorization: string | undefined) => Promise<Actor>;
  /** Counts requests and serves `/metrics` (src/http/metrics.ts); first, so it sees every final status. */
  metrics?: Koa.Middleware;
  /** Each route's request limit (src/http/rateLimit.ts), run before its body is read or its caller authenticated. */
  rateLimit?: (route: Route) => Middleware;
  /** A server span per request (src/http/tracing.ts); absent when traces are off. */
  tracer?: Tracer;
}

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    actor?: Actor;
  }
}

function errorBody(ctx: Context, status: number, error: string, details: string | null) {
  ctx.status = status;
  ctx.body = { error, details };
}

/**
 * Valid query strings already parsed, coerced and checked, by operation: a client paging or
 * polling sends the same few again and again. Short strings only, and at most
 * `QUERY_MEMO_SIZE` (the oldest go first), so the memo stays small whatever clients send;
 * invalid ones are never kept. Each request gets its own copy (query values are strings,
 * numbers, booleans or arrays of them), so a handler may change it.
 */
const QUERY_MEMO_SIZE = 1024;
const QUERY_MEMO_MAX_LENGTH = 256;
const queries = new Map<string, Record<string, unknown>>();

function validatedQuery(operationId: string, ctx: Context, validate: (value: unknown) => unknown): Record<string, unknown> {
  const raw = ctx.querystring;
  if (raw.length > QUERY_MEMO_MAX_LENGTH) return validate({ ...ctx.query }) as Record<string, unknown>;
  const key = `${operationId}?${raw}`;
  let query = queries.get(key);
  if (query === undefined) {
    query = copyQuery(validate({ ...ctx.query }) as Record<string, unknown>);
    if (queries.size >= QUERY_MEMO_SIZE) queries.delete(queries.keys().next().value!);
    queries.set(key, query);
  }
  return copyQuery(query);
}

function copyQuery(query: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...query };
  for (const key in copy) {
    const value = copy[key];
    if (Array.isArray(value)) copy[key] = value.slice();
  }
  return copy;
}

/** The serialised form of each body a `reusedBodies` route answered, for as long as the route keeps the object. */
const serialized = new WeakMap<object, { bytes: Buffer; etag: string }>();

function reusedBody(ctx: Context, result: object): void {
  let held = serialized.get(result);
  if (!held) {
    const bytes = Buffer.from(JSON.stringify(result));
    held = { bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"` };
    serialized.set(result, held);
  }
  ctx.set('ETag', held.etag);
  // Any cache may keep it only for this caller, and must ask before reusing it.
  ctx.set('Cache-Control', 'private, no-cache');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = held.bytes;
}

/** How soon a client may retry when a dependency (PostgreSQL, Temporal) is not answering. */
const OUTAGE_RETRY_AFTER_SECONDS = 5;

export function createApp(options: AppOptions): Koa {
  const app = new Koa();
  app.proxy = true;
  const router = new Router();
  const { logger } = options;

  if (options.metrics) app.use(options.metrics);
  // After metrics, so scrapes are not traced; before the rest, so the span sees the final status.
  if (options.tracer) app.use(tracingMiddleware(options.tracer));
  app.use(async (ctx, next) => {
    const inbound = ctx.get('x-request-id');
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(inbound) ? inbound : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } catch (err) {
      if (err instanceof DomainError) {
        errorBody(ctx, statusOf(err.kind), err.message, err.details);
      } else if (typeof (err as { status?: unknown }).status === 'number' && (err as { expose?: boolean }).expose) {
        // Errors Koa itself raises for the client (e.g. a malformed URL): keep the status.
        errorBody(ctx, (err as { status: number }).status, (err as Error).message, null);
      } else if (outageOf(err)) {
        // A dependency is down: the client may retry, and the operator sees it on /readyz.
        logger.warn('request failed: dependency unavailable', { requestId, method: ctx.method, route: ctx._matchedRoute, err: err as Error });
        ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
        errorBody(ctx, 503, 'Service unavailable', `${outageOf(err)} is not answering; retry later (request id ${requestId})`);
      } else {
        logger.error('request failed', { requestId, method: ctx.method, route: ctx._matchedRoute, err: err as Error });
        errorBody(ctx, 500, 'Internal server error', `request id ${requestId}`);
      }
    }
    if (ctx.status === 404 && ctx.body === undefined) errorBody(ctx, 404, 'Not found', `no route for ${ctx.method} ${ctx.path}`);
    // The router answers 501 for a method it has no route for anywhere, 405 for one this path lacks:
    // both are the path's 405 with `Allow` (or 404 for a path that does not exist).
    if ((ctx.status === 405 || ctx.status === 501) && (ctx.body === undefined || typeof ctx.body === 'string')) {
      const allowed = [...new Set(router.match(ctx.path, ctx.method).path.flatMap((layer) => layer.methods))];
      if (allowed.length === 0) errorBody(ctx, 404, 'Not found', `no route for ${ctx.method} ${ctx.path}`);
      else {
        ctx.set('Allow', allowed.join(', '));
        errorBody(ctx, 405, 'Method not allowed', `${ctx.method} is not allowed here; allowed: ${allowed.join(', ')}`);
      }
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info('request', {
      requestId,
      method: ctx.method,
      path: loggedPath(ctx),
      route: ctx._matchedRoute,
      status: ctx.status,
      ms: Math.round(ms * 10) / 10,
      organizationId: ctx.state.actor?.organizationId,
      traceId: options.tracer ? currentTraceId() : undefined,
    });
  });

  const bodyLimits: Record<BodyLimitName, number> = {
    json: options.bodyLimitBytes,
    messages: options.bodyLimits?.messages ?? options.bodyLimitBytes,
    codeHosting: options.bodyLimits?.codeHosting ?? options.bodyLimitBytes,
  };
  const ownBodies = createOwnBodies(options.unverifiedBodies ?? { max: DEFAULT_MAX_UNVERIFIED_BODIES });

  for (const route of options.routes) {
    const validateParams = route.params ? compileValidator('params', route.params) : null;
    const validateQuery = route.query ? compileValidator('query', route.query) : null;
    const validateBody = route.body ? compileValidator('body', route.body) : null;
    const bodyLimit = typeof route.bodyLimit === 'number' ? route.bodyLimit : bodyLimits[route.bodyLimit ?? 'json'];
    const parseBody = route.ownBody ? null : jsonBody(bodyLimit);
    const limit: Middleware = options.rateLimit?.(route) ?? ((_ctx, next) => next());
    const handle = async (ctx: Context, ownBody: OwnBodyReader | null) => {
      const authorization = ctx.get('authorization') || undefined;
      const workspaceId = ctx.get('x-workspace-id');
      // The caller is known before a byte of the body is read.
      if (route.auth === 'apiKeyOrEngine' && workspaceId && options.authenticateEngine) {
        ctx.state.actor = await options.authenticateEngine(workspaceId, authorization);
        markWorkspaceVerified(ctx, workspaceId);
      } else if (route.auth !== 'none') {
        ctx.state.actor = await options.identity.authenticate(authorization, bearerKeyHash(ctx) ?? undefined);
      }
      if (parseBody) await parseBody(ctx);
      const params = validateParams ? validateParams({ ...ctx.params }) : ctx.params;
      const query = validateQuery ? validatedQuery(route.operationId, ctx, validateQuery) : {};
      let body: unknown = ctx.request.body;
      if (validateBody) {
        if (body === undefined && !route.bodyOptional) throw invalid('Invalid body', 'body: a JSON object is required');
        if (body !== undefined) body = validateBody(body);
      } else if (body !== undefined && route.method !== 'delete') {
        throw invalid('Invalid body', 'body: this operation takes no body');
      }
      let status = route.response.status;
      const useAlternate = () => {
        if (!route.response.alternate) throw new Error(`${route.operationId} has no alternate status`);
        status = route.response.alternate.status;
      };
      const readBody = (readOptions?: ReadBodyOptions) => {
        if (!ownBody) throw new Error(`${route.operationId} does not read its own body`);
        return ownBody.read(readOptions);
      };
      const result = await route.handler({ params, query, body, actor: ctx.state.actor as Actor, ctx, useAlternate, readBody });
      if (route.raw) return;
      ctx.status = status;
      if (route.response.reusedBodies && typeof result === 'object' && result !== null) reusedBody(ctx, result);
      else ctx.body = result;
    };
    router[route.method](route.path, limit, async (ctx) => {
      const ownBody = route.ownBody ? ownBodies.reader(ctx, bodyLimit) : null;
      try {
        await handle(ctx, ownBody);
      } finally {
        ownBody?.close();
        // Answered before the body was read (refused, or over the limit): Node would read and
        // discard the rest to keep the connection; closing it ends the upload instead.
        if (!ctx.req.complete && ctx.respond !== false) ctx.set('Connection', 'close');
      }
    });
  }
  app.use(router.routes());
  app.use(router.allowedMethods());
  // A client leaving a stream early is normal; anything else Koa reports is worth a line.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE' && err.code !== 'EPIPE' && err.code !== 'ECONNRESET') logger.error('koa error', { err });
  });
  return app;
}

/**
 * The path as the access log keeps it: a token in the path is the only credential of some
 * routes (the custom webhook, signed download links), so it is replaced by `[token]`.
 */
function loggedPath(ctx: Context): string {
  const token = (ctx.params as Record<string, string> | undefined)?.token;
  return token ? ctx.path.split(encodeURIComponent(token)).join('[token]').split(token).join('[token]') : ctx.path;
}

