/**
 * What the API and the workers say to each other about terminals, over the event bus.
 *
 * Channels: `terminal_open` (shared by every worker; an open request is answered by the
 * worker that claims the session), `terminal_w_<owner>` (one per worker: input, resize,
 * close, replay, ping for the sessions it holds), `terminal_reply_<client>` (one per API
 * process: answers, matched by request id) and `terminal_out_<session>` (output and exit).
 *
 * A bus message holds at most 7,800 bytes; anything bigger (a 65,536-character input batch,
 * a replay) is sent as numbered parts of its UTF-8 JSON, base64-encoded, and put back
 * together by the receiver.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ErrorKind } from '../domain/errors';
import { MAX_MESSAGE_BYTES, type EventBus } from '../events/bus';

export const OPEN_CHANNEL = 'terminal_open';

/**
 * Where a workspace placed on a worker host has its terminals opened: only that host's workers
 * listen, since only they reach its container (OPEN_CHANNEL serves workspaces with no host).
 */
export function hostOpenChannel(hostId: string): string {
  const readable = hostId.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 32);
  const digest = createHash('sha256').update(hostId).digest('hex').slice(0, 10);
  return `terminal_open_h_${readable}_${digest}`;
}

const hex = (uuid: string) => uuid.replace(/-/g, '').toLowerCase();

/** Readable where the owner id allows, and distinct for distinct owners whatever they contain. */
export function ownerChannel(owner: string): string {
  const readable = owner.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 32);
  const digest = createHash('sha256').update(owner).digest('hex').slice(0, 10);
  return `terminal_w_${readable}_${digest}`;
}

export const outputChannel = (sessionId: string) => `terminal_out_${hex(sessionId)}`;
export const replyChannel = (clientId: string) => `terminal_reply_${hex(clientId)}`;

interface RequestBase {
  id: string;
  replyTo: string;
}

export type TerminalRequest = RequestBase &
  (
    | { k: 'open'; replicaId: string; sessionId: string; cols: number; rows: number }
    | { k: 'input'; sessionId: string; generation: number; sequence: number; data: string }
    | { k: 'resize'; sessionId: string; cols: number; rows: number }
    | { k: 'close'; sessionId: string }
    | { k: 'replay'; sessionId: string; from: number }
    | { k: 'ping'; sessionIds: string[] }
  );

export type TerminalRequestKind = TerminalRequest['k'];

export interface ReplayResult {
  data: string;
  start: number;
  end: number;
  exited: boolean;
  exitCode: number | null;
}

export interface OpenResult {
  id: string;
  title: string;
  createdAt: string;
}

export type TerminalReply =
  | { k: 'reply'; id: string; ok: true; result: unknown }
  /**
   * `final: false` says another worker may still answer (this one could not reach the
   * container); the client waits for a better answer until its deadline.
   */
  | { k: 'reply'; id: string; ok: false; kind: ErrorKind; error: string; details: string | null; final: boolean };

export type OutputMessage = { k: 'out'; o: number; d: string } | { k: 'exit'; o: number; code: number | null };

interface Part {
  k: 'part';
  m: string;
  i: number;
  n: number;
  p: string;
}

/** Raw bytes per part: base64 makes 4/3 of it, which leaves room for the envelope. */
const PART_BYTES = 5_400;
const MAX_PARTS = 512;

export async function publishMessage(bus: EventBus, channel: string, message: object): Promise<void> {
  const json = JSON.stringify(message);
  if (Buffer.byteLength(json) <= MAX_MESSAGE_BYTES) return bus.publish(channel, json);
  const raw = Buffer.from(json, 'utf8');
  const n = Math.ceil(raw.length / PART_BYTES);
  if (n > MAX_PARTS) throw new Error(`terminal bus message too large (${raw.length} bytes)`);
  const m = randomUUID();
  for (let i = 0; i < n; i++) {
    const part: Part = { k: 'part', m, i, n, p: raw.subarray(i * PART_BYTES, (i + 1) * PART_BYTES).toString('base64') };
    await bus.publish(channel, JSON.stringify(part));
  }
}

/** Puts parted messages back together; drops the parts of a message that never completes. */
export function createReassembler(options: { staleMs?: number; now?: () => number } = {}) {
  const staleMs = options.staleMs ?? 30_000;
  const now = options.now ?? Date.now;
  const pending = new Map<string, { parts: (string | undefined)[]; got: number; at: number }>();

  return {
    /** The whole message, or null while parts are missing (or for garbage). */
    accept(raw: string): unknown {
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return null;
      }
      if (!message || typeof message !== 'object') return null;
      const part = message as Partial<Part>;
      if (part.k !== 'part') return message;
      const { m, i, n, p } = part;
      if (typeof m !== 'string' || typeof p !== 'string' || !Number.isInteger(i) || !Number.isInteger(n) || n! < 1 || n! > MAX_PARTS || i! < 0 || i! >= n!) return null;
      const t = now();
      for (const [key, entry] of pending) if (t - entry.at > staleMs) pending.delete(key);
      let entry = pending.get(m);
      if (!entry) {
        entry = { parts: new Array<string | undefined>(n!).fill(undefined), got: 0, at: t };
        pending.set(m, entry);
      }
      if (entry.parts.length !== n || entry.parts[i!] !== undefined) return null;
      entry.parts[i!] = p;
      entry.got += 1;
      if (entry.got < n!) return null;
      pending.delete(m);
      try {
        return JSON.parse(Buffer.concat(entry.parts.map((s) => Buffer.from(s!, 'base64'))).toString('utf8'));
      } catch {
        return null;
      }
    },
    get pending(): number {
      return pending.size;
    },
  };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Splits output into pieces of at most `maxChars` UTF-16 units, never between the halves of
 * a surrogate pair. JSON escaping makes at most 6 bytes of a unit, so 1,000 units fit a bus
 * message.
 */
export function splitOutput(text: string, maxChars = 1_000): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + maxChars, text.length);
    if (end < text.length && end - at > 1 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}
