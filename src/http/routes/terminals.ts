/**
 * Terminal sessions of a workspace (interop §5, seed endpoint 4). The shells live in a
 * worker; these routes reach them through the terminal client over the event bus.
 */
import type { Context } from 'koa';
import { successSchema } from '../../schemas/common';
import { sessionParams, terminalInputBody, terminalSessionEnvelope, terminalSessionList, terminalSizeBody, workspaceParams } from '../../schemas/terminals';
import type { TerminalService } from '../../services/terminals';
import { defineRoute, type Route } from '../route';
import { openSse } from '../sse';

const tag = 'Terminal';
const base = '/v1/workspaces/:workspaceId/terminal/sessions';
const success = { status: 200, description: 'Done', schema: successSchema };

/** An SSE client resuming with the last offset it saw gets only what it missed. */
function resumeOffset(ctx: Context): number {
  const id = ctx.get('last-event-id');
  return /^\d{1,15}$/.test(id) ? Number(id) : 0;
}

export function terminalRoutes(terminals: TerminalService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: base,
      operationId: 'listTerminalSessions',
      summary: 'List the terminal sessions of an active workspace',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      response: { status: 200, description: 'The sessions, oldest first', schema: terminalSessionList },
      errors: [400, 401, 404, 503],
      handler: async ({ actor, params }) => ({ sessions: await terminals.list(actor, params.workspaceId) }),
    }),
    defineRoute({
      method: 'post',
      path: base,
      operationId: 'createTerminalSession',
      summary: 'Open a terminal (a login shell as the workspace user, on a real TTY)',
      tag,
      auth: 'apiKey',
      params: workspaceParams,
      body: terminalSizeBody,
      response: { status: 201, description: 'The new session', schema: terminalSessionEnvelope },
      errors: [400, 401, 404, 429, 503],
      handler: async ({ actor, params, body }) => ({ session: await terminals.create(actor, params.workspaceId, body) }),
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:sessionId/input`,
      operationId: 'writeTerminalInput',
      summary: 'Write a batch of input; batches apply in sequence order within a generation',
      tag,
      auth: 'apiKey',
      params: sessionParams,
      body: terminalInputBody,
      response: success,
      errors: [400, 401, 404, 409],
      handler: async ({ actor, params, body }) => {
        await terminals.input(actor, params.workspaceId, params.sessionId, body);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: `${base}/:sessionId/resize`,
      operationId: 'resizeTerminalSession',
      summary: 'Resize the terminal',
      tag,
      auth: 'apiKey',
      params: sessionParams,
      body: terminalSizeBody,
      response: success,
      errors: [400, 401, 404, 409, 503],
      handler: async ({ actor, params, body }) => {
        await terminals.resize(actor, params.workspaceId, params.sessionId, body);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${base}/:sessionId`,
      operationId: 'deleteTerminalSession',
      summary: 'Stop the shell and delete the session',
      tag,
      auth: 'apiKey',
      params: sessionParams,
      response: success,
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        await terminals.remove(actor, params.workspaceId, params.sessionId);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/:sessionId/stream`,
      operationId: 'streamTerminalSession',
      summary: 'Follow the terminal: recent output replayed, then live output, as server-sent events',
      tag,
      auth: 'apiKey',
      params: sessionParams,
      raw: true,
      response: {
        status: 200,
        description:
          'SSE: `output` events `{data}` (the replay first, then live output; each `id` is the output offset after it, ' +
          'so a reconnect with Last-Event-ID replays only what was missed) and one `exit` event `{exitCode}` when the shell ends; ' +
          'a client that falls too far behind gets a final `overflow` event `{type, message}` and reconnects',
        contentType: 'text/event-stream',
      },
      errors: [400, 401, 404, 503],
      handler: async ({ actor, params, ctx }) => {
        // Everything that can fail does so before the stream opens, as a JSON error.
        const following = await terminals.follow(actor, params.workspaceId, params.sessionId, resumeOffset(ctx));
        // Output comes off the bus and cannot wait for one client (the TTY pauses only for the
        // bus): a client that falls a whole buffer behind gets `overflow` and resumes by its
        // Last-Event-ID from the session's replay.
        const sse = openSse(ctx, { overflowMessage: 'The client read too slowly; reconnect with Last-Event-ID to resume from the replay' });
        sse.signal.addEventListener('abort', () => void following.stop());
        following.start({
          output: (data, end) => void sse.send('output', { data }, String(end)),
          exit: (exitCode) => {
            sse.send('exit', { exitCode });
            sse.close();
            void following.stop();
          },
        });
      },
    }),
  ];
}
