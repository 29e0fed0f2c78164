/**
 * agent_1: a `-p --output-format stream-json --verbose` CLI. Every stdout line is one SDK
 * message (`system` init, `assistant`, `user` tool results, a final `result`), kept whole as
 * the payload of `agent_1-<type>`.
 */
import type { AdapterOptions, AgentAdapter, McpServer, ParsedLine, TurnRequest } from './types';
import { buildCommand, event, isBlank, modesFor, obj, parseObject, promptArgs, rawPayload, str, thinkingFor, type JsonObject } from './shared';

/** The CLI's MCP configuration file (`--mcp-config`): its secrets stay out of the command line. */
export const AGENT_1_MCP_CONFIG = '/home/hangar/.hangar/agent_1/mcp.json';

/** The environment's MCP servers in the CLI's `mcpServers` shape. */
function mcpConfig(servers: Record<string, McpServer>) {
  return {
    mcpServers: Object.fromEntries(
      Object.entries(servers).map(([name, s]) => [
        name,
        s.transport === 'stdio' ? { type: 'stdio', command: s.command, args: s.args, env: s.env } : { type: s.transport, url: s.url, headers: s.headers },
      ]),
    ),
  };
}

export function agent1Command(req: TurnRequest, opts: AdapterOptions) {
  const modes = modesFor('agent_1', req);
  const thinking = thinkingFor('agent_1', req.thinkingLevel);
  const prompt = promptArgs(req.prompt);
  const args = [
    '-p',
    '--output-format',
    'stream-json',
    '--verbose',
    // Deltas as they stream (dropped by `parse`): a long answer still shows the turn is alive.
    '--include-partial-messages',
    // The workspace container is the sandbox; plan mode only plans.
    '--permission-mode',
    modes.plan ? 'plan' : 'bypassPermissions',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['--effort', thinking] : []),
    ...(modes.fast ? ['--fast'] : []),
    ...(req.resumeSessionId ? ['--resume', req.resumeSessionId] : []),
    ...(req.settings.systemPrompt ? ['--append-system-prompt', req.settings.systemPrompt] : []),
    ...(Object.keys(req.settings.mcpServers).length ? ['--mcp-config', AGENT_1_MCP_CONFIG] : []),
    ...prompt.args,
  ];
  const env = {
    ANTHROPIC_BASE_URL: req.gateway.baseUrl,
    ANTHROPIC_API_KEY: req.gateway.key,
    // No telemetry, error reporting or update checks: the gateway is the only traffic.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const files = Object.keys(req.settings.mcpServers).length
    ? [{ path: AGENT_1_MCP_CONFIG, content: JSON.stringify(mcpConfig(req.settings.mcpServers), null, 2) + '\n' }]
    : [];
  return buildCommand('agent_1', { args, env, files, stdin: prompt.stdin }, opts);
}

/**
 * The CLI's thinking blocks carry `thinking`; the original's history documents `text` there
 * (`ThinkingBlock`), so a block gets both. Everything else is kept as the CLI wrote it.
 */
function withThinkingText(msg: JsonObject): JsonObject {
  const message = obj(msg.message);
  if (!message || !Array.isArray(message.content)) return msg;
  const content = message.content.map((block) => {
    const b = obj(block);
    return b?.type === 'thinking' && typeof b.thinking === 'string' && b.text === undefined ? { ...b, text: b.thinking } : block;
  });
  return { ...msg, message: { ...message, content } };
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
          return { events: [event('agent_1-assistant', withThinkingText(msg))], sessionId };
        case 'user':
          return { events: [event('agent_1-user', msg)], sessionId };
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
        case 'system': {
          // A refused credential is retried like an outage; it will not get better by waiting.
          const status = msg.subtype === 'api_retry' ? Number(msg.error_status) : NaN;
          const events = [event('agent_1-system', msg)];
          if (status !== 401 && status !== 403) return { events, sessionId };
          const error = `the provider refused the credential (${status} ${String(msg.error ?? 'authentication_failed')}); check the agent_1 credential (POST /v1/user/credentials/agent_1 or /v1/organization/credentials/agent_1)`;
          return { events, sessionId, stop: { ok: false, sessionId, error } };
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
