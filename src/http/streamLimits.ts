/**
 * How many event streams an API process holds open: per API key, per organization and in
 * all (docs/decisions/workspaces.md, "Event stream caps and backpressure"). Every route that answers
 * `text/event-stream` takes a slot before its handler runs and gives it back when the
 * response closes (the stream ended or the client went away); past a cap the answer is 429
 * with `Retry-After` and the Error body, before any other work.
 */
import type { Context } from 'koa';
import type { StreamLimits } from '../config';
import type { Actor } from '../domain/actor';
import { rateLimited } from '../domain/errors';
import type { Route } from './route';

/** A slot frees when some stream ends, which nothing predicts; a client may try again soon. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

export interface StreamSlots {
  /** Takes a slot for `actor` (counted only in all without one), or throws the 429 (with `Retry-After` set on `ctx`). */
  take(actor: Actor | undefined, ctx: Context): () => void;
  /** Streams open now. */
  readonly open: number;
}

export function createStreamSlots(limits: Pick<StreamLimits, 'perKey' | 'perOrganization' | 'perProcess'>): StreamSlots {
  const byKey = new Map<string, number>();
  const byOrganization = new Map<string, number>();
  let open = 0;

  const bump = (counts: Map<string, number>, id: string, by: 1 | -1) => {
    const next = (counts.get(id) ?? 0) + by;
    if (next > 0) counts.set(id, next);
    else counts.delete(id);
  };

  function refuse(ctx: Context, details: string): never {
    ctx.set('Retry-After', String(STREAM_RETRY_AFTER_SECONDS));
    throw rateLimited('Too many open event streams', details);
  }

  return {
    take(actor, ctx) {
      const keyId = actor?.keyId ?? '';
      const organizationId = actor?.organizationId ?? '';
      if (actor && (byKey.get(keyId) ?? 0) >= limits.perKey) {
        refuse(ctx, `an API key may hold ${limits.perKey} event streams open at once; close one before opening another`);
      }
      if (actor && (byOrganization.get(organizationId) ?? 0) >= limits.perOrganization) {
        refuse(ctx, `an organization may hold ${limits.perOrganization} event streams open at once; close one before opening another`);
      }
      if (open >= limits.perProcess) refuse(ctx, 'this server holds as many event streams as it may; try again later');
      if (actor) {
        bump(byKey, keyId, 1);
        bump(byOrganization, organizationId, 1);
      }
      open += 1;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        if (actor) {
          bump(byKey, keyId, -1);
          bump(byOrganization, organizationId, -1);
        }
        open -= 1;
      };
    },
    get open() {
      return open;
    },
  };
}

export const isEventStream = (route: Route) => route.response.contentType === 'text/event-stream';

/**
 * Puts every event-stream route behind the slots, documents its 429, and hands the process's
 * buffer cap to `openSse`. Other routes pass unchanged.
 */
export function limitStreams(routes: Route[], slots: StreamSlots, bufferBytes: number): Route[] {
  return routes.map((route) => {
    if (!isEventStream(route)) return route;
    return {
      ...route,
      errors: [...new Set([...route.errors, 429])].sort((a, b) => a - b),
      async handler(input) {
        const { ctx } = input;
        const release = slots.take(input.actor as Actor | undefined, ctx);
        ctx.res.once('close', release);
        ctx.state.streamBufferBytes = bufferBytes;
        try {
          return await route.handler(input);
        } catch (err) {
          release();
          // Failing after the stream opened leaves nobody to write or end it.
          if (ctx.res.headersSent) ctx.res.end();
          throw err;
        }
      },
    };
  });
}
