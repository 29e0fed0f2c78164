/**
 * agent_4: a `run --format json` CLI reached through a model router. Each line is one part of
 * the session (`step_start`, `text`, `reasoning`, `tool_use`, `step_finish`, `error`), stored
 * as `agent_4-<type>`; a `step_finish` whose reason is `stop` ends the turn.
 */
import type { AdapterOptions, AgentAdapter, ParsedLine, TurnRequest } from './types';
import { buildCommand, event, gatewayUrl, isBlank, modesFor, obj, parseObject, promptArgs, rawPayload, str, thinkingFor } from './shared';

/** The variable the CLI's provider config reads its key from: the gateway key. */
export const AGENT_4_KEY_ENV = 'HANGAR_AGENT_KEY';
/** The environment's system prompt, as an instructions file the CLI includes. */
export const AGENT_4_INSTRUCTIONS = '/home/hangar/.hangar/agent_4/instructions.md';

/** The CLI's configuration, passed inline: the gateway as an OpenAI-compatible provider and the MCP servers. */
function inlineConfig(req: TurnRequest) {
  return {
    provider: {
      hangar: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Hangar',
        options: { baseURL: gatewayUrl(req, '/v1'), apiKey: `{env:${AGENT_4_KEY_ENV}}` },
        models: req.model ? { [req.model]: { name: req.model } } : {},
      },
    },
    mcp: Object.fromEntries(
      Object.entries(req.settings.mcpServers).map(([name, s]) => [
        name,
        s.transport === 'stdio'
          ? { type: 'local', command: [s.command, ...s.args], environment: s.env, enabled: true }
          : { type: 'remote', url: s.url, headers: s.headers, enabled: true },
      ]),
    ),
    ...(req.settings.systemPrompt ? { instructions: [AGENT_4_INSTRUCTIONS] } : {}),
  };
}

/** No side traffic (updates, the public model list, plugin and language-server downloads, sharing): the gateway is the only traffic. */
const OFFLINE = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_SHARE: '1',
};

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
    ...(req.model ? ['--model', `hangar/${req.model}`] : []),
    ...(thinking ? ['--variant', thinking] : []),
    ...(req.resumeSessionId ? ['--session', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  const env = { [AGENT_4_KEY_ENV]: req.gateway.key, OPENCODE_CONFIG_CONTENT: JSON.stringify(inlineConfig(req)), ...OFFLINE };
  const files = req.settings.systemPrompt ? [{ path: AGENT_4_INSTRUCTIONS, content: req.settings.systemPrompt + '\n' }] : [];
  return buildCommand('agent_4', { args, env, files, stdin: prompt.stdin }, opts);
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
