import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { EventBus } from '../../events/bus';
import { hookStreamChannel, type HookStreamMessage } from '../../events/hookStream';
import { DomainError } from '../../domain/errors';
import type { Logger } from '../../logger';
import {
  hookAnswers,
  hookContentBody as contentBody,
  hookParams as params,
  hookTestAnswer,
  warmPoolAnswer,
  warmPoolBody,
  warmPoolWorkspacesAnswer,
  warmPoolWorkspacesParams,
} from '../../schemas/hooks';
import { serializeHook, serializeWarmPool, serializeWarmPoolWorkspace, type HooksService } from '../../services/hooks';
import type { HookKind } from '../../../workflows/shared';
import { defineRoute, type Route } from '../route';
import { openSse, skippableOutput } from '../sse';

const tag = 'Environments';
const base = '/v1/environments/:environmentId';

/** Tells the relay when the activity's last live message has arrived. */
const RELAY_DRAIN_MS = 2000;

export function hookRoutes(hooks: HooksService, bus: EventBus, logger: Logger): Route[] {
  // The response closing before it finished means the client went away.
  const abortOnHangup = (ctx: Context) => {
    const controller = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) controller.abort();
    });
    return controller.signal;
  };

  const routes: Route[] = [];
  for (const kind of ['warm', 'start'] as HookKind[]) {
    const key = `${kind}_hook`;
    const Kind = kind === 'warm' ? 'Warm' : 'Start';
    routes.push(
      defineRoute({
        method: 'get',
        path: `${base}/${kind}-hooks`,
        operationId: `get${Kind}Hook`,
        summary: `Get the active ${kind} hook${kind === 'warm' ? ' and the warm-pool settings' : ''}`,
        tag,
        auth: 'apiKey',
        params,
        response: {
          status: 200,
          description: `The ${kind} hook`,
          schema: hookAnswers[kind].get,
        },
        errors: [400, 401, 403, 404],
        handler: async ({ actor, params }) => {
          if (kind === 'start') return { start_hook: serializeHook(await hooks.get(actor, params.environmentId, 'start')) };
          const state = await hooks.warmState(actor, params.environmentId);
          return { warm_hook: serializeHook(state.hook), warm_pool: serializeWarmPool(state.pool) };
        },
      }),
      defineRoute({
        method: 'post',
        path: `${base}/${kind}-hooks/save`,
        operationId: `save${Kind}Hook`,
        summary: `Save the ${kind} hook (a new version; empty content clears it)`,
        tag,
        auth: 'apiKey',
        params,
        body: contentBody,
        response: { status: 201, description: 'The saved hook', schema: hookAnswers[kind].saved },
        errors: [400, 401, 403, 404],
        handler: async ({ actor, params, body }) => ({ [key]: serializeHook(await hooks.save(actor, params.environmentId, kind, body.content)) }),
      }),
      defineRoute({
        method: 'post',
        path: `${base}/${kind}-hooks/test`,
        operationId: `test${Kind}Hook`,
        summary: `Run a ${kind} hook in a fresh sandbox without saving it`,
        tag,
        auth: 'apiKey',
        params,
        body: contentBody,
        response: { status: 200, description: 'The test result', schema: hookTestAnswer },
        errors: [400, 401, 403, 404],
        handler: async ({ actor, params, body, ctx }) => ({
          test: await hooks.test(actor, params.environmentId, kind, body.content, { signal: abortOnHangup(ctx) }),
        }),
      }),
      defineRoute({
        method: 'post',
        path: `${base}/${kind}-hooks/save-test`,
        operationId: `saveAndTest${Kind}Hook`,
        summary: `Save the ${kind} hook, then test it (saved even when the test fails)`,
        tag,
        auth: 'apiKey',
        params,
        body: contentBody,
        response: { status: 201, description: 'The saved hook and the test result', schema: hookAnswers[kind].savedAndTested },
        errors: [400, 401, 403, 404],
        handler: async ({ actor, params, body, ctx }) => {
          const saved = await hooks.save(actor, params.environmentId, kind, body.content);
          const test = await hooks.test(actor, params.environmentId, kind, body.content, { signal: abortOnHangup(ctx) });
          return { [key]: serializeHook(saved), test };
        },
      }),
    );
  }

  routes.push(
    defineRoute({
      method: 'post',
      path: `${base}/start-hooks/test/stream`,
      operationId: 'streamStartHookTest',
      summary: 'Run a start hook in a fresh sandbox, streaming progress and output as server-sent events',
      tag,
      auth: 'apiKey',
      params,
      body: contentBody,
      raw: true,
      response: {
        status: 200,
        description:
          'SSE events, each with `type` in its data as the event name: `progress` ({message, step, state, exit_code}), `output` ({output}), `complete` ({exit_code, timed_out, output}) and `error` ({message, error, details}). Live output a slow client has not taken is skipped (an `output` line says how much); `complete` has all of it',
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, body, ctx }) => {
        // Access is checked before the stream opens, so a bad id is a normal JSON 404.
        await hooks.get(actor, params.environmentId, 'start');
        const testId = randomUUID();
        const channel = hookStreamChannel(testId);
        let ended: () => void = () => {};
        const endSeen = new Promise<void>((resolve) => (ended = resolve));
        const sse = openSse(ctx);
        // The output arrives over the bus and cannot wait; `complete` repeats all of it, so a
        // client that falls behind skips live output instead of the server buffering it.
        const output = skippableOutput(sse, (text) => sse.send('output', { type: 'output', output: text }));
        const send = (event: string, data: unknown) => {
          output.flush();
          sse.send(event, data);
        };
        const unsubscribe = await bus.subscribe(channel, (raw) => {
          const message = JSON.parse(raw) as HookStreamMessage;
          if (message.t === 'output') output.write(message.d);
          else if (message.t === 'step') send('progress', progress(message.step, message.state, message.exit_code ?? null));
          else ended();
        });
        sse.send('progress', progress(null, 'queued', null));
        void (async () => {
          try {
            const test = await hooks.test(actor, params.environmentId, 'start', body.content, { signal: sse.signal, streamChannel: channel, testId });
            // The result travels through Temporal and the output through the bus; let the
            // bus catch up so `complete` is the last event.
            await Promise.race([endSeen, new Promise((r) => setTimeout(r, RELAY_DRAIN_MS))]);
            send('complete', { type: 'complete', ...test });
          } catch (err) {
            const known = err instanceof DomainError;
            if (!known) logger.error('streamed hook test failed', { err: err as Error, requestId: ctx.state.requestId });
            const body = known ? { error: err.message, details: err.details } : { error: 'Internal server error', details: null };
            send('error', { type: 'error', message: body.error, ...body });
          } finally {
            await unsubscribe();
            sse.close();
          }
        })();
      },
    }),
    defineRoute({
      method: 'put',
      path: `${base}/warm-pools`,
      operationId: 'setWarmPool',
      summary: "Enable or disable the environment's warm pool",
      tag,
      auth: 'apiKey',
      params,
      body: warmPoolBody,
      response: { status: 200, description: 'The warm-pool settings with stats', schema: warmPoolAnswer },
      errors: [400, 401, 403, 404],
      handler: async ({ actor, params, body }) => ({ warm_pool: serializeWarmPool(await hooks.setWarmPool(actor, params.environmentId, body.enabled)) }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/warm-pools/:configId/workspaces',
      operationId: 'listWarmPoolWorkspaces',
      summary: "A warm pool's most recent workspaces (up to 10)",
      tag,
      auth: 'apiKey',
      params: warmPoolWorkspacesParams,
      response: { status: 200, description: 'The entries, newest first', schema: warmPoolWorkspacesAnswer },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => ({ workspaces: (await hooks.poolWorkspaces(actor, params.configId)).map(serializeWarmPoolWorkspace) }),
    }),
  );
  return routes;
}

/** A `progress` event: the original's `message`, and the step, its state and exit code. */
function progress(step: string | null, state: string, exitCode: number | null) {
  return { type: 'progress', message: step ? `${step} ${state}` : state, step, state, exit_code: exitCode };
}
