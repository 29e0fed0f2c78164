/**
 * The API side of terminals: requests to the workers over the event bus, each with a
 * correlation id, answered on this process's own reply channel. No answer before the
 * deadline is a 503 (no worker holds the session or can reach the workspace).
 */
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus';
import { DomainError, isDomainError, unavailable } from '../domain/errors';
import type { Logger } from '../logger';
import {
  OPEN_CHANNEL,
  createReassembler,
  hostOpenChannel,
  outputChannel,
  ownerChannel,
  publishMessage,
  replyChannel,
  type OpenResult,
  type OutputMessage,
  type ReplayResult,
  type TerminalReply,
  type TerminalRequest,
} from './protocol';

type Body<K extends TerminalRequest['k']> = Omit<Extract<TerminalRequest, { k: K }>, 'id' | 'replyTo'>;
type AnyBody = { [K in TerminalRequest['k']]: Body<K> }[TerminalRequest['k']];

export interface OutputSink {
  /** `end` is the output offset after `data` (an SSE event id a client can resume from). */
  output(data: string, end: number): void;
  exit(exitCode: number | null): void;
}

export interface Following {
  replay: ReplayResult;
  /** Delivers the replay, then live output from its end on (nothing lost in between). */
  start(sink: OutputSink): void;
  stop(): Promise<void>;
}

export interface TerminalClient {
  /** `hostId`: the workspace's worker host, whose workers alone are asked (null: every worker). */
  open(input: { replicaId: string; sessionId: string; cols: number; rows: number }, hostId?: string | null): Promise<OpenResult>;
  input(owner: string, sessionId: string, batch: { data: string; generation: number; sequence: number }): Promise<void>;
  resize(owner: string, sessionId: string, cols: number, rows: number): Promise<void>;
  close(owner: string, sessionId: string): Promise<void>;
  /** The ids among `sessionIds` the owner still holds live; null when the owner does not answer. */
  ping(owner: string, sessionIds: string[]): Promise<string[] | null>;
  follow(owner: string, sessionId: string, from: number): Promise<Following>;
  shutdown(): Promise<void>;
}

export interface TerminalClientOptions {
  bus: EventBus;
  logger?: Logger;
  /** Deadline of a request (ms). */
  timeoutMs?: number;
  /**
   * Deadline of an open (ms): it starts a shell in the container (`docker exec`), which takes
   * seconds on a busy engine host where the other requests take milliseconds.
   */
  openTimeoutMs?: number;
  /** Deadline of a liveness ping (ms); an owner that misses it is taken for gone. */
  pingTimeoutMs?: number;
}

interface Pending {
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  /** A "not final" failure, reported if nothing better arrives in time. */
  failure?: DomainError;
}

export function createTerminalClient(options: TerminalClientOptions): TerminalClient {
  const { bus } = options;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const pingTimeoutMs = options.pingTimeoutMs ?? Math.min(timeoutMs, 2_000);
  const openTimeoutMs = options.openTimeoutMs ?? Math.max(timeoutMs, 15_000);
  const clientId = randomUUID();
  const pending = new Map<string, Pending>();
  const reassembler = createReassembler();
  let subscription: Promise<() => Promise<void>> | null = null;

  function onReply(raw: string) {
    const reply = reassembler.accept(raw) as TerminalReply | null;
    if (!reply || reply.k !== 'reply') return;
    const entry = pending.get(reply.id);
    if (!entry) return;
    if (!reply.ok && !reply.final) {
      entry.failure ??= new DomainError(reply.kind, reply.error, reply.details);
      return;
    }
    pending.delete(reply.id);
    clearTimeout(entry.timer);
    if (reply.ok) entry.resolve(reply.result);
    else entry.reject(new DomainError(reply.kind, reply.error, reply.details));
  }

  function subscribed() {
    subscription ??= bus.subscribe(replyChannel(clientId), onReply).catch((err) => {
      subscription = null;
      throw err;
    });
    return subscription;
  }

  async function request<T>(channel: string, body: AnyBody, deadline = timeoutMs): Promise<T> {
    try {
      await subscribed();
    } catch (err) {
      options.logger?.warn('terminal replies cannot be received', { err: err as Error });
      throw unavailable('Terminal service unavailable', 'the event bus is not reachable');
    }
    const id = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        const entry = pending.get(id);
        pending.delete(id);
        reject(entry?.failure ?? unavailable('Terminal service unavailable', `no worker answered within ${deadline} ms`));
      }, deadline);
      pending.set(id, { resolve: resolve as (r: unknown) => void, reject, timer });
      publishMessage(bus, channel, { ...body, id, replyTo: clientId }).catch((err) => {
        pending.delete(id);
        clearTimeout(timer);
        options.logger?.warn('terminal request not sent', { kind: body.k, err: err as Error });
        reject(unavailable('Terminal service unavailable', 'the event bus refused the request'));
      });
    });
  }

  return {
    open: (input, hostId) => request<OpenResult>(hostId ? hostOpenChannel(hostId) : OPEN_CHANNEL, { k: 'open', ...input }, openTimeoutMs),
    async input(owner, sessionId, batch) {
      await request(ownerChannel(owner), { k: 'input', sessionId, ...batch });
    },
    async resize(owner, sessionId, cols, rows) {
      await request(ownerChannel(owner), { k: 'resize', sessionId, cols, rows });
    },
    async close(owner, sessionId) {
      await request(ownerChannel(owner), { k: 'close', sessionId });
    },
    async ping(owner, sessionIds) {
      try {
        const result = await request<{ live: string[] }>(ownerChannel(owner), { k: 'ping', sessionIds }, pingTimeoutMs);
        return result.live;
      } catch (err) {
        if (isDomainError(err, 'unavailable')) return null;
        throw err;
      }
    },

    async follow(owner, sessionId, from) {
      // Subscribe before asking for the replay: output published meanwhile is held and joined
      // to the replay by offset, so nothing is lost and nothing repeats.
      const early: OutputMessage[] = [];
      let sink: OutputSink | null = null;
      let cursor = 0;
      let exited = false;
      const deliver = (message: OutputMessage) => {
        if (!sink || exited) return;
        if (message.k === 'exit') {
          exited = true;
          sink.exit(message.code);
          return;
        }
        const end = message.o + message.d.length;
        if (end <= cursor) return;
        const data = message.o < cursor ? message.d.slice(cursor - message.o) : message.d;
        cursor = end;
        sink.output(data, end);
      };
      const outputs = createReassembler();
      const unsubscribe = await bus.subscribe(outputChannel(sessionId), (raw) => {
        const message = outputs.accept(raw) as OutputMessage | null;
        if (!message || (message.k !== 'out' && message.k !== 'exit')) return;
        if (sink) deliver(message);
        else early.push(message);
      });
      let replay: ReplayResult;
      try {
        replay = await request<ReplayResult>(ownerChannel(owner), { k: 'replay', sessionId, from });
      } catch (err) {
        await unsubscribe();
        throw err;
      }
      let stopped = false;
      return {
        replay,
        start(target) {
          sink = target;
          cursor = replay.end;
          if (replay.data) target.output(replay.data, replay.end);
          if (replay.exited) {
            exited = true;
            target.exit(replay.exitCode);
            return;
          }
          for (const message of early.splice(0)) deliver(message);
        },
        async stop() {
          if (stopped) return;
          stopped = true;
          await unsubscribe();
        },
      };
    },

    async shutdown() {
      for (const [id, entry] of pending) {
        clearTimeout(entry.timer);
        entry.reject(unavailable('Terminal service unavailable', 'the API is shutting down'));
        pending.delete(id);
      }
      const unsubscribe = await subscription?.catch(() => null);
      subscription = null;
      await unsubscribe?.();
    },
  };
}
