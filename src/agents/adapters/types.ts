/**
 * The contract between an agent turn and a coding-agent CLI: how to start it (a command line
 * and its environment, run in the workspace as `hangar`) and how to read its stdout, one JSON
 * line at a time, as history events (interop §4.13 `AgentEvent`).
 */
import type { AgentId, CredentialKind, ThinkingLevel } from '../catalog';

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
  credential: { kind: CredentialKind; secret: string } | null;
  cwd: string;
}

export interface AgentCommand {
  argv: string[];
  /** The credential lives here, never in argv. */
  env: Record<string, string>;
  /** Set when the prompt is too long for an argument: pass it as the exec's stdin. */
  stdin?: string;
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
  /** The real CLI's executable where it is not the neutral name (`agent_1`, ...). */
  executable?: string;
}
