/** The shapes a test sees: what the "model" was asked (ModelCall) and what it answers (ModelReply). */
import type { IncomingHttpHeaders } from 'node:http';

/** Which provider API a generation request came through. */
export type WireFormat = 'anthropic' | 'responses' | 'chat';

/** What a request was for, from the path's ending. */
export type Endpoint = 'messages' | 'count_tokens' | 'responses' | 'chat' | 'models' | 'unknown';

/** A tool the client offered, with its JSON schema (undefined for provider built-ins). */
export interface ToolDef {
  name: string;
  /** `function` for ordinary tools; a built-in's own type otherwise (`custom`, `web_search`…). */
  type: string;
  parameters: { properties?: Record<string, any>; required?: string[] } | undefined;
}

/** One tool output the client sent back. */
export interface ToolResult {
  /** The tool call's id (`tool_use_id` / `call_id` / `tool_call_id`). */
  id: string;
  /** The tool's name, found from the call it answers; undefined when that call is not in the request. */
  name: string | undefined;
  output: string;
  isError: boolean;
}

/** One entry of the conversation, the same for every format. */
export interface Turn {
  role: 'system' | 'user' | 'assistant' | 'tool_call' | 'tool_result';
  text: string;
  /** Tool name (tool_call, tool_result) and call id. */
  name?: string;
  id?: string;
  isError?: boolean;
  /** A user turn that starts a new prompt, as opposed to text riding along with tool results. */
  prompt?: boolean;
}

/** A generation request as handed to the script. */
export interface ModelCall {
  format: WireFormat;
  /** 0-based position among this server's generation requests. */
  index: number;
  path: string;
  model: string;
  stream: boolean;
  /** System prompt as plain text: Anthropic `system`, Responses `instructions` + system/developer items, Chat system/developer messages. */
  system: string;
  /** `messages` (anthropic, chat) or `input` (responses) as sent; a string input becomes one user message. */
  messages: unknown[];
  /** The offered tools' names, in order. */
  tools: string[];
  toolDefs: ToolDef[];
  /** Tool outputs sent since the latest user prompt: the results of the agent loop in progress. */
  toolResults: ToolResult[];
  /** Every tool output in the conversation. */
  allToolResults: ToolResult[];
  /** Text of the latest user prompt (all its text parts joined, reminders a CLI adds included). */
  prompt: string;
  turns: Turn[];
  /** The whole conversation as plain text, one `[role] text` line per turn (see conversation.ts). */
  transcript: string;
  /** Which offered tool runs shell commands (`Bash`, `bash`, `shell`, `exec_command`…), if any. */
  shellTool: string | undefined;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface ToolCallReply {
  name: string;
  arguments: Record<string, unknown>;
  /** Defaults to a fresh id in the format's style (`toolu_…`, `call_…`). */
  id?: string;
}

/** An error answer; the body takes the provider's shape. */
export interface ErrorReply {
  status: number;
  message: string;
  /** Provider error type; defaults from the status (`rate_limit_error`, `overloaded_error`…). */
  type?: string;
  /** OpenAI formats' `code` (e.g. `rate_limit_exceeded`). */
  code?: string;
  /** Sets `x-should-retry`, which both SDKs obey before their own status rules. */
  retry?: boolean;
  /** Seconds, sent as `retry-after`. */
  retryAfter?: number;
}

export type FaultKind = 'stall' | 'drop';

/**
 * A broken answer. `stall` sends `afterEvents` events and then nothing, leaving the socket open
 * until the client gives up or the server closes; `drop` sends them and then destroys the socket.
 * `afterEvents` defaults to the first half of the stream, rounded up. A non-streaming request gets no bytes at all.
 */
export interface Fault {
  kind: FaultKind;
  afterEvents?: number;
}

/** What the model answers: text, then tool calls (the order Claude and GPT models use). */
export interface ModelReply {
  text?: string;
  toolCall?: ToolCallReply;
  toolCalls?: ToolCallReply[];
  error?: ErrorReply;
  fault?: FaultKind | Fault;
}

export type Script = (call: ModelCall) => ModelReply | string | Promise<ModelReply | string>;

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** A reply with ids assigned and usage counted, as the format writers take it. */
export interface ResolvedReply {
  text: string;
  toolCalls: Array<{ id: string; name: string; arguments: Record<string, unknown>; json: string }>;
  usage: Usage;
  model: string;
  /** The response's own id (`msg_…`, `resp_…`, `chatcmpl-…`). */
  id: string;
  /** Fresh ids for a format's inner items (Responses message and function-call items). */
  nextId: (prefix: string) => string;
}

/** One SSE event; `event` null for Chat Completions, which sends bare `data:` lines. */
export interface SseEvent {
  event: string | null;
  data: unknown;
}

/** Every request, generation or not, as the server saw and answered it. */
export interface RecordedCall {
  seq: number;
  method: string;
  path: string;
  endpoint: Endpoint;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (raw text when not JSON; undefined when empty). */
  body: any;
  /** The script's view of a generation request. */
  call?: ModelCall;
  /** The script's answer, with ids assigned. */
  reply?: ModelReply;
  status?: number;
  usage?: Usage;
  /** `stalled` and `dropped` are faults; `pending` until the answer is written. */
  outcome: 'pending' | 'complete' | 'error' | 'stalled' | 'dropped';
  /** The client closed the connection before the answer ended (an abort, or giving up on a stall). */
  clientClosed: boolean;
}
