/**
 * The progress display after `create` and `send`: the replica's events stream, read with the
 * typed client, turned into one line per step until the workspace is ready or the awaited turn
 * has ended. `ProgressTracker` is the pure part (events in, lines and an outcome out);
 * `followProgress` connects it to the stream.
 */
import type { ReplicaEvent } from '../../client/src';
import { clientFor, type Connection } from './context';
import { oneLine, summarizeAgentEvent } from './format';

export type ProgressGoal =
  /** A new workspace: until it is active, then (unless `untilActive`) its first message's turn ends. */
  | { kind: 'create'; untilActive: boolean }
  /** A sent message: until its turn ends. */
  | { kind: 'turn'; messageId: string; chatId: string };

export interface ProgressOutcome {
  ok: boolean;
  /** Why it failed, for the `hangar: …` line. */
  error?: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

export class ProgressTracker {
  /** The message whose turn is awaited: given for `send`, the first accepted one for `create`. */
  private messageId: string | undefined;
  private chatId: string | undefined;
  private turnStarted = false;
  private lastError: string | undefined;
  outcome: ProgressOutcome | null = null;

  constructor(private readonly goal: ProgressGoal) {
    if (goal.kind === 'turn') {
      this.messageId = goal.messageId;
      this.chatId = goal.chatId;
    }
  }

  /** The lines one event adds (often none); sets `outcome` when the wait is over. */
  next(event: ReplicaEvent): string[] {
    if (this.outcome) return [];
    const p = event.payload ?? {};
    switch (event.type) {
      case 'replica.status.changed': {
        const status = str(p.status) ?? 'unknown';
        const error = str(p.error);
        if (status === 'error') return this.finish(false, error ?? this.lastError ?? 'the workspace failed to start', [`workspace: error${error ? ` (${oneLine(error)})` : ''}`]);
        const line = `workspace: ${status}${p.waking === true ? ' (waking)' : ''}`;
        if (status === 'active' && this.goal.kind === 'create' && this.goal.untilActive) return this.finish(true, undefined, [line]);
        return [line];
      }
      case 'replica.deleted':
        return this.finish(false, 'the workspace was deleted', ['workspace: deleted']);
      case 'hooks.started':
        return [`start hooks: running ${num(p.total) ?? '?'}`];
      case 'hooks.progress':
      case 'hooks.failed': {
        const failed = event.type === 'hooks.failed';
        const how = failed ? (p.timedOut === true ? 'timed out' : `failed (exit ${num(p.exitCode) ?? '?'})`) : 'done';
        return [`start hook ${str(p.hook) ?? '?'}: ${how} (${num(p.done) ?? '?'}/${num(p.total) ?? '?'})`];
      }
      case 'hooks.completed':
        return [`start hooks: completed`];
      case 'chat.turn.accepted':
        if (this.goal.kind === 'create' && this.messageId === undefined) {
          this.messageId = str(p.messageId);
          this.chatId = str(p.chatId);
        }
        if (str(p.messageId) !== this.messageId) return [];
        return p.queued === true && num(p.position) ? [`message: queued (position ${num(p.position)})`] : [];
      case 'chat.turn.started':
        if (this.messageId === undefined || str(p.messageId) !== this.messageId) return [];
        this.turnStarted = true;
        return ['turn: started'];
      case 'chat.turn.delta': {
        if (!this.turnStarted || str(p.chatId) !== this.chatId) return [];
        const agentEvent = p.event && typeof p.event === 'object' ? (p.event as { type?: unknown; payload?: unknown }) : {};
        return [`  ${summarizeAgentEvent(agentEvent)}`];
      }
      case 'chat.turn.completed': {
        if (!this.turnStarted || str(p.chatId) !== this.chatId) return [];
        if (p.isComplete === true) return this.finish(true, undefined, ['turn: completed']);
        return this.finish(false, this.lastError ?? 'the turn did not complete', ['turn: failed']);
      }
      case 'error': {
        // An error of another message of the workspace is not this wait's business.
        const messageId = str(p.messageId);
        if (messageId !== undefined && messageId !== this.messageId) return [];
        this.lastError = str(p.message) ?? str(p.code) ?? 'error';
        return [`error: ${oneLine(this.lastError)}`];
      }
      default:
        return [];
    }
  }

  private finish(ok: boolean, error: string | undefined, lines: string[]): string[] {
    this.outcome = ok ? { ok } : { ok, error };
    return lines;
  }
}

export interface FollowHandle {
  /** Resolves once the server holds the stream's position: what happens from then on is seen. */
  connected: Promise<void>;
  /** Prints progress lines until the goal is reached or the stream ends. */
  run(goal: ProgressGoal, print: (line: string) => void): Promise<ProgressOutcome>;
  /** Stops following (when what was to be awaited never started). */
  stop(): Promise<void>;
}

/**
 * Opens the replica's events stream from `after` (none: the live tail). The typed client's
 * `events` is lazy, so its first read is started here and `connected` watches the response
 * arrive: a message sent after that cannot have its events missed, without replaying the
 * replica's whole past.
 */
export function followReplica(connection: Connection, replicaId: string, after?: string): FollowHandle {
  let opened!: () => void;
  const connected = new Promise<void>((resolve) => (opened = resolve));
  const client = clientFor(connection, async (input, init) => {
    try {
      return await globalThis.fetch(input, init);
    } finally {
      opened();
    }
  });
  const controller = new AbortController();
  const events = client.events(replicaId, { after, signal: controller.signal });
  const first = events.next();
  // Awaited in `run`; until then a failed connection must not count as unhandled.
  first.catch(() => undefined);
  const stop = async () => {
    controller.abort();
    await events.return(undefined).catch(() => undefined);
  };
  return {
    connected,
    stop,
    async run(goal, print) {
      const tracker = new ProgressTracker(goal);
      try {
        for (let step = await first; !step.done; step = await events.next()) {
          for (const line of tracker.next(step.value)) print(line);
          if (tracker.outcome) return tracker.outcome;
        }
        return { ok: false, error: 'the events stream ended before the wait was over' };
      } finally {
        await stop();
      }
    },
  };
}
