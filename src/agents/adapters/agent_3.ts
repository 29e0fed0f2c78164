/**
 * agent_3: a `-p --output-format stream-json` CLI (API key only). Lines are `system` init,
 * `user` (the prompt echoed), `thinking` deltas, `assistant` text, `tool_call` started and
 * completed, and a final `result`; they become `agent_3-status|thinking|assistant|tool_call|
 * task|error` events.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, contentText, event, isBlank, modesFor, obj, parseObject, promptArgs, rawPayload, str, thinkingFor } from './shared';

export function agent3Command(req: TurnRequest, opts: AdapterOptions) {
  const modes = modesFor('agent_3', req);
  const thinking = thinkingFor('agent_3', req.thinkingLevel);
  const prompt = promptArgs(req.prompt);
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    // Runs commands and writes files without asking: the workspace container is the sandbox.
    '--force',
    ...(modes.plan ? ['--mode', 'plan'] : []),
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--reasoning-effort', thinking] : []),
    ...(req.resumeSessionId ? ['--resume', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  // The operator-supplied CLI reads its key here; it holds the gateway key, never a provider key.
  return buildCommand('agent_3', { args, env: { CURSOR_API_KEY: req.gateway.key }, stdin: prompt.stdin }, opts);
}

export function createAgent3Adapter(opts: AdapterOptions): AgentAdapter {
  let sessionId: string | undefined;
  let lastText: string | undefined;
  return {
    id: 'agent_3',
    command: (req) => agent3Command(req, opts),
    parse(line): ParsedLine {
      if (isBlank(line)) return { events: [] };
      const msg = parseObject(line);
      if (!msg) return { events: [event('agent_3-status', rawPayload(line))], sessionId };
      sessionId = str(msg.session_id) ?? sessionId;
      switch (msg.type) {
        case 'assistant':
          lastText = contentText(msg.message) ?? lastText;
          return { events: [event('agent_3-assistant', msg)], sessionId };
        case 'thinking':
          return { events: [event('agent_3-thinking', msg)], sessionId };
        case 'tool_call': {
          const isTask = Object.keys(obj(msg.tool_call) ?? {}).some((k) => k.startsWith('task'));
          return { events: [event(isTask ? 'agent_3-task' : 'agent_3-tool_call', msg)], sessionId };
        }
        case 'user':
          // The prompt echoed back; the chat already holds the user's message.
          return { events: [], sessionId };
        case 'error':
          return { events: [event('agent_3-error', msg)], sessionId };
        case 'result': {
          const ok = msg.subtype === 'success' && msg.is_error !== true;
          const text = str(msg.result);
          return {
            events: [event(ok ? 'agent_3-status' : 'agent_3-error', msg)],
            sessionId,
            result: ok ? { ok, sessionId, text: text ?? lastText } : { ok, sessionId, error: text ?? 'the agent reported an error' },
          };
        }
        default:
          return { events: [event('agent_3-status', msg)], sessionId };
      }
    },
  };
}
