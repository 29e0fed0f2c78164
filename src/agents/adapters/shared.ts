/**
 * What the five adapters share: the executable (and the test agent's override), the prompt as
 * an argument or on stdin, and tolerant JSON lines.
 */
import { AGENTS, type AgentId, type ThinkingLevel } from '../catalog';
import type { AdapterOptions, AgentCommand, AgentEvent, AgentFile, TurnRequest } from './types';

/** Linux caps one argument at 128 KiB; longer prompts go on stdin. */
export const MAX_ARGUMENT_PROMPT_BYTES = 100_000;

export type JsonObject = Record<string, unknown>;

export function buildCommand(
  agent: AgentId,
  parts: { args: string[]; env: Record<string, string>; files?: AgentFile[]; stdin?: string },
  opts: AdapterOptions,
): AgentCommand {
  const argv = [opts.executableOverride || opts.executable || AGENTS[agent].executable, ...parts.args];
  if (opts.executableOverride) argv.push('--protocol', agent);
  const command: AgentCommand = { argv, env: parts.env, files: parts.files ?? [] };
  if (parts.stdin !== undefined) command.stdin = parts.stdin;
  return command;
}

/** The gateway's root with a path under it (`/v1`): where an OpenAI-style client's base URL points. */
export const gatewayUrl = (req: TurnRequest, path = '') => `${req.gateway.baseUrl.replace(/\/+$/, '')}${path}`;

/** `-- <prompt>`, or only `placeholder` (when the CLI wants one) with the prompt on stdin. */
export function promptArgs(prompt: string, placeholder?: string): { args: string[]; stdin?: string } {
  if (Buffer.byteLength(prompt, 'utf8') <= MAX_ARGUMENT_PROMPT_BYTES && !prompt.includes('\0')) return { args: ['--', prompt] };
  return { args: placeholder ? ['--', placeholder] : [], stdin: prompt };
}

/** The requested level, else the agent's default (interop §4.1); null lets the model decide. */
export function thinkingFor(agent: AgentId, level: ThinkingLevel | null): ThinkingLevel | null {
  return level ?? AGENTS[agent].defaultThinking;
}

/** Only the modes the agent has (the API refuses the others before a turn is queued). */
export function modesFor(agent: AgentId, req: TurnRequest): { plan: boolean; goal: boolean; fast: boolean } {
  const spec = AGENTS[agent];
  return { plan: spec.planMode && req.planMode, goal: spec.goalMode && req.goalMode, fast: spec.fastMode && req.fastMode };
}

/** The line as a JSON object, or null (not JSON, or JSON that is not an object). */
export function parseObject(line: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

export const isBlank = (line: string) => line.trim() === '';

export function event(type: string, payload: unknown, timestamp?: unknown): AgentEvent {
  return { timestamp: toIso(timestamp), type, payload };
}

/** A line the adapter cannot read is kept as text, never dropped and never fatal. */
export const rawPayload = (line: string) => ({ type: 'system', subtype: 'raw_output', text: line });

export function toIso(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value).toISOString();
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return new Date().toISOString();
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
export const obj = (value: unknown): JsonObject | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;

/** The text blocks of a `{content: [{type: 'text', text}]}` message, joined. */
export function contentText(message: unknown): string | undefined {
  const content = obj(message)?.content;
  if (typeof content === 'string') return str(content);
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((block) => (obj(block)?.type === 'text' ? str(obj(block)?.text) : undefined)).filter((t): t is string => !!t);
  return texts.length ? texts.join('\n') : undefined;
}
