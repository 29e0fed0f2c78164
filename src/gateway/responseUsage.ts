/**
 * Token counts from the provider's own usage fields, read as the answer passes to the client
 * (nothing waits on this; the client gets every chunk as it arrives):
 * - Anthropic Messages: SSE `message_start` → `message.usage.input_tokens`, `message_delta` →
 *   `usage.output_tokens` (cumulative, so the last one wins); a JSON body's `usage`.
 * - OpenAI Responses: SSE `response.completed` (or `.incomplete`/`.failed`) → `response.usage`
 *   `{input_tokens, output_tokens}`; a JSON body's `usage`.
 * - Chat Completions: `usage.{prompt_tokens, completion_tokens}` in the final chunk or the JSON body.
 * Memory stays bounded: an SSE event or a JSON body larger than the cap is skipped.
 */
import { Transform } from 'node:stream';

export const USAGE_EVENT_LIMIT_BYTES = 4 * 1024 * 1024;

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Folds one provider message (an SSE event's data or a whole JSON body) into the tally. */
export function applyUsage(tally: TokenUsage, message: unknown): void {
  if (!isObject(message)) return;
  const type = typeof message.type === 'string' ? message.type : '';
  let usage: unknown = message.usage;
  if (type === 'message_start' && isObject(message.message)) usage = message.message.usage;
  else if (type.startsWith('response.') && isObject(message.response)) usage = message.response.usage;
  if (!isObject(usage)) return;
  const input = count(usage.input_tokens) ?? count(usage.prompt_tokens);
  const output = count(usage.output_tokens) ?? count(usage.completion_tokens);
  if (input !== null) tally.inputTokens = input;
  if (output !== null) tally.outputTokens = output;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Reads `data:` lines of server-sent events; only events that mention "usage" are parsed. */
function sseReader(tally: TokenUsage, limit: number) {
  const decoder = new TextDecoder();
  let line = '';
  let data = '';
  let oversized = false;
  let pendingCR = false;

  const dispatch = () => {
    if (!oversized && data.includes('"usage"')) applyUsage(tally, parse(data));
    data = '';
    oversized = false;
  };
  const endLine = () => {
    if (line === '') dispatch();
    else if (line.startsWith('data:')) {
      const value = line.slice(line[5] === ' ' ? 6 : 5);
      if (data.length + value.length > limit) oversized = true;
      else data = data ? `${data}\n${value}` : value;
    }
    line = '';
  };
  const append = (part: string) => {
    if (line.length + part.length <= limit) line += part;
    else oversized = true;
  };
  const read = (text: string) => {
    let at = 0;
    if (pendingCR && text.startsWith('\n')) at = 1;
    pendingCR = false;
    const breaks = /[\r\n]/g;
    while (at < text.length) {
      breaks.lastIndex = at;
      const found = breaks.exec(text);
      if (!found) {
        append(text.slice(at));
        return;
      }
      append(text.slice(at, found.index));
      endLine();
      at = found.index + 1;
      if (found[0] === '\r') {
        if (at === text.length) pendingCR = true;
        else if (text[at] === '\n') at += 1;
      }
    }
  };
  return {
    write: (chunk: Buffer) => read(decoder.decode(chunk, { stream: true })),
    end: () => {
      read(decoder.decode());
      if (line !== '') endLine();
      dispatch();
    },
  };
}

/** Keeps a JSON body up to the cap and reads its usage at the end. */
function jsonReader(tally: TokenUsage, limit: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    write: (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    },
    end: () => {
      if (size <= limit) applyUsage(tally, parse(Buffer.concat(chunks).toString('utf8')));
    },
  };
}

/**
 * A pass-through stream for the provider's answer that tallies its token usage. `contentType`
 * picks the reader; a compressed answer (the provider ignored `accept-encoding: identity`)
 * passes untouched and untallied.
 */
export function usageObserver(contentType: string | undefined, contentEncoding: string | undefined, limit = USAGE_EVENT_LIMIT_BYTES) {
  const tally: TokenUsage = { inputTokens: null, outputTokens: null };
  const type = (contentType ?? '').toLowerCase();
  const identity = !contentEncoding || contentEncoding.toLowerCase() === 'identity';
  const reader = !identity
    ? null
    : type.startsWith('text/event-stream')
      ? sseReader(tally, limit)
      : /^application\/([\w.+-]*\+)?json/.test(type)
        ? jsonReader(tally, limit)
        : null;
  const guard = (fn: () => void) => {
    try {
      fn();
    } catch {
      // Reading usage must never disturb the answer itself.
    }
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (reader) guard(() => reader.write(chunk));
      callback(null, chunk);
    },
    flush(callback) {
      if (reader) guard(() => reader.end());
      callback();
    },
  });
  return { stream, usage: (): TokenUsage => ({ ...tally }) };
}
