/**
 * The contract between an agent turn and a coding-agent CLI: how to start it (a command line,
 * its environment and the configuration files it reads, run in the workspace as `hangar`) and
 * how to read its stdout, one JSON line at a time, as history events (interop §4.13
 * `AgentEvent`). A CLI never gets a provider key: it reaches its provider through Hangar's AI
 * gateway with the workspace's placeholder key.
 */
import type { AgentId, ThinkingLevel } from '../catalog';

/** Where the agent reaches its model provider. */
export interface GatewayAccess {
  /** The agent's root on Hangar's AI gateway, as the workspace reaches it: `<api>/v1/ai-gateway/<agent>`. */
  baseUrl: string;
  /** The workspace's placeholder key (`hgw_…`), never a provider key. */
  key: string;
}

/** An MCP server of the workspace's environment, as the API stores it. */
export type McpServer =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

/** What the environment gives every turn of an agent. */
export interface AgentSettings {
  /** The environment's system prompt and the owner's personal preferences; null when neither is set. */
  systemPrompt: string | null;
  mcpServers: Record<string, McpServer>;
}

/** A configuration file the CLI reads, written into the home before the turn. */
export interface AgentFile {
  /** `~/…` (the workspace home). */
  path: string;
  content: string;
}

export interface TurnRequest {
  prompt: string;
  model: string | null;
  /** Null: the agent's default (interop §4.1). */
  thinkingLevel: ThinkingLevel | null;
  planMode: boolean;
  goalMode: boolean;
  fastMode: boolean;
  chatId: string;
  /** The session id an earlier turn of this chat reported; null on a chat's first turn. */
  resumeSessionId: string | null;
  cwd: string;
  gateway: GatewayAccess;
  settings: AgentSettings;
}

export interface AgentCommand {
  argv: string[];
  /** The gateway key lives here (or in `files`), never in argv. */
  env: Record<string, string>;
  /** Set when the prompt is too long for an argument: pass it as the exec's stdin. */
  stdin?: string;
  /** Written into the home before the CLI starts (its provider, MCP and instruction settings). */
  files: AgentFile[];
}

export interface AgentEvent {
  timestamp: string;
  type: string;
  payload: unknown;
}

export interface TurnResult {
  ok: boolean;
  sessionId?: string;
  text?: string;
  error?: string;
}

export interface ParsedLine {
  events: AgentEvent[];
  /** The session id, as soon as a line names it (before the final result). */
  sessionId?: string;
  /** Set by the line that ends the turn. */
  result?: TurnResult;
  /**
   * Set when the line shows the turn cannot succeed while the CLI keeps going (it retries a
   * refused credential for minutes): the turn stops the CLI and ends failed with this.
   */
  stop?: TurnResult;
}

/** One adapter per turn: `parse` remembers the session id and last text of its own turn. */
export interface AgentAdapter {
  id: AgentId;
  command(req: TurnRequest): AgentCommand;
  parse(line: string): ParsedLine;
}

export interface AdapterOptions {
  /** Replaces the executable and adds `--protocol agent_N` (tests: `hangar-test-agent`). */
  executableOverride?: string;
  /** Another executable for the agent's CLI than the image's (`claude`, `codex`, …). */
  executable?: string;
}
