/**
 * `GET /v1/replica/:id/events`: a replica's events as server-sent events, replayed after
 * Last-Event-ID (or `?after=`), then live, with a comment heartbeat (interop §4.13).
 */
import type { Context } from 'koa';
import { invalid } from '../../domain/errors';
import type { LivePresenceEvent } from '../../events/presence';
import type { ReplicaEvent } from '../../events/replicaEvents';
import type { Logger } from '../../logger';
import { EVENT_ID_PATTERN, eventsQuery, replicaParams } from '../../schemas/replicaChats';
import type { PresenceService } from '../../services/presence';
import type { ReplicasService } from '../../services/replicas';
import { defineRoute, type Route } from '../route';
import { openSse, sseMessage, type SseStream } from '../sse';

export interface ReplicaEventRouteDeps {
  logger: Logger;
  /** Comment heartbeat on the events stream (interop §4.13: every 15 s). */
  heartbeatMs?: number;
  /** Members' presence in this workspace, interleaved as messages without an `id:` (not stored, not replayed). */
  presence?: Pick<PresenceService, 'followWorkspace'>;
}

const tag = 'Replicas';
const RETRY_MS = 3000;

/**
 * The events stream's wire format: `id:` (the event id, for Last-Event-ID) and one `data:`
 * line with the envelope; no `event:` line. A batch is written only after the client took the
 * previous one, so a slow client holds its own reader back instead of growing a buffer.
 */
async function sendBatch(stream: SseStream, events: ReplicaEvent[]): Promise<void> {
  if (stream.closed) throw new Error('stream closed');
  const text = events.map((e) => sseMessage(null, { id: e.id, ts: e.ts, type: e.type, payload: e.payload }, e.id)).join('');
  if (!stream.write(text)) await stream.drained();
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
    defineRoute({
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
          "Messages `id: <event id>` + `data: {id, ts, type, payload}`; members' presence in the workspace as `data: {ts, type, payload}` without an id (`presence.changed`, `presence.left`, as on GET /v1/events; not replayed); a comment heartbeat every 15 s. A client that falls too far behind gets a final `event: overflow` message `{type, message}` and reconnects with Last-Event-ID",
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 404],
      handler: async ({ actor, params, query, ctx }) => {
        const after = resumeFrom(ctx, query.after);
        // The first batch can be read before the response is set up: the reader waits for it
        // (null: the stream never opened).
        let opened: (stream: SseStream | null) => void = () => {};
        const ready = new Promise<SseStream | null>((resolve) => (opened = resolve));
        const handle = await service.followEvents(actor, params.id, {
          after,
          deliver: async (events) => {
            const stream = await ready;
            if (!stream) throw new Error('stream closed');
            await sendBatch(stream, events);
          },
          onError: (err) => logger.warn('replica events read failed', { replicaId: params.id, requestId: ctx.state.requestId, err: err as Error }),
        });
        let live: SseStream | null = null;
        const heldPresence: LivePresenceEvent[] = [];
        // Presence is not stored: it cannot wait for a slow client, and one that falls a whole
        // buffer behind gets `overflow` and resumes by its Last-Event-ID.
        const leavePresence = await deps.presence
          ?.followWorkspace(actor, params.id, (event) => (live ? live.send(null, event) : void heldPresence.push(event)))
          .catch(async (err) => {
            await handle.stop().catch(() => undefined);
            opened(null);
            throw err;
          });
        let stopped = false;
        const stop = () => {
          if (stopped) return;
          stopped = true;
          stream.close();
          handle.stop().catch(() => undefined);
          leavePresence?.().catch(() => undefined);
        };
        const stream = openSse(ctx, {
          retryMs: RETRY_MS,
          heartbeatMs,
          overflowMessage: 'The client read too slowly; reconnect with Last-Event-ID to resume',
          onHeartbeat() {
            handle.poke();
            service.exists(params.id).then(
              (exists) => (exists ? undefined : stop()),
              () => undefined,
            );
          },
        });
        ctx.res.once('close', stop);
        stream.signal.addEventListener('abort', stop, { once: true });
        // A client that hung up while the stream was being set up has no 'close' left to fire.
        if (stream.closed) stop();
        for (const event of heldPresence) stream.send(null, event);
        live = stream;
        opened(stream);
      },
    }),
  ];
}
