/**
 * Anthropic Messages on the wire (docs.anthropic.com/en/api/messages-streaming): the event order,
 * block indexes and usage fields of the real API, which Claude Code and the Anthropic SDK
 * accumulate into a Message.
 */
import { pieces } from './sse';
import type { ErrorReply, ResolvedReply, SseEvent } from './types';

const usage = (r: ResolvedReply, outputTokens: number) => ({
  input_tokens: r.usage.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: outputTokens,
});

const stopReason = (r: ResolvedReply) => (r.toolCalls.length > 0 ? 'tool_use' : 'end_turn');

/** The content blocks of the finished message: text first, then one tool_use per call. */
function blocks(r: ResolvedReply): any[] {
  return [
    ...(r.text ? [{ type: 'text', text: r.text }] : []),
    ...r.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments })),
  ];
}

export function anthropicJson(r: ResolvedReply): unknown {
  return {
    id: r.id,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: blocks(r),
    stop_reason: stopReason(r),
    stop_sequence: null,
    usage: usage(r, r.usage.outputTokens),
  };
}

/**
 * message_start (input usage, output_tokens 1 as the real API sends), per block a start, deltas and
 * a stop (a ping after the first start, where the API puts it), then message_delta with the
 * stop reason and the final cumulative usage, then message_stop. A tool_use block starts with
 * `input: {}` and its JSON arrives as `input_json_delta` pieces, the first one empty as the API does.
 */
export function anthropicEvents(r: ResolvedReply): SseEvent[] {
  const ev = (type: string, data: Record<string, unknown>): SseEvent => ({ event: type, data: { type, ...data } });
  const out: SseEvent[] = [
    ev('message_start', {
      message: { id: r.id, type: 'message', role: 'assistant', model: r.model, content: [], stop_reason: null, stop_sequence: null, usage: usage(r, Math.min(1, r.usage.outputTokens)) },
    }),
  ];
  blocks(r).forEach((block, index) => {
    if (block.type === 'text') {
      out.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      if (index === 0) out.push(ev('ping', {}));
      for (const text of pieces(block.text, 16)) out.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else {
      out.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      if (index === 0) out.push(ev('ping', {}));
      for (const partial_json of ['', ...pieces(JSON.stringify(block.input), 12)]) {
        out.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
      }
    }
    out.push(ev('content_block_stop', { index }));
  });
  out.push(ev('message_delta', { delta: { stop_reason: stopReason(r), stop_sequence: null }, usage: usage(r, r.usage.outputTokens) }));
  out.push(ev('message_stop', {}));
  return out;
}

const TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function anthropicError(e: ErrorReply): unknown {
  return { type: 'error', error: { type: e.type ?? TYPES[e.status] ?? 'api_error', message: e.message } };
}

/** `GET /v1/models` as Anthropic answers it, for clients that send `anthropic-version`. */
export function anthropicModels(ids: readonly string[]): unknown {
  return {
    data: ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' })),
    has_more: false,
    first_id: ids[0] ?? null,
    last_id: ids.at(-1) ?? null,
  };
}
