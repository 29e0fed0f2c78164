import type { EventBus } from '../../events/bus';
import { warmWorkspaceChannel, type WarmWorkspaceMessage } from '../../events/warmPoolStream';
import type { Logger } from '../../logger';
import { warmPoolWorkspaceParams } from '../../schemas/warmPoolStream';
import { serializeWarmPoolWorkspace } from '../../services/hooks';
import { TERMINAL_WARM_STATUSES, type WarmPoolStreamService } from '../../services/warmPoolStream';
import { defineRoute, type Route } from '../route';
import { openSse, skippableOutput } from '../sse';

/** The bus is the fast path; this re-read catches a status whose message was lost (a worker that died). */
const RECHECK_MS = 5000;

export function warmPoolStreamRoutes(stream: WarmPoolStreamService, bus: EventBus, logger: Logger): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/warm-pool-workspaces/:workspaceId/stream',
      operationId: 'streamWarmPoolWorkspace',
      summary: "Follow a warm-pool workspace: its warm hooks' output while warming, then its final record",
      tag: 'Environments',
      auth: 'apiKey',
      params: warmPoolWorkspaceParams,
      raw: true,
      response: {
        status: 200,
        description:
          'SSE events, each with `type` in its data as the event name: `status` ({status}: the status when the stream opens and each change before the end), `output` ({output}: warm-hook stdout/stderr, only while `warming`; what a slow client has not taken is skipped, and a line says how much), `complete` ({workspace}: the final record, as in GET /v1/warm-pools/{configId}/workspaces; then the stream closes) and `error` ({message}). An entry already `ready`, `failed`, `expired` or `assigned` answers one `complete`.',
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, ctx }) => {
        const id = params.workspaceId;
        // Access is checked before the stream opens, so an unknown id is a normal JSON 404.
        await stream.entry(actor, id);
        const sse = openSse(ctx);
        // Warm-hook output comes off the bus and cannot wait; the entry keeps its hook logs, so
        // a client that falls behind skips live output instead of the server buffering it.
        const output = skippableOutput(sse, (text) => sse.send('output', { type: 'output', output: text }));
        const send = (event: string, data: unknown) => {
          output.flush();
          sse.send(event, data);
        };
        let status: string | null = null;
        let ended = false;
        let timer: NodeJS.Timeout | null = null;
        let unsubscribe: () => Promise<void> = async () => {};
        const end = () => {
          if (ended) return;
          ended = true;
          if (timer) clearInterval(timer);
          void unsubscribe().catch(() => undefined);
          sse.close();
        };
        sse.signal.addEventListener('abort', end, { once: true });

        // One read at a time, in order: a status message only says "look again".
        let reads: Promise<void> = Promise.resolve();
        const recheck = () => {
          reads = reads.then(async () => {
            if (ended) return;
            const row = await stream.current(id);
            if (!row) {
              send('error', { type: 'error', message: 'The warm pool workspace no longer exists' });
              return end();
            }
            if (TERMINAL_WARM_STATUSES.has(row.status)) {
              send('complete', { type: 'complete', workspace: serializeWarmPoolWorkspace(row) });
              return end();
            }
            if (row.status !== status) {
              status = row.status;
              send('status', { type: 'status', status });
            }
          }).catch((err: unknown) => {
            logger.error('warm pool workspace stream failed', { err: err as Error, requestId: ctx.state.requestId });
            send('error', { type: 'error', message: 'Internal server error' });
            end();
          });
          return reads;
        };
        const handle = (message: WarmWorkspaceMessage) => {
          if (ended) return;
          if (message.t === 'output') {
            if (status === 'warming') output.write(message.d);
          } else void recheck();
        };

        // Subscribe before the first read, holding what arrives meanwhile: nothing falls between.
        let held: WarmWorkspaceMessage[] | null = [];
        unsubscribe = await bus.subscribe(warmWorkspaceChannel(id), (raw) => {
          const message = JSON.parse(raw) as WarmWorkspaceMessage;
          if (held) held.push(message);
          else handle(message);
        });
        if (ended) return void unsubscribe().catch(() => undefined);
        await recheck();
        const early = held;
        held = null;
        for (const message of early) handle(message);
        if (!ended) timer = setInterval(() => void recheck(), RECHECK_MS);
      },
    }),
  ];
}
