/**
 * OpenAI Chat Completions on the wire, the dialect model routers speak to opencode and pi: bare
 * `data:` chunks, tool calls keyed by `index` with the id, type and name only in their first
 * chunk and the arguments in string pieces, a finish chunk, an optional usage chunk with empty
 * `choices`, then `data: [DONE]`.
 */
import { pieces } from './sse';
import type { ResolvedReply, SseEvent } from './types';

const CREATED = 1_750_000_000;

const finishReason = (r: ResolvedReply) => (r.toolCalls.length > 0 ? 'tool_calls' : 'stop');

const usage = (r: ResolvedReply) => ({
  prompt_tokens: r.usage.inputTokens,
  completion_tokens: r.usage.outputTokens,
  total_tokens: r.usage.inputTokens + r.usage.outputTokens,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
});

export function chatJson(r: ResolvedReply): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: r.text || null, refusal: null };
  if (r.toolCalls.length > 0) {
    message.tool_calls = r.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.json } }));
  }
  return {
    id: r.id,
    object: 'chat.completion',
    created: CREATED,
    model: r.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(r) }],
    usage: usage(r),
    system_fingerprint: null,
  };
}

/**
 * With `stream_options.include_usage` every chunk carries `usage: null` and one more chunk, with
 * `choices: []`, carries the totals: the API's own convention, which the SDK and the AI SDK
 * (opencode) both expect.
 */
export function chatEvents(r: ResolvedReply, body: any): SseEvent[] {
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    event: null,
    data: { id: r.id, object: 'chat.completion.chunk', created: CREATED, model: r.model, system_fingerprint: null, choices, ...(withUsage ? { usage: null } : {}), ...extra },
  });
  const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
  const out: SseEvent[] = [delta({ role: 'assistant', content: '', refusal: null })];
  for (const content of pieces(r.text, 16)) out.push(delta({ content }));
  r.toolCalls.forEach((c, index) => {
    out.push(delta({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const args of pieces(c.json, 12)) out.push(delta({ tool_calls: [{ index, function: { arguments: args } }] }));
  });
  out.push(delta({}, finishReason(r)));
  if (withUsage) out.push(chunk([], { usage: usage(r) }));
  out.push({ event: null, data: '[DONE]' });
  return out;
}
