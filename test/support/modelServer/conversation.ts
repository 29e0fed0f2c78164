/**
 * Reads a generation request of any of the three formats into one plain conversation (Turn[]),
 * so scripts and assertions need not know how each CLI packs system prompts, tool calls and tool
 * results. Also finds the shell tool and builds a call to it matching that tool's own schema.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelCall, ToolCallReply, ToolDef, ToolResult, Turn, WireFormat } from './types';

/** Text of a content value: a string, or the text parts of a block list (images and the like are skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: any) => {
      if (typeof part === 'string') return part;
      if (typeof part?.text === 'string') return part.text; // text, input_text, output_text
      if (part?.type === 'tool_result') return contentText(part.content);
      return '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

const args = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? {}));

function anthropicTurns(body: any): Turn[] {
  const turns: Turn[] = [];
  const system = contentText(body.system);
  if (system) turns.push({ role: 'system', text: system });
  for (const message of body.messages ?? []) {
    const blocks: any[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content ?? []);
    if (message.role === 'assistant') {
      for (const b of blocks) {
        if (b.type === 'text') turns.push({ role: 'assistant', text: b.text });
        if (b.type === 'tool_use' || b.type === 'server_tool_use') turns.push({ role: 'tool_call', name: b.name, id: b.id, text: args(b.input) });
      }
      continue;
    }
    // Tool results travel in user messages, often with text beside them (Claude Code's reminders):
    // such text does not start a new prompt.
    const hasResults = blocks.some((b) => b.type === 'tool_result');
    for (const b of blocks.filter((b) => b.type === 'tool_result')) {
      turns.push({ role: 'tool_result', id: b.tool_use_id, text: contentText(b.content), isError: b.is_error === true });
    }
    const text = contentText(blocks.filter((b) => b.type === 'text'));
    if (text) turns.push({ role: 'user', text, prompt: !hasResults });
  }
  return turns;
}

function responsesTurns(body: any): Turn[] {
  const turns: Turn[] = [];
  if (typeof body.instructions === 'string' && body.instructions) turns.push({ role: 'system', text: body.instructions });
  const input: any[] = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : (body.input ?? []);
  for (const item of input) {
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role === 'developer' || item.role === 'system' ? 'system' : item.role === 'assistant' ? 'assistant' : 'user';
      turns.push({ role, text: contentText(item.content), prompt: role === 'user' || undefined });
    } else if (type === 'function_call') {
      turns.push({ role: 'tool_call', name: item.name, id: item.call_id, text: args(item.arguments) });
    } else if (type === 'custom_tool_call') {
      turns.push({ role: 'tool_call', name: item.name, id: item.call_id, text: String(item.input ?? '') });
    } else if (type === 'local_shell_call') {
      turns.push({ role: 'tool_call', name: 'local_shell', id: item.call_id, text: args(item.action) });
    } else if (type.endsWith('_call_output')) {
      turns.push({ role: 'tool_result', id: item.call_id, text: contentText(item.output) });
    }
  }
  return turns;
}

function chatTurns(body: any): Turn[] {
  const turns: Turn[] = [];
  for (const m of body.messages ?? []) {
    if (m.role === 'system' || m.role === 'developer') turns.push({ role: 'system', text: contentText(m.content) });
    else if (m.role === 'user') turns.push({ role: 'user', text: contentText(m.content), prompt: true });
    else if (m.role === 'tool') turns.push({ role: 'tool_result', id: m.tool_call_id, text: contentText(m.content) });
    else if (m.role === 'assistant') {
      const text = contentText(m.content);
      if (text) turns.push({ role: 'assistant', text });
      for (const c of m.tool_calls ?? []) turns.push({ role: 'tool_call', name: c.function?.name, id: c.id, text: args(c.function?.arguments) });
    }
  }
  return turns;
}

function toolDefs(format: WireFormat, body: any): ToolDef[] {
  const offered: any[] = Array.isArray(body.tools) ? body.tools : [];
  // Codex groups each MCP server's tools in a Responses `namespace` tool: list them by their own names.
  const flat = offered.flatMap((t: any) => (t?.type === 'namespace' && Array.isArray(t.tools) ? [t, ...t.tools] : [t]));
  return flat.map((t: any): ToolDef => {
    if (format === 'chat') return { name: t.function?.name ?? t.type, type: t.type ?? 'function', parameters: t.function?.parameters };
    if (format === 'anthropic') return { name: t.name, type: t.input_schema ? 'function' : (t.type ?? 'function'), parameters: t.input_schema };
    return { name: t.name ?? t.type, type: t.type, parameters: t.parameters };
  });
}

/**
 * Shell tool names by CLI: Claude Code `Bash`; Codex `shell`, `shell_command` or `exec_command`
 * (by model family); opencode and pi `bash`; Gemini CLI `run_shell_command`. Codex's built-in
 * `local_shell` is left out: it needs a `local_shell_call` item, which this server does not emit.
 */
const SHELL_TOOLS = ['Bash', 'bash', 'shell', 'shell_command', 'exec_command', 'run_shell_command', 'execute_command'];

export function describeCall(format: WireFormat, index: number, path: string, headers: IncomingHttpHeaders, body: any): ModelCall {
  const turns = format === 'anthropic' ? anthropicTurns(body) : format === 'responses' ? responsesTurns(body) : chatTurns(body);
  // Results name their tool through the call they answer.
  const names = new Map(turns.filter((t) => t.role === 'tool_call').map((t) => [t.id, t.name]));
  for (const t of turns) if (t.role === 'tool_result') t.name = names.get(t.id);
  let lastPrompt = -1; // findLastIndex is ES2023, past this project's lib
  turns.forEach((t, i) => (lastPrompt = t.prompt === true ? i : lastPrompt));
  const results = (from: number): ToolResult[] =>
    turns.slice(from).flatMap((t) => (t.role === 'tool_result' ? [{ id: t.id ?? '', name: t.name, output: t.text, isError: t.isError === true }] : []));
  const defs = toolDefs(format, body);
  const tools = defs.map((d) => d.name);
  const messages = format === 'responses' ? (typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? [])) : (body.messages ?? []);
  return {
    format,
    index,
    path,
    model: String(body.model ?? ''),
    stream: body.stream === true,
    system: turns.filter((t) => t.role === 'system').map((t) => t.text).join('\n\n'),
    messages,
    tools,
    toolDefs: defs,
    toolResults: results(Math.max(lastPrompt, 0)),
    allToolResults: results(0),
    prompt: lastPrompt >= 0 ? turns[lastPrompt].text : '',
    turns,
    transcript: transcript(turns),
    shellTool: SHELL_TOOLS.find((n) => tools.includes(n)),
    headers,
    body,
  };
}

/** `[user] fix the bug`, `[tool_call Bash#toolu_1] {"command":"ls"}`, `[tool_result Bash#toolu_1] a.txt`… */
export function transcript(turns: Turn[]): string {
  return turns.map((t) => `[${t.role}${t.name ? ` ${t.name}` : ''}${t.id ? `#${t.id}` : ''}] ${t.text}`).join('\n');
}

/**
 * A call to the request's shell tool running `command`, with arguments shaped by that tool's
 * schema: `{command}` (Claude Code, opencode, pi), `{cmd}` (Codex exec_command) or an argv array
 * `["bash", "-lc", command]` (Codex shell). Other required string fields (opencode's
 * `description`) get a short description, so the CLI's own validation accepts the call.
 */
export function shellCall(call: ModelCall, command: string): ToolCallReply {
  const def = call.toolDefs.find((d) => d.name === call.shellTool);
  if (!def) throw new Error(`no shell tool among the offered tools: ${call.tools.join(', ') || '(none)'}`);
  const props = def.parameters?.properties ?? {};
  const key = 'command' in props ? 'command' : 'cmd' in props ? 'cmd' : 'command';
  const out: Record<string, unknown> = { [key]: props[key]?.type === 'array' ? ['bash', '-lc', command] : command };
  for (const name of def.parameters?.required ?? []) {
    if (!(name in out) && props[name]?.type === 'string') out[name] = `Run ${command}`.slice(0, 60);
  }
  return { name: def.name, arguments: out };
}
