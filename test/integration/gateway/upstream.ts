/**
 * A stand-in provider for the gateway tests: a plain node:http server on the port the shared
 * harness points `HANGAR_AGENT_N_BASE_URL` at (`/agent_N` prefixes). It records every request
 * and answers in the three wire formats, streaming server-sent events under the test's control.
 *
 * Paths (after `/agent_N`): `/v1/messages` (Anthropic, SSE when `stream`), `/v1/responses`
 * (OpenAI Responses SSE), `/v1/chat/completions` (SSE when `stream`, else JSON), `/slow`
 * (Anthropic SSE that holds its last events until the test releases `?gate=`), `/hang` (first
 * event, then nothing), `/hang-headers` (no answer at all), `/reset` (drops the connection);
 * anything else echoes the request as JSON.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { until } from '../../support/wait';

export interface UpstreamCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  /** The whole body arrived. */
  received: boolean;
  /** The last SSE event was written (the `/slow` stream). */
  sentLast: boolean;
  /** The connection closed before the answer ended. */
  closedEarly: boolean;
}

export interface Upstream {
  calls: UpstreamCall[];
  /** The call whose `x-test-id` header is `id`, once it has arrived. */
  call(id: string): Promise<UpstreamCall>;
  release(gate: string): void;
  /** Stops listening (connections refused) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const TOKENS = {
  anthropicJson: { input: 12, output: 34 },
  anthropicSse: { input: 25, output: 42 },
  responses: { input: 11, output: 7 },
  chatSse: { input: 13, output: 5 },
  chatJson: { input: 21, output: 8 },
};

const sse = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-upstream': 'stand-in' });
  res.flushHeaders();
};
const event = (res: ServerResponse, name: string | null, data: unknown) => res.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);

function anthropicStart(res: ServerResponse, model: string) {
  sse(res);
  event(res, 'message_start', {
    type: 'message_start',
    message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: TOKENS.anthropicSse.input, output_tokens: 1 } },
  });
  event(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
}

function anthropicEnd(res: ServerResponse) {
  event(res, 'content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } });
  event(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  event(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: TOKENS.anthropicSse.output } });
  event(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

function json(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-upstream': 'stand-in' });
  res.end(text);
}

export async function startUpstream(port: number): Promise<Upstream & { close(): Promise<void> }> {
  const calls: UpstreamCall[] = [];
  const gates = new Map<string, () => void>();
  const gate = (name: string) => new Promise<void>((resolve) => gates.set(name, resolve));

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const call: UpstreamCall = { method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.alloc(0), received: false, sentLast: false, closedEarly: false };
    calls.push(call);
    res.on('close', () => {
      if (!res.writableFinished) call.closedEarly = true;
    });
    const url = new URL(req.url!, 'http://upstream');
    const path = url.pathname.replace(/^\/agent_\d/, '');
    if (path === '/hang-headers') return;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    call.body = Buffer.concat(chunks);
    call.received = true;
    const body = (/json/.test(req.headers['content-type'] ?? '') && call.body.length < 1024 * 1024 ? JSON.parse(call.body.toString('utf8') || '{}') : {}) as Record<string, any>;

    switch (path) {
      case '/v1/messages':
        if (body.stream) {
          anthropicStart(res, body.model);
          return anthropicEnd(res);
        }
        return json(res, 200, {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: body.model,
          content: [{ type: 'text', text: 'Hello' }],
          usage: { input_tokens: TOKENS.anthropicJson.input, output_tokens: TOKENS.anthropicJson.output },
        });
      case '/v1/responses': {
        sse(res);
        const response = { id: 'resp_1', object: 'response', model: body.model, status: 'in_progress', usage: null };
        event(res, 'response.created', { type: 'response.created', response });
        event(res, 'response.output_text.delta', { type: 'response.output_text.delta', delta: 'Hello' });
        event(res, 'response.completed', {
          type: 'response.completed',
          response: { ...response, status: 'completed', usage: { input_tokens: TOKENS.responses.input, output_tokens: TOKENS.responses.output, total_tokens: 18 } },
        });
        return res.end();
      }
      case '/v1/chat/completions': {
        if (!body.stream) {
          return json(res, 200, {
            id: 'cc_1',
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: TOKENS.chatJson.input, completion_tokens: TOKENS.chatJson.output, total_tokens: 29 },
          });
        }
        sse(res);
        const chunk = { id: 'cc_1', object: 'chat.completion.chunk', model: body.model };
        event(res, null, { ...chunk, choices: [{ index: 0, delta: { content: 'Hello' } }], usage: null });
        event(res, null, { ...chunk, choices: [], usage: { prompt_tokens: TOKENS.chatSse.input, completion_tokens: TOKENS.chatSse.output, total_tokens: 18 } });
        res.write('data: [DONE]\n\n');
        return res.end();
      }
      case '/slow':
        anthropicStart(res, body.model);
        await gate(url.searchParams.get('gate') ?? '');
        call.sentLast = true;
        return anthropicEnd(res);
      case '/hang':
        anthropicStart(res, body.model);
        return;
      case '/reset':
        req.socket.destroy();
        return;
      default:
        return json(res, 200, {
          method: req.method,
          url: req.url,
          bytes: call.body.length,
          sha256: createHash('sha256').update(call.body).digest('hex'),
        });
    }
  }

  let server: Server;
  const listen = async () => {
    server = createServer((req, res) => {
      handle(req, res).catch((err) => {
        res.destroy(err as Error);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  };
  const stop = async () => {
    for (const release of gates.values()) release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  await listen();
  return {
    calls,
    call: (id) => until(`the upstream call ${id}`, async () => calls.find((c) => c.headers['x-test-id'] === id), 10_000, 20),
    release: (name) => gates.get(name)?.(),
    stop,
    start: listen,
    close: stop,
  };
}
