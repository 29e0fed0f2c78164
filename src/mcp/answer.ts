/**
 * How a tool call's outcome reaches the model: the API's JSON as text and as structured
 * content, or, when the API refused, a tool result with `isError` and the Error body's text.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { HangarError, type HangarClient } from '../../client/src';

export interface ToolContext {
  client: HangarClient;
  /** Where the client sends its calls (named in errors when nothing answers there; never the key). */
  baseUrl: string;
}

function errorText(err: HangarError): string {
  return `Hangar answered ${err.status}: ${err.message}${err.retryAfterSeconds === null ? '' : ` (retry after ${err.retryAfterSeconds} s)`}`;
}

/**
 * Runs one API call and shapes its outcome. Only the API's own refusals (HangarError) become
 * error results here; anything else (the API unreachable) is thrown with a message that says
 * where it looked, and the SDK turns that into an error result as well.
 */
export async function answer(hangar: ToolContext, run: () => Promise<unknown>): Promise<CallToolResult> {
  let data: unknown;
  try {
    data = await run();
  } catch (err) {
    if (err instanceof HangarError) {
      return { isError: true, content: [{ type: 'text', text: errorText(err) }], structuredContent: { status: err.status, error: err.error, details: err.details } };
    }
    if (err instanceof TypeError) throw new Error(`Hangar's API did not answer at ${hangar.baseUrl}: ${describeCause(err)}`);
    throw err;
  }
  const structured = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : { result: data };
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: structured };
}

function describeCause(err: TypeError): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
