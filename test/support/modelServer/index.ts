/**
 * A local stand-in for the model providers the coding-agent CLIs call (none is reachable from
 * tests): Anthropic Messages (Claude Code), OpenAI Responses (Codex) and OpenAI-compatible Chat
 * Completions (opencode and pi through a router), streaming and not, plus the model lists and
 * token counting the CLIs call on the side. Routes go by the path's ending, so a client may be
 * given any prefix (`/anthropic`, `/v1`, `/api/v1`…). A test scripts the "model" per request;
 * every request is recorded with what was answered and the tokens counted.
 *
 * Token counts are deterministic: input = ceil(request body characters / 4), output =
 * ceil((text + each tool call's name and JSON arguments) characters / 4).
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { anthropicError, anthropicEvents, anthropicJson, anthropicModels } from './anthropic';
import { chatEvents, chatJson } from './chat';
import { describeCall } from './conversation';
import { openaiError, openaiModels, responsesEvents, responsesJson } from './responses';
import { faultPlain, playStream } from './sse';
import type { Endpoint, ErrorReply, Fault, ModelCall, ModelReply, RecordedCall, ResolvedReply, Script, SseEvent, WireFormat } from './types';

export * from './types';
export { contentText, shellCall, transcript } from './conversation';

export interface ModelServerOptions {
  /** Model ids `GET …/models` lists. */
  models?: string[];
  /** Listen address; `0.0.0.0` lets sandbox containers reach the server through the host gateway. */
  host?: string;
  /** A fixed port (the shared harness's AI gateway upstream port); by default any free one. */
  port?: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`, no trailing slash; append any prefix a client expects. */
  url: string;
  port: number;
  /** Every request in arrival order, generation or not. */
  calls: RecordedCall[];
  /** The generation requests, as the script saw them. */
  readonly modelCalls: ModelCall[];
  /** How the next generation requests are answered: a function of the call, or replies taken in order. */
  script(script: Script | Array<ModelReply | string>): void;
  /** Resolves with `check`'s first truthy result, re-checked whenever a request arrives, finishes or closes. */
  waitFor<T>(what: string, check: (calls: RecordedCall[]) => T | undefined | false | null, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const DEFAULT_MODELS = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-5-codex', 'gpt-5', 'test-model'];

const ENDPOINTS: Array<[string, Endpoint, string]> = [
  ['/messages/count_tokens', 'count_tokens', 'POST'],
  ['/messages', 'messages', 'POST'],
  ['/responses', 'responses', 'POST'],
  ['/chat/completions', 'chat', 'POST'],
  ['/models', 'models', 'GET'],
];

const FORMATS: Partial<Record<Endpoint, WireFormat>> = { messages: 'anthropic', responses: 'responses', chat: 'chat' };

function endpointOf(method: string, path: string): Endpoint {
  const bare = path.replace(/\/+$/, '');
  return ENDPOINTS.find(([suffix, , m]) => bare.endsWith(suffix) && method === m)?.[1] ?? 'unknown';
}

/** Request bodies, inflated when the client compressed them (Codex may send zstd on newer Node). */
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let raw: Buffer = Buffer.concat(chunks);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip') raw = zlib.gunzipSync(raw);
  else if (encoding === 'deflate') raw = zlib.inflateSync(raw);
  else if (encoding === 'br') raw = zlib.brotliDecompressSync(raw);
  else if (encoding === 'zstd') {
    const zstd = (zlib as any).zstdDecompressSync as ((b: Buffer) => Buffer) | undefined;
    if (!zstd) throw new Error('zstd request bodies need Node >= 22.15');
    raw = zstd(raw);
  }
  return raw.toString('utf8');
}

/** The fields the real APIs reject a request without, in their words. */
function invalid(format: WireFormat, body: any): string | undefined {
  if (typeof body !== 'object' || body === null) return 'request body must be a JSON object';
  if (typeof body.model !== 'string') return 'model: Field required';
  if (format === 'anthropic' && typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  if (format !== 'responses' && !Array.isArray(body.messages)) return 'messages: Field required';
  return undefined;
}

const TOOL_ID_PREFIX: Record<WireFormat, string> = { anthropic: 'toolu_', responses: 'call_', chat: 'call_' };
const RESPONSE_ID_PREFIX: Record<WireFormat, string> = { anthropic: 'msg_', responses: 'resp_', chat: 'chatcmpl-' };

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const models = options.models ?? DEFAULT_MODELS;
  const calls: RecordedCall[] = [];
  const changes = new EventEmitter();
  const changed = () => changes.emit('change');
  let closing = false;
  let generations = 0;
  let counter = 0;
  // Ids look like the providers' (prefix + 24 characters) and are unique per server, stable per run.
  const nextId = (prefix: string) => `${prefix}${String(++counter).padStart(24, '0')}`;
  // Until a test scripts it, the model just says OK: enough for a CLI's side requests (titles, quota checks).
  let current: Script = () => ({ text: 'OK' });

  function resolveReply(format: WireFormat, reply: ModelReply, model: string, inputTokens: number): ResolvedReply {
    const toolCalls = [...(reply.toolCall ? [reply.toolCall] : []), ...(reply.toolCalls ?? [])].map((c) => {
      const json = JSON.stringify(c.arguments);
      return { id: c.id ?? nextId(TOOL_ID_PREFIX[format]), name: c.name, arguments: c.arguments, json };
    });
    const text = reply.text ?? '';
    const outputChars = text.length + toolCalls.reduce((n, c) => n + c.name.length + c.json.length, 0);
    return { text, toolCalls, model, id: nextId(RESPONSE_ID_PREFIX[format]), nextId, usage: { inputTokens, outputTokens: Math.ceil(outputChars / 4) } };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: RecordedCall, raw: string): Promise<void> {
    const anthropicClient = record.endpoint === 'messages' || record.endpoint === 'count_tokens' || req.headers['anthropic-version'] !== undefined;
    const requestId: Record<string, string> = anthropicClient ? { 'request-id': `req_${record.seq}` } : { 'x-request-id': `req_${record.seq}` };
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      record.outcome = status < 400 ? 'complete' : 'error';
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json', ...requestId, ...headers });
      res.end(JSON.stringify(body));
    };
    const fail = (e: ErrorReply) => {
      const headers: Record<string, string> = {};
      if (e.retry !== undefined) headers['x-should-retry'] = String(e.retry);
      if (e.retryAfter !== undefined) headers['retry-after'] = String(e.retryAfter);
      json(e.status, anthropicClient ? anthropicError(e) : openaiError(e), headers);
    };
    const inputTokens = Math.ceil(raw.length / 4);

    if (record.endpoint === 'models') return json(200, anthropicClient ? anthropicModels(models) : openaiModels(models));
    if (record.endpoint === 'unknown') return fail({ status: 404, message: `no route for ${req.method} ${record.path}` });
    if (record.body === undefined || typeof record.body === 'string') return fail({ status: 400, message: 'request body is not valid JSON' });
    if (record.endpoint === 'count_tokens') {
      record.usage = { inputTokens, outputTokens: 0 };
      return json(200, { input_tokens: inputTokens });
    }

    const format = FORMATS[record.endpoint]!;
    const problem = invalid(format, record.body);
    if (problem) return fail({ status: 400, type: 'invalid_request_error', message: problem });
    const call = describeCall(format, generations++, record.path, req.headers, record.body);
    record.call = call;
    let reply: ModelReply;
    try {
      const answer = await current(call);
      reply = typeof answer === 'string' ? { text: answer } : answer;
    } catch (err) {
      // A script bug shows up as a 500 the test can see, with the reason in the recorded reply.
      reply = { error: { status: 500, message: `model server script failed: ${err instanceof Error ? err.message : String(err)}` } };
    }
    record.reply = reply;
    if (reply.error) return fail(reply.error);

    const resolved = resolveReply(format, reply, call.model, inputTokens);
    record.usage = resolved.usage;
    // Show the ids the client will see, so a test can match tool results to its calls.
    const { toolCall: _single, ...rest } = reply;
    record.reply = { ...rest, toolCalls: resolved.toolCalls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a })) };
    const fault: Fault | undefined = typeof reply.fault === 'string' ? { kind: reply.fault } : reply.fault;
    if (!call.stream) {
      if (fault) {
        record.outcome = faultPlain(res, fault);
        return;
      }
      return json(200, format === 'anthropic' ? anthropicJson(resolved) : format === 'responses' ? responsesJson(resolved, record.body) : chatJson(resolved));
    }
    const events: SseEvent[] =
      format === 'anthropic' ? anthropicEvents(resolved) : format === 'responses' ? responsesEvents(resolved, record.body) : chatEvents(resolved, record.body);
    record.status = 200;
    if (res.destroyed) return;
    record.outcome = await playStream(res, requestId, events, fault, (outcome) => {
      record.outcome = outcome;
      changed();
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const record: RecordedCall = {
      seq: -1, // numbered on arrival of the whole body, when it joins `calls`
      method,
      path: url.pathname,
      endpoint: endpointOf(method, url.pathname),
      headers: req.headers,
      body: undefined,
      outcome: 'pending',
      clientClosed: false,
    };
    res.on('close', () => {
      // A client giving up (abort, stall timeout) closes a response the server has not ended.
      if (!closing && (record.outcome === 'pending' || record.outcome === 'stalled')) record.clientClosed = true;
      changed();
    });
    void (async () => {
      let raw = '';
      try {
        raw = await readBody(req);
        record.body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        record.body = raw;
      }
      record.seq = calls.length;
      calls.push(record);
      changed();
      await handle(req, res, record, raw);
      changed();
    })().catch((err: unknown) => {
      record.outcome = 'error';
      res.destroy(err instanceof Error ? err : new Error(String(err)));
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    calls,
    get modelCalls() {
      return calls.flatMap((c) => (c.call ? [c.call] : []));
    },
    script(script) {
      if (typeof script === 'function') {
        current = script;
        return;
      }
      const queue = [...script];
      current = (call) => {
        const next = queue.shift();
        if (next === undefined) throw new Error(`no scripted reply left for call ${call.index} (${call.format} ${call.model})`);
        return next;
      };
    },
    waitFor(what, check, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const done = (settle: () => void) => {
          clearTimeout(timer);
          changes.off('change', test);
          settle();
        };
        const test = () => {
          try {
            const value = check(calls);
            if (value !== undefined && value !== false && value !== null) done(() => resolve(value));
          } catch (err) {
            done(() => reject(err as Error));
          }
        };
        const timer = setTimeout(() => {
          const seen = calls.map((c) => `${c.method} ${c.path} ${c.outcome}`).join('; ') || 'none';
          done(() => reject(new Error(`model server: timed out waiting for ${what} (requests: ${seen})`)));
        }, timeoutMs);
        changes.on('change', test);
        test();
      });
    },
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Stalled streams and idle keep-alive sockets would hold close() open forever.
      server.closeAllConnections();
      await closed;
    },
  };
}
