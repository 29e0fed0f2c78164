/**
 * agent_1: a `-p --output-format stream-json --verbose` CLI. Every stdout line is one SDK
 * message (`system` init, `assistant`, `user` tool results, a final `result`), kept whole as
 * the payload of `agent_1-<type>`.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, credentialEnv, event, isBlank, modesFor, parseObject, promptArgs, rawPayload, str, thinkingFor } from './shared';

export const AGENT_1_ENV = { api_key: 'AGENT_1_API_KEY', oauth_token: 'AGENT_1_OAUTH_TOKEN' } as const;

export function agent1Command(req: TurnRequest, opts: AdapterOptions) {
  const modes = modesFor('agent_1', req);
  const thinking = thinkingFor('agent_1', req.thinkingLevel);
  const prompt = promptArgs(req.prompt);
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    // The workspace container is the sandbox; plan mode only plans.
    '--permission-mode',
    modes.plan ? 'plan' : 'bypassPermissions',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--effort', thinking] : []),
    ...(modes.fast ? ['--fast'] : []),
    ...(req.resumeSessionId ? ['--resume', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  return buildCommand('agent_1', args, credentialEnv(req, AGENT_1_ENV), opts, prompt.stdin);
}

export function createAgent1Adapter(opts: AdapterOptions): AgentAdapter {
  let sessionId: string | undefined;
  return {
    id: 'agent_1',
    command: (req) => agent1Command(req, opts),
    parse(line): ParsedLine {
      if (isBlank(line)) return { events: [] };
      const msg = parseObject(line);
      if (!msg) return { events: [event('agent_1-system', rawPayload(line))], sessionId };
      sessionId = str(msg.session_id) ?? sessionId;
      switch (msg.type) {
        case 'assistant':
        case 'user':
          return { events: [event(`agent_1-${msg.type}`, msg)], sessionId };
        case 'result': {
          const ok = msg.subtype === 'success' && msg.is_error !== true;
          const errors = Array.isArray(msg.errors) ? msg.errors.filter((e): e is string => typeof e === 'string') : [];
          const text = str(msg.result);
          return {
            events: [event('agent_1-result', msg)],
            sessionId,
            result: ok
              ? { ok, sessionId, text }
              : { ok, sessionId, error: errors.join('\n') || text || `the agent ended with ${String(msg.subtype ?? 'an error')}` },
          };
        }
        case 'stream_event':
          // Partial-message deltas (only sent when asked for); the whole message follows.
          return { events: [], sessionId };
        default:
          return { events: [event('agent_1-system', msg)], sessionId };
      }
    },
  };
}
