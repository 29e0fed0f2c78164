/**
 * Pure text helpers of the user commands: tables, one-line summaries of agent events and
 * argument checks. Nothing here does I/O, so the unit tests cover it without a server.
 */

/** A wrong invocation: the dispatcher prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure the API did not report as an Error body (a turn that failed): `hangar: <message>`, exit 1. */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
}

/** Columns padded to their widest cell; the last column is left unpadded so lines carry no trailing spaces. */
export function table(header: string[], rows: Array<Array<string | number | boolean | null | undefined>>): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : String(cell))))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  return cells.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}

/** Collapses whitespace and cuts a text to `max` characters, marking the cut. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A content block of an agent message (text, thinking, tool use or its result) in a few words. */
function blockSummary(block: unknown): string | null {
  const b = record(block);
  if (!b) return text(block);
  switch (b.type) {
    case 'text':
      return text(b.text);
    case 'thinking': {
      const thought = text(b.thinking) ?? text(b.text);
      return thought ? `(thinking) ${thought}` : null;
    }
    case 'tool_use': {
      const input = record(b.input);
      const detail = input ? (text(input.command) ?? text(input.file_path) ?? text(input.path) ?? text(input.description)) : null;
      return `tool ${String(b.name ?? '?')}${detail ? `: ${detail}` : ''}`;
    }
    case 'tool_result':
      return `tool result${b.is_error === true ? ' (error)' : ''}`;
    default:
      return text(b.text);
  }
}

/**
 * One line for an agent event as history and `chat.turn.delta` carry it (`{type, payload}`).
 * The five agents' CLIs write different JSON, so this looks for what they have in common: a
 * message with content blocks, or a text, result or message field; else the type alone.
 */
export function summarizeAgentEvent(event: { type?: unknown; payload?: unknown }, max = 100): string {
  const type = typeof event.type === 'string' ? event.type : 'event';
  const payload = record(event.payload);
  if (!payload) return type;
  const message = record(payload.message);
  const content = message?.content ?? payload.content;
  const parts = Array.isArray(content) ? content.map(blockSummary).filter((s): s is string => s !== null) : [];
  const found =
    parts.join(' | ') ||
    text(message?.content) ||
    text(payload.text) ||
    text(payload.result) ||
    text(payload.message) ||
    text(payload.error) ||
    text(record(payload.item)?.text) ||
    text(payload.subtype) ||
    (text(payload.type) && payload.type !== type ? String(payload.type) : null);
  return found ? `${type}: ${oneLine(found, max)}` : type;
}

/** A whole positive integer option (`--limit 20`); `undefined` when not given. */
export function integerOption(name: string, raw: string | undefined, min = 1): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--${name} must be a whole number of at least ${min}`);
  return Number(raw);
}

/** The `n`-th positional argument, or a usage error naming it. */
export function positional(positionals: string[], index: number, name: string): string {
  const value = positionals[index];
  if (value === undefined || value === '') throw new UsageError(`missing <${name}>`);
  return value;
}

/** A date-time as `2026-05-17 12:34:56` (UTC, as the API gives it), `-` for none. */
export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}
