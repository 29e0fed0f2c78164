/**
 * One terminal held by a worker: the TTY, its recent output for replay, the input ordering
 * state, and the publisher that streams output to the bus in order, with offsets.
 *
 * A session starts inactive: while workers race to claim it, its output is only recorded.
 * The winner activates it, which publishes what was recorded so far (the shell's first
 * prompt) and everything after; losers close theirs without a word on the bus.
 */
import { StringDecoder } from 'node:string_decoder';
import type { EventBus } from '../events/bus';
import type { Logger } from '../logger';
import { InputOrdering } from './ordering';
import { OutputBuffer } from './outputBuffer';
import { outputChannel, publishMessage, splitOutput, type ReplayResult } from './protocol';
import { TERMINAL_LIMITS, type Tty } from './types';

/** Unpublished output above which the TTY is paused (or, without flow control, trimmed). */
const PAUSE_AT_CHARS = 256 * 1024;
const DROP_AT_CHARS = 1024 * 1024;

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

export class HeldSession {
  readonly buffer = new OutputBuffer(TERMINAL_LIMITS.replayChars);
  readonly ordering = new InputOrdering({ window: TERMINAL_LIMITS.inputWindow, maxHeldChars: TERMINAL_LIMITS.maxHeldChars });
  active = false;
  exited = false;
  exitCode: number | null = null;

  private readonly decoder = new StringDecoder('utf8');
  private readonly channel: string;
  private pending = '';
  /** Offset of the first character of `pending` in the session's output. */
  private pendingStart = 0;
  private flushing: Promise<void> | null = null;
  private paused = false;
  private writes: Promise<void> = Promise.resolve();
  private exitAnnounced = false;
  private publishFailed = false;

  constructor(
    readonly id: string,
    readonly replicaId: string,
    private readonly tty: Tty,
    private readonly deps: { bus: EventBus; logger: Logger; onExit(session: HeldSession): void },
  ) {
    this.channel = outputChannel(id);
    tty.onData((chunk) => this.output(typeof chunk === 'string' ? chunk : this.decoder.write(chunk)));
    tty.onExit((code) => this.exit(code));
  }

  activate(): void {
    if (this.active) return;
    this.active = true;
    const recorded = this.buffer.snapshot(0);
    this.pending = recorded.data;
    this.pendingStart = recorded.start;
    this.flush();
    if (this.exited) void this.announceExit();
  }

  /** Writes in call order, whatever the TTY does with promises. */
  write(writes: string[]): Promise<void> {
    const run = this.writes.then(async () => {
      for (const data of writes) if (data) await this.tty.write(data);
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  resize(cols: number, rows: number): Promise<void> {
    return this.tty.resize(cols, rows);
  }

  replay(from: number): ReplayResult {
    return { ...this.buffer.snapshot(from), exited: this.exited, exitCode: this.exitCode };
  }

  /** Ends the process; the exit is announced even if the TTY never reports one. */
  async close(): Promise<void> {
    if (!this.exited) await this.tty.close();
    this.exit(null);
  }

  private output(text: string): void {
    if (!text || this.exited) return;
    this.buffer.append(text);
    if (!this.active) return;
    this.pending += text;
    if (this.pending.length > PAUSE_AT_CHARS && this.tty.pause && !this.paused) {
      this.paused = true;
      this.tty.pause();
    } else if (this.pending.length > DROP_AT_CHARS) {
      // No flow control and a bus that cannot keep up: live viewers skip ahead (the offsets
      // show the gap); the replay buffer still has the most recent output.
      let drop = this.pending.length - TERMINAL_LIMITS.replayChars;
      if (isLowSurrogate(this.pending.charCodeAt(drop))) drop += 1;
      this.pending = this.pending.slice(drop);
      this.pendingStart += drop;
    }
    this.flush();
  }

  private flush(): void {
    if (this.flushing || !this.pending) return;
    this.flushing = (async () => {
      // Output of one tick (an echo and a prompt) goes out together.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.pending) {
        let offset = this.pendingStart;
        const pieces = splitOutput(this.pending);
        this.pendingStart += this.pending.length;
        this.pending = '';
        for (const d of pieces) {
          await this.publish({ k: 'out', o: offset, d });
          offset += d.length;
        }
        if (this.paused && this.pending.length < PAUSE_AT_CHARS / 4) {
          this.paused = false;
          this.tty.resume?.();
        }
      }
    })().finally(() => {
      this.flushing = null;
      if (this.pending) this.flush();
    });
  }

  private exit(code: number | null): void {
    if (this.exited) return;
    const rest = this.decoder.end();
    if (rest) this.output(rest);
    this.exited = true;
    this.exitCode = code;
    if (this.paused) this.tty.resume?.();
    if (this.active) void this.announceExit();
    this.deps.onExit(this);
  }

  private async announceExit(): Promise<void> {
    if (this.exitAnnounced) return;
    this.exitAnnounced = true;
    while (this.flushing) await this.flushing;
    await this.publish({ k: 'exit', o: this.buffer.end, code: this.exitCode });
  }

  private async publish(message: object): Promise<void> {
    try {
      await publishMessage(this.deps.bus, this.channel, message);
    } catch (err) {
      if (!this.publishFailed) this.deps.logger.warn('terminal output could not be published', { sessionId: this.id, err: err as Error });
      this.publishFailed = true;
    }
  }
}
