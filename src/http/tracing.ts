/**
 * A server span per request, made by hand on @opentelemetry/api. OpenTelemetry's Koa
 * instrumentation documents Koa ^2 only, patches Koa and @koa/router at load time, and makes
 * spans per middleware under a server span that yet another instrumentation (node:http
 * patching) has to make; one span here is what operators need, and the router already leaves
 * the matched route template on the context.
 *
 * The span continues the caller's trace when it sends `traceparent`, is named
 * `{METHOD} {route template}` (the method alone when no route matched), and carries the
 * method, route, status, request id and organization. Never the path or the query: a path may
 * hold the only credential of some routes (the custom webhook's token, signed links).
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { Middleware } from 'koa';

export function tracingMiddleware(tracer: Tracer): Middleware {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    const span = tracer.startSpan(ctx.method, { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: ctx.method } }, parent);
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (err) {
      // The error middleware answers every error; this is reached only if it did not.
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      const route = ctx._matchedRoute;
      if (typeof route === 'string') {
        span.updateName(`${ctx.method} ${route}`);
        span.setAttribute(ATTR_HTTP_ROUTE, route);
      }
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, ctx.status);
      if (ctx.state.requestId) span.setAttribute('hangar.request_id', ctx.state.requestId);
      if (ctx.state.actor?.organizationId) span.setAttribute('hangar.organization_id', ctx.state.actor.organizationId);
      // Server spans are errors for 5xx only: a 4xx is the client's mistake, answered correctly.
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}

/** The current trace's id, for log lines that should lead to it; undefined when nothing is traced. */
export function currentTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}
