/**
 * One command in a workspace container, as `hangar`. Docker has no way to kill an exec, so a
 * tiny wrapper prints the exec's session id (every exec is a session leader) on the first
 * stdout line before it becomes the command; cancelling or a deadline then kills that whole
 * session from a second exec, never the container. Every ending goes through `settle` once.
 */
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { abortReason } from '../errors';
import { FrameDemuxer } from '../stream';
import { execEnv, HANGAR_USER } from './container';
import type { ExecResult } from './types';

/** As coreutils `timeout` reports it. */
export const TIMEOUT_EXIT_CODE = 124;
/** After the kill, how long the exec's stream may take to end before it is cut. */
const KILL_GRACE_MS = 5_000;
const MARKER_MAX_BYTES = 128;

/** `$1` marker prefix, `$2` working directory, then the command. */
export const EXEC_WRAPPER = 'printf "%s%s\\n" "$1" "$$"; cd -- "$2" || exit 126; shift 2; exec "$@"';

export function markerPrefix(): string {
  return `\x1ehangar-${randomBytes(8).toString('hex')}:S`;
}

/** Kills every process of an exec's session (and its process group, should one escape). */
export async function killSession(container: Docker.Container, sessionId: number): Promise<void> {
  const exec = await container.exec({
    Cmd: ['bash', '-c', 'kill -KILL -- "-$1" 2>/dev/null; pkill -KILL -s "$1"; exit 0', 'hangar-kill', String(sessionId)],
    User: HANGAR_USER,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = (await exec.start({ hijack: true, stdin: false })) as Duplex;
  await new Promise<void>((resolve) => {
    stream.on('data', () => {});
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/** The exec's own exit code, which can trail the end of its stream by a moment. */
export async function execExitCode(exec: Docker.Exec): Promise<number | null> {
  for (let i = 1; i <= 100; i++) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((r) => setTimeout(r, Math.min(10 * i, 100)));
  }
  return null;
}

/**
 * Strips the wrapper's first line (`prefix` + session id) from a stream of output bytes and
 * reports the id; everything after it passes through untouched.
 */
export class MarkerReader {
  private head: Buffer | null = Buffer.alloc(0);

  constructor(
    private readonly prefix: string,
    private readonly onSession: (sessionId: number) => void,
    private readonly onOutput: (chunk: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.head === null) return this.onOutput(chunk);
    const buf = Buffer.concat([this.head, chunk]);
    const newline = buf.indexOf(0x0a);
    if (newline === -1) {
      if (buf.length <= MARKER_MAX_BYTES) return void (this.head = buf);
      this.head = null;
      return this.onOutput(buf);
    }
    this.head = null;
    const line = buf.toString('latin1', 0, newline).replace(/\r$/, '');
    const id = line.startsWith(this.prefix) ? Number(line.slice(this.prefix.length)) : NaN;
    if (Number.isInteger(id) && id > 0) this.onSession(id);
    const rest = Number.isInteger(id) && id > 0 ? buf.subarray(newline + 1) : buf;
    if (rest.length) this.onOutput(rest);
  }
}

/** A stream to pipe into the command's stdin (a Node or streamx readable). */
export interface StdinSource {
  pipe(dest: Duplex): unknown;
  once(event: 'error', listener: (err: unknown) => void): unknown;
}

export interface RawExecRequest {
  argv: string[];
  env?: Record<string, string>;
  cwd: string;
  stdin?: string | Buffer | StdinSource;
  onStdout: (chunk: Buffer) => void;
  onStderr: (chunk: Buffer) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  onSession?: (sessionId: number) => void;
}

type Ending = { kind: 'exited' } | { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'failed'; error: unknown };

export function runExec(container: Docker.Container, req: RawExecRequest, log: Logger): Promise<ExecResult> {
  if (!Array.isArray(req.argv) || req.argv.length === 0 || req.argv.some((a) => typeof a !== 'string' || a.includes('\0'))) {
    return Promise.reject(new TypeError('argv must be a non-empty array of strings without NUL'));
  }
  if (req.timeoutMs !== undefined && !(Number.isInteger(req.timeoutMs) && req.timeoutMs > 0)) {
    return Promise.reject(new TypeError('timeoutMs must be a positive integer'));
  }
  if (req.signal?.aborted) return Promise.reject(abortReason(req.signal));
  return new ExecRun(container, req, log).execute();
}

class ExecRun {
  private readonly prefix = markerPrefix();
  private stream: Duplex | null = null;
  private sessionId: number | null = null;
  private stopping: 'timeout' | 'aborted' | null = null;
  private killed = false;
  private settled = false;
  private timers: NodeJS.Timeout[] = [];
  private resolve!: (r: ExecResult) => void;
  private reject!: (e: unknown) => void;

  constructor(
    private readonly container: Docker.Container,
    private readonly req: RawExecRequest,
    private readonly log: Logger,
  ) {}

  execute(): Promise<ExecResult> {
    return new Promise<ExecResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      if (this.req.timeoutMs) this.timers.push(setTimeout(() => this.stop('timeout'), this.req.timeoutMs));
      this.req.signal?.addEventListener('abort', this.onAbort, { once: true });
      this.launch().catch((error: unknown) => void this.settle({ kind: 'failed', error }));
    });
  }

  private readonly onAbort = () => this.stop('aborted');

  private async launch(): Promise<void> {
    const hasStdin = this.req.stdin !== undefined;
    const exec = await this.container.exec({
      Cmd: ['bash', '-c', EXEC_WRAPPER, 'hangar-exec', this.prefix, this.req.cwd, ...this.req.argv],
      User: HANGAR_USER,
      Env: execEnv(this.req.env),
      AttachStdin: hasStdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      Privileged: false,
    });
    const stream = (await exec.start({ hijack: true, stdin: hasStdin })) as Duplex;
    this.stream = stream;
    if (this.settled) return void stream.destroy();
    if (this.stopping) this.startGrace();
    const marker = new MarkerReader(this.prefix, (id) => this.onSession(id), this.req.onStdout);
    const demuxer = new FrameDemuxer((kind, payload) => (kind === 'stderr' ? this.req.onStderr(payload) : marker.push(payload)));
    stream.on('data', (chunk: Buffer) => {
      if (!this.settled) demuxer.push(chunk);
    });
    const onEnd = () => void this.finish(exec);
    stream.once('end', onEnd);
    stream.once('close', onEnd);
    stream.on('error', (error: unknown) => {
      // Writing stdin to a command that exited early is not a failure of the run.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE' || (error as NodeJS.ErrnoException).code === 'ECONNRESET') return onEnd();
      void this.settle({ kind: 'failed', error });
    });
    this.writeStdin(stream);
  }

  private writeStdin(stream: Duplex): void {
    const stdin = this.req.stdin;
    if (stdin === undefined) return;
    if (typeof stdin === 'string' || Buffer.isBuffer(stdin)) return void stream.end(stdin);
    // A source that fails ends stdin, so the command sees a short input instead of waiting.
    stdin.once('error', () => stream.end());
    stdin.pipe(stream);
  }

  private onSession(id: number): void {
    this.sessionId = id;
    this.req.onSession?.(id);
    if (this.stopping) void this.kill();
  }

  private stop(reason: 'timeout' | 'aborted'): void {
    if (this.settled || this.stopping) return;
    this.stopping = reason;
    // Before the exec has started, the kill waits for its session id (the first stdout line).
    void this.kill();
    if (this.stream) this.startGrace();
  }

  /** Should the stream outlive the kill (a broken engine connection), stop waiting on it. */
  private startGrace(): void {
    const reason = this.stopping!;
    this.timers.push(setTimeout(() => void this.settle({ kind: reason }), KILL_GRACE_MS));
  }

  private async kill(): Promise<void> {
    if (this.killed || this.sessionId === null) return;
    this.killed = true;
    try {
      await killSession(this.container, this.sessionId);
    } catch (err) {
      this.log.warn('could not kill a workspace command', { err });
    }
  }

  private async finish(exec: Docker.Exec): Promise<void> {
    if (this.settled) return;
    if (this.stopping) return this.settle({ kind: this.stopping });
    try {
      await this.settle({ kind: 'exited' }, await execExitCode(exec));
    } catch (error) {
      await this.settle({ kind: 'failed', error });
    }
  }

  private async settle(ending: Ending, exitCode: number | null = null): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.req.signal?.removeEventListener('abort', this.onAbort);
    this.stream?.destroy();
    if (ending.kind === 'failed') return this.reject(ending.error);
    if (ending.kind === 'aborted') return this.reject(abortReason(this.req.signal!));
    if (ending.kind === 'timeout') return this.resolve({ exitCode: TIMEOUT_EXIT_CODE, timedOut: true });
    if (exitCode === null) return this.reject(new Error('The workspace command ended but Docker reported no exit code'));
    this.resolve({ exitCode, timedOut: false });
  }
}
