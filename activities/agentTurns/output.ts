/**
 * What a supervised turn's agent prints (activities/agentTurns/cli.ts), read and recorded: each
 * line parsed by the agent's adapter (its result, its session, whether it must be stopped), and
 * the events of the lines past what is recorded written as history and stream events, in one
 * transaction with the recorded offset. That offset is the turn's place: a worker that takes the
 * turn over reads the output again from its start (so the adapter knows what it knew), writes only
 * what lies past the offset, and a follower that finds the offset moved by another stops.
 */
import type { AgentAdapter, AgentEvent } from '../../src/agents/adapters';
import { OffsetLineSplitter } from '../../src/sandbox/workspace/lines';
import type { WorkspaceActivityDeps } from '../workspace';

export type TurnOutputDeps = Pick<WorkspaceActivityDeps, 'repos' | 'events' | 'logger' | 'agentIdleTimeoutMs'>;

/** The turn whose output is read: its records, its agent's adapter, its time limit. */
export interface OutputTurn {
  replicaId: string;
  chatId: string;
  messageId: string;
  adapter: AgentAdapter;
  /** When the turn reaches its time limit (ms since the epoch): the agent is stopped then. */
  deadline: number;
}

/**
 * How long a write of the turn's events is retried. The database being away for a moment must
 * not end a turn the agent is still doing; away for longer, the attempt gives up and the next
 * one takes the turn over from the recorded offset, so nothing the agent said is lost.
 */
const WRITE_RETRY_MS = 60_000;

/** Thrown when the recorded offset was not where this follower left it: the turn is another's now. */
export class TurnTakenOver extends Error {
  constructor() {
    super('another attempt of this turn records its output now');
  }
}

/** `write` again, backing off, until it succeeds, the turn is taken over, or WRITE_RETRY_MS has passed. */
async function persistently<T>(write: () => PromiseLike<T>): Promise<T> {
  const deadline = Date.now() + WRITE_RETRY_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
    try {
      return await write();
    } catch (err) {
      if (err instanceof TurnTakenOver || Date.now() + wait > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export type StopReason = { code: string; error: string };

export class TurnOutput {
  result: { ok: boolean; sessionId?: string; text?: string; error?: string } | undefined;
  /** The agent's session, as soon as any line names it. */
  sessionId: string | undefined;
  stopReason: StopReason | undefined;
  /** Set when the writes failed for good or the turn was taken over: the follower stops. */
  failure: Error | undefined;
  /** Aborted when the agent must be stopped (`stopReason`) or the writes failed (`failure`). */
  readonly interrupt = new AbortController();
  private readonly lines: OffsetLineSplitter;
  private readonly idle: NodeJS.Timeout;
  private readonly limit: NodeJS.Timeout;
  /** Events of lines past `recorded`, not written yet, and the end of the last line they came from. */
  private queued: AgentEvent[] = [];
  private queuedEnd = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: TurnOutputDeps,
    private readonly turn: OutputTurn,
    /** How much of the output is recorded: nothing before it is written again. */
    private recorded: number,
  ) {
    this.lines = new OffsetLineSplitter(0, (line, end) => this.onLine(line, end));
    const idleSeconds = Math.round(deps.agentIdleTimeoutMs / 1000);
    this.idle = setTimeout(
      () => this.stop({ code: 'agent_stalled', error: `the agent printed nothing for ${idleSeconds} s (its model provider may have stalled); the turn was stopped` }),
      deps.agentIdleTimeoutMs,
    );
    this.limit = setTimeout(
      () => this.stop({ code: 'turn_timeout', error: 'the turn reached its time limit and was stopped' }),
      Math.max(0, turn.deadline - Date.now()),
    );
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  push(chunk: Buffer): void {
    this.lines.push(chunk);
  }

  /** The output has ended: its last line (without a newline) is read too. */
  end(): void {
    this.lines.end();
  }

  stop(reason: StopReason): void {
    if (this.interrupt.signal.aborted) return;
    this.result = { ok: false, sessionId: this.sessionId, error: reason.error };
    this.stopReason = reason;
    this.interrupt.abort(new Error(reason.error));
  }

  /** Waits for every queued write to end, and stops the timers. */
  async settled(): Promise<void> {
    clearTimeout(this.idle);
    clearTimeout(this.limit);
    for (let before = this.writing; ; before = this.writing) {
      await before;
      if (before === this.writing) return;
    }
  }

  private onLine(line: string, end: number): void {
    this.idle.refresh();
    const parsed = this.turn.adapter.parse(line);
    if (parsed.result) this.result = parsed.result;
    if (parsed.stop) this.stop({ code: 'provider_refused', error: parsed.stop.error ?? 'the agent was stopped' });
    this.sessionId = parsed.sessionId ?? parsed.result?.sessionId ?? this.sessionId;
    // Recorded by an earlier attempt, or nothing to record.
    if (end <= this.recorded || this.failure) return;
    if (!parsed.events.length) return;
    this.queued.push(...parsed.events);
    this.queuedEnd = end;
    // One write at a time, each taking everything queued meanwhile: the events stay in order.
    this.writing = this.writing.then(() => this.write());
  }

  private async write(): Promise<void> {
    if (!this.queued.length || this.failure) return;
    const events = this.queued;
    const [from, to] = [this.recorded, this.queuedEnd];
    this.queued = [];
    const { replicaId, chatId, messageId } = this.turn;
    const { repos } = this.deps;
    try {
      await persistently(() =>
        repos.transact(async (trx) => {
          for (const event of events) {
            await repos.replicaLogs.appendAgentEvent({ replicaId, chatId, messageId, timestamp: event.timestamp, type: event.type, payload: event.payload }, trx);
            await this.deps.events.emit(replicaId, 'chat.turn.delta', { chatId, event }, trx);
          }
          if (!(await repos.replicaMessages.advanceOutput(replicaId, messageId, from, to, trx))) throw new TurnTakenOver();
        }),
      );
      this.recorded = to;
    } catch (err) {
      this.failure = err as Error;
      this.interrupt.abort(err);
      this.deps.logger.warn(err instanceof TurnTakenOver ? 'a turn is followed by another attempt now' : 'could not record an agent turn\'s events', { replicaId, messageId, err });
    }
  }
}
