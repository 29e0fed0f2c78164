/**
 * agent_5: a `--mode json` CLI reached through a model router (no plan, goal or fast mode;
 * thinking defaults to the model's). Its agent events become `agent_5-<type>`; streaming
 * deltas are dropped (each `message_end` carries the whole message) and `agent_end` ends the
 * turn, failed when the last assistant message stopped on an error.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, contentText, credentialEnv, event, isBlank, obj, parseObject, promptArgs, rawPayload, str, thinkingFor } from './shared';

export const AGENT_5_ENV = { api_key: 'AGENT_5_API_KEY', oauth_token: 'AGENT_5_API_KEY' } as const;

const EVENT_TYPE = /^[a-z][a-z0-9_]{0,39}$/;
/** Deltas and repeats of what another event carries whole. */
const DROPPED = new Set(['message_start', 'message_update', 'tool_execution_update']);

export function agent5Command(req: TurnRequest, opts: AdapterOptions) {
  const thinking = thinkingFor('agent_5', req.thinkingLevel);
  const prompt = promptArgs(req.prompt);
  const args = [
    '-p',
    '--mode',
    'json',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--thinking', thinking] : []),
    ...(req.resumeSessionId ? ['--session', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  return buildCommand('agent_5', args, credentialEnv(req, AGENT_5_ENV), opts, prompt.stdin);
}

export function createAgent5Adapter(opts: AdapterOptions): AgentAdapter {
  let sessionId: string | undefined;
  let lastText: string | undefined;
  let lastError: string | undefined;
  return {
    id: 'agent_5',
    command: (req) => agent5Command(req, opts),
    parse(line): ParsedLine {
      if (isBlank(line)) return { events: [] };
      const msg = parseObject(line);
      if (!msg) return { events: [event('agent_5-system', rawPayload(line))], sessionId };
      const type = typeof msg.type === 'string' && EVENT_TYPE.test(msg.type) ? msg.type : 'system';
      if (DROPPED.has(type)) return { events: [], sessionId };
      if (type === 'session') sessionId = str(msg.id) ?? sessionId;
      if (type === 'message_end') {
        const message = obj(msg.message);
        if (message?.role === 'assistant') {
          lastText = contentText(message) ?? lastText;
          const stop = message.stopReason;
          lastError = stop === 'error' || stop === 'aborted' ? (str(message.errorMessage) ?? `the agent stopped: ${String(stop)}`) : undefined;
        }
      }
      if (type === 'agent_end' || type === 'turn_end') {
        // Both repeat every message of the turn; the history already has them.
        const count = Array.isArray(msg.messages) ? msg.messages.length : undefined;
        const events = [event(`agent_5-${type}`, { type, ...(count === undefined ? {} : { messageCount: count }) })];
        if (type === 'turn_end') return { events, sessionId };
        return { events, sessionId, result: lastError ? { ok: false, sessionId, error: lastError } : { ok: true, sessionId, text: lastText } };
      }
      return { events: [event(`agent_5-${type}`, msg, type === 'session' ? msg.timestamp : undefined)], sessionId };
    },
  };
}
