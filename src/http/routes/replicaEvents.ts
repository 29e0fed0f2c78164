/**
 * `GET /v1/replica/:id/events`: a replica's events as server-sent events, replayed after
 * Last-Event-ID (or `?after=`), then live, with a comment heartbeat (interop §4.13).
 */
import { once } from 'node:events';
import type { Context } from 'koa';
import { invalid } from '../../domain/errors';
import type { LivePresenceEvent } from '../../events/presence';
import type { ReplicaEvent } from '../../events/replicaEvents';
import type { Logger } from '../../logger';
import { EVENT_ID_PATTERN, eventsQuery, replicaParams } from '../../schemas/replicaChats';
import type { PresenceService } from '../../services/presence';
import type { ReplicasService } from '../../services/replicas';
import { defineRoute, type Route } from '../route';

export interface ReplicaEventRouteDeps {
  logger: Logger;
  /** Comment heartbeat on the events stream (interop §4.13: every 15 s). */
  heartbeatMs?: number;
  /** Members' presence in this workspace, interleaved as messages without an `id:` (not stored, not replayed). */
  presence?: Pick<PresenceService, 'followWorkspace'>;
}

const tag = 'Replicas';
const RETRY_MS = 3000;

type Id = { id: string };

/**
 * The events stream's wire format: `id:` (the event id, for Last-Event-ID) and one `data:`
 * line with the envelope; no `event:` line. It writes the response itself (`respond = false`):
 * a client hanging up is the normal end of a stream, not an error to report. Writes wait for
 * the socket to drain, so a slow client holds its own reader back instead of growing a buffer.
 */
function openEventStream(ctx: Context) {
  const res = ctx.res;
  let closed = false;
  let markClosed: () => void = () => {};
  const closedSignal = new Promise<void>((resolve) => (markClosed = resolve));
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  ctx.respond = false;
  res.writeHead(200);
  res.write(`retry: ${RETRY_MS}\n\n`);
  const close = () => {
    if (closed) return;
    closed = true;
    markClosed();
    res.end();
  };
  res.once('close', close);
  if (res.destroyed || ctx.req.socket.destroyed) close();
  return {
    async send(events: ReplicaEvent[]) {
      if (closed) throw new Error('stream closed');
      const text = events.map((e) => `id: ${e.id}\ndata: ${JSON.stringify({ id: e.id, ts: e.ts, type: e.type, payload: e.payload })}\n\n`).join('');
      if (!res.write(text)) await Promise.race([once(res, 'drain'), closedSignal]);
    },
    /** An ephemeral message: no `id:` line, so a client's Last-Event-ID stays on the stored events. */
    live(event: LivePresenceEvent) {
      if (!closed) res.write(`data: ${JSON.stringify(event)}\n\n`);
    },
    comment(text: string) {
      if (!closed) res.write(`: ${text}\n\n`);
    },
    close,
    get closed() {
      return closed;
    },
  };
}

/** Last-Event-ID (a reconnecting EventSource) wins over `?after=` (the URL it was opened with). */
function resumeFrom(ctx: Context, after: string | undefined): string | null {
  const header = ctx.get('last-event-id').trim();
  if (header) {
    if (!EVENT_ID_PATTERN.test(header)) throw invalid('Invalid header', 'headers.last-event-id: must be an event id (digits)');
    return header;
  }
  return after ?? null;
}

export function replicaEventRoutes(service: ReplicasService, deps: ReplicaEventRouteDeps): Route[] {
  const heartbeatMs = deps.heartbeatMs ?? 15_000;
  const logger = deps.logger.child({ component: 'replica-events' });
  return [
    defineRoute<Id, { after?: string }>({
      method: 'get',
      path: '/v1/replica/:id/events',
      operationId: 'streamReplicaEvents',
      summary: "Follow the replica's events (server-sent events; replays after Last-Event-ID or ?after=)",
      tag,
      auth: 'apiKey',
      params: replicaParams,
      query: eventsQuery,
      raw: true,
      response: {
        status: 200,
        description:
          "Messages `id: <event id>` + `data: {id, ts, type, payload}`; members' presence in the workspace as `data: {ts, type, payload}` without an id (`presence.changed`, `presence.left`, as on GET /v1/events; not replayed); a comment heartbeat every 15 s",
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 404],
      handler: async ({ actor, params, query, ctx }) => {
        const after = resumeFrom(ctx, query.after);
        let sse: ReturnType<typeof openEventStream> | null = null;
        const early: ReplicaEvent[][] = [];
        const handle = await service.followEvents(actor, params.id, {
          after,
          // The first batch can be read before the response is set up; hold it until then.
          deliver: async (events) => (sse ? sse.send(events) : void early.push(events)),
          onError: (err) => logger.warn('replica events read failed', { replicaId: params.id, requestId: ctx.state.requestId, err: err as Error }),
        });
        let live: ReturnType<typeof openEventStream> | null = null;
        const heldPresence: LivePresenceEvent[] = [];
        const leavePresence = await deps.presence
          ?.followWorkspace(actor, params.id, (event) => (live ? live.live(event) : void heldPresence.push(event)))
          .catch(async (err) => {
            await handle.stop().catch(() => undefined);
            throw err;
          });
        const stream = openEventStream(ctx);
        const heartbeat = setInterval(() => {
          stream.comment('heartbeat');
          handle.poke();
          service.exists(params.id).then(
            (exists) => (exists ? undefined : stream.close()),
            () => undefined,
          );
        }, heartbeatMs);
        const stop = () => {
          clearInterval(heartbeat);
          stream.close();
          handle.stop().catch(() => undefined);
          leavePresence?.().catch(() => undefined);
        };
        ctx.res.once('close', stop);
        // A client that hung up while the stream was being set up has no 'close' left to fire.
        if (stream.closed) stop();
        for (const event of heldPresence) stream.live(event);
        live = stream;
        try {
          while (early.length > 0) await stream.send(early.shift()!);
          sse = stream;
        } catch {
          stop();
        }
      },
    }),
  ];
}
