/**
 * agent_5: a `--mode json` CLI reached through a model router (no plan, goal or fast mode;
 * thinking defaults to the model's). Its agent events become `agent_5-<type>`; streaming
 * deltas are dropped (each `message_end` carries the whole message) and `agent_end` ends the
 * turn, failed when the last assistant message stopped on an error.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, contentText, event, gatewayUrl, isBlank, obj, parseObject, rawPayload, str, thinkingFor } from './shared';

/** The variable the CLI's provider reads its key from: the gateway key. */
export const AGENT_5_KEY_ENV = 'HANGAR_AGENT_KEY';
/** The CLI's custom providers file. */
export const AGENT_5_MODELS_FILE = '~/.pi/agent/models.json';

/** The gateway as an OpenAI-compatible provider of the requested model. */
function modelsConfig(req: TurnRequest) {
  return {
    providers: {
      hangar: {
        baseUrl: gatewayUrl(req, '/v1'),
        api: 'openai-completions',
        apiKey: AGENT_5_KEY_ENV,
        models: req.model ? [{ id: req.model }] : [],
      },
    },
  };
}

const EVENT_TYPE = /^[a-z][a-z0-9_]{0,39}$/;
/** Deltas and repeats of what another event carries whole. */
const DROPPED = new Set(['message_start', 'message_update', 'tool_execution_update']);

export function agent5Command(req: TurnRequest, opts: AdapterOptions) {
  const thinking = thinkingFor('agent_5', req.thinkingLevel);
  const args = [
    '-p',
    '--mode',
    'json',
    // No update check or other startup traffic: the gateway is the only traffic.
    '--offline',
    '--provider',
    'hangar',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--thinking', thinking] : []),
    ...(req.resumeSessionId ? ['--session', req.resumeSessionId] : []),
    ...(req.settings.systemPrompt ? ['--append-system-prompt', req.settings.systemPrompt] : []),
  ];
  const files = [{ path: AGENT_5_MODELS_FILE, content: JSON.stringify(modelsConfig(req), null, 2) + '\n' }];
  // Always on stdin: the CLI has no `--` and reads a leading `-` as an option and `@…` as a file.
  return buildCommand('agent_5', { args, env: { [AGENT_5_KEY_ENV]: req.gateway.key }, files, stdin: req.prompt }, opts);
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
