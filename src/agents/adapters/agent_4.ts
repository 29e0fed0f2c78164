/**
 * agent_4: a `run --format json` CLI reached through a model router. Each line is one part of
 * the session (`step_start`, `text`, `reasoning`, `tool_use`, `step_finish`, `error`), stored
 * as `agent_4-<type>`; a `step_finish` whose reason is `stop` ends the turn.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, credentialEnv, event, isBlank, modesFor, obj, parseObject, promptArgs, rawPayload, str, thinkingFor } from './shared';

/** The router key, or the subscription key of the agent's own plan. */
export const AGENT_4_ENV = { api_key: 'AGENT_4_API_KEY', oauth_token: 'AGENT_4_OAUTH_TOKEN' } as const;

const PART_TYPE = /^[a-z][a-z0-9_]{0,39}$/;

export function agent4Command(req: TurnRequest, opts: AdapterOptions) {
  const modes = modesFor('agent_4', req);
  const thinking = thinkingFor('agent_4', req.thinkingLevel);
  const prompt = promptArgs(req.prompt);
  const args = [
    'run',
    '--format',
    'json',
    '--agent',
    modes.plan ? 'plan' : 'build',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--variant', thinking] : []),
    ...(req.resumeSessionId ? ['--session', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  return buildCommand('agent_4', args, credentialEnv(req, AGENT_4_ENV), opts, prompt.stdin);
}

export function createAgent4Adapter(opts: AdapterOptions): AgentAdapter {
  let sessionId: string | undefined;
  let lastText: string | undefined;
  return {
    id: 'agent_4',
    command: (req) => agent4Command(req, opts),
    parse(line): ParsedLine {
      if (isBlank(line)) return { events: [] };
      const msg = parseObject(line);
      if (!msg) return { events: [event('agent_4-system', rawPayload(line))], sessionId };
      sessionId = str(msg.sessionID) ?? sessionId;
      const type = typeof msg.type === 'string' && PART_TYPE.test(msg.type) ? msg.type : 'system';
      const parsed: ParsedLine = { events: [event(`agent_4-${type}`, msg, msg.timestamp)], sessionId };
      const part = obj(msg.part);
      if (type === 'text') lastText = str(part?.text) ?? lastText;
      if (type === 'step_finish' && part?.reason === 'stop') parsed.result = { ok: true, sessionId, text: lastText };
      if (type === 'error') {
        const error = obj(msg.error);
        parsed.result = { ok: false, sessionId, error: str(obj(error?.data)?.message) ?? str(error?.message) ?? str(error?.name) ?? 'the agent reported an error' };
      }
      return parsed;
    },
  };
}
