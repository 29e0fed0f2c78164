/**
 * OpenAI Responses on the wire (platform.openai.com/docs/api-reference/responses-streaming), as
 * Codex reads it: output items announced, filled by deltas, closed by `output_item.done` carrying
 * the whole item (what Codex acts on), and `response.completed` carrying the usage.
 */
import { pieces } from './sse';
import type { ErrorReply, ResolvedReply, SseEvent } from './types';

const CREATED_AT = 1_750_000_000;

/** The finished output items: one assistant message when there is text, then one function_call per call. */
function outputItems(r: ResolvedReply): any[] {
  const items: any[] = [];
  if (r.text) {
    items.push({
      id: r.nextId('msg_'),
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: r.text, annotations: [], logprobs: [] }],
    });
  }
  for (const c of r.toolCalls) {
    items.push({ id: r.nextId('fc_'), type: 'function_call', status: 'completed', call_id: c.id, name: c.name, arguments: c.json });
  }
  return items;
}

/** The response object; `body` is echoed where the API echoes the request. */
function responseObject(r: ResolvedReply, body: any, status: 'in_progress' | 'completed', output: any[]) {
  return {
    id: r.id,
    object: 'response',
    created_at: CREATED_AT,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: r.model,
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage:
      status === 'completed'
        ? {
            input_tokens: r.usage.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: r.usage.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: r.usage.inputTokens + r.usage.outputTokens,
          }
        : null,
    user: null,
    metadata: body.metadata ?? {},
  };
}

export function responsesJson(r: ResolvedReply, body: any): unknown {
  return responseObject(r, body, 'completed', outputItems(r));
}

/** Every event carries `type` and a `sequence_number` counting from 0, as the API sends them. */
export function responsesEvents(r: ResolvedReply, body: any): SseEvent[] {
  const items = outputItems(r);
  const out: SseEvent[] = [];
  const ev = (type: string, data: Record<string, unknown>) => out.push({ event: type, data: { type, sequence_number: out.length, ...data } });
  ev('response.created', { response: responseObject(r, body, 'in_progress', []) });
  ev('response.in_progress', { response: responseObject(r, body, 'in_progress', []) });
  items.forEach((item, output_index) => {
    const at = { item_id: item.id, output_index };
    if (item.type === 'message') {
      const text: string = item.content[0].text;
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', { ...at, content_index: 0, part });
      for (const delta of pieces(text, 16)) ev('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      ev('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(item.arguments, 12)) ev('response.function_call_arguments.delta', { ...at, delta });
      ev('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments });
    }
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: responseObject(r, body, 'completed', items) });
  return out;
}

const TYPES: Record<number, [string, string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

/** `{error: {message, type, param, code}}`, the body of every OpenAI error, Chat Completions included. */
export function openaiError(e: ErrorReply): unknown {
  const [type, code] = TYPES[e.status] ?? ['server_error', null];
  return { error: { message: e.message, type: e.type ?? type, param: null, code: e.code ?? code } };
}

export function openaiModels(ids: readonly string[]): unknown {
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: CREATED_AT, owned_by: 'hangar-test' })) };
}
