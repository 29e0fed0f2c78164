/** Server-sent events on the wire, the stream faults, and the deterministic splitting of answers into deltas. */
import type { ServerResponse } from 'node:http';
import type { Fault, SseEvent } from './types';

/** `event: name` (omitted for Chat Completions) then one `data:` line of JSON, then a blank line. */
export function encodeEvent(e: SseEvent): string {
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  return `${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`;
}

/**
 * `text` in slices of `size` code points. Slicing by code point, not UTF-16 unit, matters: a
 * surrogate pair split across two JSON strings arrives as lone `\ud83d` escapes, which JS
 * clients glue back together but Rust's serde (Codex) rejects.
 */
export function pieces(text: string, size: number): string[] {
  const points = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

const write = (res: ServerResponse, chunk: string) => new Promise<void>((resolve) => (res.destroyed ? resolve() : res.write(chunk, () => resolve())));

/**
 * Writes a whole stream, or under a fault its first `afterEvents` events (default: the first half,
 * rounded up, which always includes the first delta and never the terminal event) and then
 * either nothing more (stall: the socket stays open until the client or `close()` ends it) or a
 * destroyed socket (drop: the client sees the body end without its terminal event).
 */
export async function playStream(
  res: ServerResponse,
  headers: Record<string, string>,
  events: SseEvent[],
  fault: Fault | undefined,
  /** Told the outcome just before the stream ends, drops or goes quiet, so a close that follows is not taken for the client's. */
  mark: (outcome: 'complete' | 'stalled' | 'dropped') => void,
): Promise<'complete' | 'stalled' | 'dropped'> {
  res.writeHead(200, { ...SSE_HEADERS, ...headers });
  // Headers go out at once so that a client sees the stream open even when a fault sends no event.
  res.flushHeaders();
  const count = fault ? Math.min(fault.afterEvents ?? Math.ceil(events.length / 2), events.length) : events.length;
  // One write per event, each awaited, so a fault's cut falls exactly between two events.
  for (const e of events.slice(0, count)) await write(res, encodeEvent(e));
  const outcome = !fault ? 'complete' : fault.kind === 'drop' ? 'dropped' : 'stalled';
  mark(outcome);
  if (outcome === 'complete') res.end();
  if (outcome === 'dropped') res.socket?.destroy();
  return outcome;
}

/** A non-streaming answer under a fault: no bytes at all, then silence or a destroyed socket. */
export function faultPlain(res: ServerResponse, fault: Fault): 'stalled' | 'dropped' {
  if (fault.kind === 'drop') res.socket?.destroy();
  return fault.kind === 'drop' ? 'dropped' : 'stalled';
}
