/**
 * agent_2: an `exec --json` CLI. Its thread events (`thread.started`, `item.started|updated|
 * completed`, `turn.completed|failed`) are stored the way its own transcripts are, as
 * `event_msg` and `response_item` entries (interop §4.13): messages, reasoning, `shell`
 * function calls and their output, `apply_patch` custom tool calls, `update_plan`.
 */
import type { AdapterOptions, AgentAdapter, AgentEvent, McpServer, ParsedLine, TurnRequest } from './types';
import { buildCommand, event, gatewayUrl, isBlank, modesFor, obj, parseObject, promptArgs, str, thinkingFor, type JsonObject } from './shared';

/** The variable the CLI's provider reads its key from (`env_key`): the gateway key. */
export const AGENT_2_KEY_ENV = 'HANGAR_AGENT_KEY';

/** The CLI's configuration file (`$CODEX_HOME/config.toml`), rewritten before every turn. */
export const AGENT_2_CONFIG = '~/.codex/config.toml';

/** A TOML string (JSON strings are valid TOML basic strings). */
const toml = (value: string) => JSON.stringify(value);
const tomlTable = (entries: Record<string, string>) => `{${Object.entries(entries).map(([k, v]) => `${toml(k)} = ${toml(v)}`).join(', ')}}`;

/**
 * The gateway as the model provider (its key read from `env_key`), the environment's system
 * prompt as developer instructions, and its MCP servers. In the file rather than `-c`
 * overrides: the CLI loads MCP servers only from its configuration file.
 */
function configToml(req: TurnRequest): string {
  const lines = [
    '# Written by Hangar before every turn; edits here are replaced.',
    'model_provider = "hangar"',
    'check_for_update_on_startup = false',
    ...(req.settings.systemPrompt ? [`developer_instructions = ${toml(req.settings.systemPrompt)}`] : []),
    '',
    '[model_providers.hangar]',
    'name = "Hangar"',
    `base_url = ${toml(gatewayUrl(req, '/v1'))}`,
    `env_key = ${toml(AGENT_2_KEY_ENV)}`,
    'wire_api = "responses"',
  ];
  for (const [name, s] of Object.entries(req.settings.mcpServers) as Array<[string, McpServer]>) {
    lines.push('', `[mcp_servers.${toml(name)}]`);
    if (s.transport === 'stdio') lines.push(`command = ${toml(s.command)}`, `args = [${s.args.map(toml).join(', ')}]`, `env = ${tomlTable(s.env)}`);
    else lines.push(`url = ${toml(s.url)}`, `http_headers = ${tomlTable(s.headers)}`);
  }
  return lines.join('\n') + '\n';
}

export function agent2Command(req: TurnRequest, opts: AdapterOptions) {
  const modes = modesFor('agent_2', req);
  const thinking = thinkingFor('agent_2', req.thinkingLevel);
  // `-` as the prompt reads it from stdin.
  const prompt = promptArgs(req.prompt, '-');
  const args = [
    'exec',
    '--json',
    '--skip-git-repo-check',
    // The workspace container is the sandbox; plan mode may read but not change anything.
    '--sandbox',
    modes.plan ? 'read-only' : 'danger-full-access',
    ...(req.model ? ['--model', req.model] : []),
    ...(thinking ? ['-c', `model_reasoning_effort=${thinking}`] : []),
    ...(modes.fast ? ['-c', 'service_tier=fast'] : []),
    ...(modes.goal ? ['-c', 'goal_mode=true'] : []),
    ...(req.resumeSessionId ? ['resume', req.resumeSessionId] : []),
    ...prompt.args,
  ];
  const files = [{ path: AGENT_2_CONFIG, content: configToml(req) }];
  return buildCommand('agent_2', { args, env: { [AGENT_2_KEY_ENV]: req.gateway.key }, files, stdin: prompt.stdin }, opts);
}

const eventMsg = (payload: JsonObject): AgentEvent => event('event_msg', payload);
const responseItem = (payload: JsonObject): AgentEvent => event('response_item', payload);

/** One thread item, started or completed, as transcript entries. */
function itemEvents(phase: 'started' | 'updated' | 'completed', item: JsonObject): AgentEvent[] {
  const callId = str(item.id);
  const done = phase === 'completed';
  switch (item.type) {
    case 'agent_message':
      return done ? [responseItem({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: item.text ?? '' }] })] : [];
    case 'reasoning':
      return done ? [eventMsg({ type: 'agent_reasoning', text: item.text ?? '' })] : [];
    case 'command_execution':
      if (phase === 'started') return [responseItem({ type: 'function_call', name: 'shell', call_id: callId, arguments: JSON.stringify({ command: item.command }) })];
      return done
        ? [responseItem({ type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: item.aggregated_output ?? '', metadata: { exit_code: item.exit_code ?? null } }) })]
        : [];
    case 'file_change': {
      if (!done) return [];
      const changes = Array.isArray(item.changes) ? item.changes.map((c) => `${String(obj(c)?.kind)} ${String(obj(c)?.path)}`) : [];
      return [
        responseItem({ type: 'custom_tool_call', name: 'apply_patch', call_id: callId, status: item.status, input: changes.join('\n') }),
        responseItem({ type: 'custom_tool_call_output', call_id: callId, output: String(item.status ?? 'completed') }),
      ];
    }
    case 'todo_list':
      return [responseItem({ type: 'function_call', name: 'update_plan', call_id: callId, arguments: JSON.stringify({ plan: item.items ?? [] }) })];
    case 'mcp_tool_call':
    case 'web_search': {
      const name = item.type === 'web_search' ? 'web_search' : `${String(item.server)}.${String(item.tool)}`;
      if (phase === 'started') return [responseItem({ type: 'function_call', name, call_id: callId, arguments: JSON.stringify(item.arguments ?? { query: item.query }) })];
      return done ? [responseItem({ type: 'function_call_output', call_id: callId, output: JSON.stringify(item.result ?? item.error ?? null) })] : [];
    }
    case 'error':
      return [eventMsg({ type: 'error', message: item.message ?? '' })];
    default:
      return done ? [eventMsg({ type: 'unknown_item', item })] : [];
  }
}

export function createAgent2Adapter(opts: AdapterOptions): AgentAdapter {
  let sessionId: string | undefined;
  let lastText: string | undefined;
  return {
    id: 'agent_2',
    command: (req) => agent2Command(req, opts),
    parse(line): ParsedLine {
      if (isBlank(line)) return { events: [] };
      const msg = parseObject(line);
      if (!msg) return { events: [eventMsg({ type: 'raw_output', text: line })], sessionId };
      const type = String(msg.type ?? '');
      if (type === 'thread.started') {
        sessionId = str(msg.thread_id) ?? sessionId;
        return { events: [eventMsg({ type: 'session_configured', session_id: sessionId })], sessionId };
      }
      if (type.startsWith('item.')) {
        const item = obj(msg.item) ?? {};
        if (item.type === 'agent_message') lastText = str(item.text) ?? lastText;
        const phase = type.slice('item.'.length);
        if (phase !== 'started' && phase !== 'updated' && phase !== 'completed') return { events: [eventMsg({ type: 'unknown_event', event: msg })], sessionId };
        return { events: itemEvents(phase, item), sessionId };
      }
      switch (type) {
        case 'turn.started':
          return { events: [eventMsg({ type: 'task_started' })], sessionId };
        case 'turn.completed':
          return {
            events: [eventMsg({ type: 'task_complete', usage: msg.usage ?? null, last_agent_message: lastText ?? null })],
            sessionId,
            result: { ok: true, sessionId, text: lastText },
          };
        case 'turn.failed': {
          const error = str(obj(msg.error)?.message) ?? 'the turn failed';
          return { events: [eventMsg({ type: 'error', message: error })], sessionId, result: { ok: false, sessionId, error } };
        }
        case 'error':
          return { events: [eventMsg({ type: 'stream_error', message: msg.message ?? '' })], sessionId };
        default:
          return { events: [eventMsg({ type: 'unknown_event', event: msg })], sessionId };
      }
    },
  };
}
