/**
 * One hook run: claim a sandbox, exec the runner as `hangar` with the files and scripts
 * streamed on its stdin, collect its output, and throw the container away — on success,
 * failure, timeout or cancellation alike. Every ending goes through `settle`, exactly once.
 */
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from '../logger';
import { buildArchive } from './archive';
import { abortReason, dockerStatus } from './errors';
import { DEFAULT_OUTPUT_LIMIT_BYTES, OutputCollector } from './output';
import { short, type SandboxPool } from './pool';
import { prepareRequest, SANDBOX_HOME, type PreparedRequest } from './request';
import { markerPrefix, newNonce, runnerScript, stepPath, type ControlEvent } from './runner';
import { ControlScanner, FrameDemuxer } from './stream';
import type { HookRunRequest, HookRunResult } from './types';

export const DEFAULT_TIMEOUT_MS = 90_000;
/** Exit code reported when the deadline kills the run, as coreutils `timeout` does. */
export const TIMEOUT_EXIT_CODE = 124;
/** After the runner says it is done, how long its output pipe may stay open. */
const END_GRACE_MS = 2_000;
const MAX_CLAIMS = 5;

export interface HookRunnerDeps {
  pool: SandboxPool;
  logger: Logger;
}

type Ending =
  | { kind: 'exited'; exitCode: number }
  | { kind: 'timeout' }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: unknown };

export async function runHookChain(deps: HookRunnerDeps, req: HookRunRequest): Promise<HookRunResult> {
  const prepared = prepareRequest(req);
  if (req.signal?.aborted) throw abortReason(req.signal);
  const nonce = newNonce();
  const steps = prepared.steps.map((step, i) => ({ path: stepPath(i, step.name), script: step.script }));
  const archive = await buildArchive({ files: prepared.files, steps });
  const runner = runnerScript(nonce, steps.map((s) => s.path));
  return new HookRun(deps, req, prepared, nonce, runner, archive).execute();
}

class HookRun {
  private readonly startedAt = Date.now();
  private readonly timeoutMs: number;
  private readonly output: OutputCollector;
  private readonly scanner: ControlScanner;
  private readonly log: Logger;
  private readonly onStep: NonNullable<HookRunRequest['onStep']>;
  private container: Docker.Container | null = null;
  private stream: Duplex | null = null;
  private endCode: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private settled = false;
  private resolve!: (r: HookRunResult) => void;
  private reject!: (e: unknown) => void;

  constructor(
    private readonly deps: HookRunnerDeps,
    private readonly req: HookRunRequest,
    private readonly prepared: PreparedRequest,
    nonce: string,
    private readonly runner: string,
    private readonly archive: Buffer,
  ) {
    this.timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.log = deps.logger;
    this.output = new OutputCollector(req.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES, this.guard('onOutput', req.onOutput));
    this.scanner = new ControlScanner(markerPrefix(nonce));
    this.onStep = this.guard('onStep', req.onStep);
  }

  execute(): Promise<HookRunResult> {
    return new Promise<HookRunResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.timers.push(setTimeout(() => void this.settle({ kind: 'timeout' }), this.timeoutMs));
      this.req.signal?.addEventListener('abort', this.onAbort, { once: true });
      if (this.req.signal?.aborted) return void this.settle({ kind: 'aborted' });
      this.launch().catch((error: unknown) => void this.settle({ kind: 'failed', error }));
    });
  }

  private readonly onAbort = () => void this.settle({ kind: 'aborted' });

  /** A pooled container that died or vanished while idle fails at exec; then claim another. */
  private async launch(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { container, pooled } = await this.deps.pool.claim();
      if (this.settled) return this.deps.pool.discard(container.id);
      this.container = container;
      try {
        const exec = await container.exec({
          Cmd: ['bash', '-c', this.runner],
          User: 'hangar',
          WorkingDir: SANDBOX_HOME,
          Env: this.prepared.env,
          AttachStdin: true,
          AttachStdout: true,
          AttachStderr: true,
          Tty: false,
          Privileged: false,
        });
        if (this.settled) return;
        const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
        if (this.settled) return void stream.destroy();
        this.attach(stream, exec);
        stream.end(this.archive);
        return;
      } catch (err) {
        const status = dockerStatus(err);
        if (!pooled || attempt >= MAX_CLAIMS || this.settled || (status !== 404 && status !== 409)) throw err;
        this.log.warn('sandbox container unusable, claiming another', { container: short(container.id), status });
        this.container = null;
        this.deps.pool.discard(container.id);
      }
    }
  }

  private attach(stream: Duplex, exec: Docker.Exec): void {
    this.stream = stream;
    const demuxer = new FrameDemuxer((kind, payload) => {
      if (kind === 'stderr') return this.output.write('stderr', payload);
      for (const item of this.scanner.push(payload)) {
        if ('text' in item) this.output.write('stdout', item.text);
        else this.onControl(item.control);
      }
    });
    stream.on('data', (chunk: Buffer) => {
      if (!this.settled) demuxer.push(chunk);
    });
    let ended = false;
    // A write error (the runner exited before reading all of stdin) ends the stream too;
    // the exec's own status says whether the run finished or the connection broke.
    const onEnd = (error?: unknown) => {
      if (ended || this.settled) return;
      ended = true;
      this.output.write('stdout', this.scanner.flush());
      this.exitCodeOf(exec).then(
        (exitCode) => {
          if (exitCode !== null) return this.settle({ kind: 'exited', exitCode });
          if (error === undefined && this.endCode !== null) return this.settle({ kind: 'exited', exitCode: this.endCode });
          return this.settle({ kind: 'failed', error: error ?? new Error('The sandbox exec stream ended while the runner was still running') });
        },
        (inspectError: unknown) => this.settle({ kind: 'failed', error: error ?? inspectError }),
      );
    };
    stream.once('end', () => onEnd());
    stream.once('close', () => onEnd());
    stream.on('error', (error: unknown) => onEnd(error));
  }

  private onControl(event: ControlEvent): void {
    if (event.kind === 'end') {
      this.endCode = event.exitCode;
      // The runner kills what the hooks left behind; should the pipe still stay open, do not wait on it.
      this.timers.push(setTimeout(() => void this.settle({ kind: 'exited', exitCode: event.exitCode }), END_GRACE_MS));
      return;
    }
    const step = this.prepared.steps[event.step]?.name ?? `step ${event.step + 1}`;
    if (event.kind === 'start') {
      this.output.line(`==> ${/\bhook$/i.test(step) ? step : `${step} hook`}`);
      this.onStep({ step, state: 'started' });
    } else {
      this.onStep({ step, state: 'finished', exitCode: event.exitCode });
    }
  }

  /** The exec's own exit code (it can trail the end of the stream by a moment); null while it runs. */
  private async exitCodeOf(exec: Docker.Exec): Promise<number | null> {
    for (let i = 0; i < 50; i++) {
      const info = await exec.inspect();
      if (!info.Running && info.ExitCode !== null) return info.ExitCode;
      await new Promise((r) => setTimeout(r, 10));
    }
    return null;
  }

  private async settle(ending: Ending): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.req.signal?.removeEventListener('abort', this.onAbort);
    this.stream?.destroy();
    const id = this.container?.id;

    if (ending.kind === 'timeout' || ending.kind === 'aborted') {
      // The caller is told only once the sandbox is really gone.
      if (id) await this.deps.pool.remove(id).catch((err: unknown) => this.log.warn('sandbox removal failed', { err }));
    } else if (id) {
      this.deps.pool.release(id);
    }

    const fields = { container: id && short(id), steps: this.prepared.steps.map((s) => s.name), durationMs: Date.now() - this.startedAt };
    if (ending.kind === 'failed') {
      this.log.error('hook run failed', { ...fields, err: ending.error });
      return this.reject(ending.error);
    }
    if (ending.kind === 'aborted') {
      this.log.info('hook run cancelled', fields);
      return this.reject(abortReason(this.req.signal!));
    }
    const timedOut = ending.kind === 'timeout';
    if (timedOut) this.output.notice(`[hangar] timed out after ${this.timeoutMs / 1000} s; the sandbox was killed`);
    const exitCode = timedOut ? TIMEOUT_EXIT_CODE : ending.exitCode;
    const output = this.output.finish();
    this.log.info('hook run finished', { ...fields, exitCode, timedOut, truncated: this.output.truncated });
    this.resolve({ exitCode, output, timedOut });
  }

  /** A failing consumer callback (a closed SSE stream) must not break the run. */
  private guard<A extends unknown[]>(name: string, fn?: (...args: A) => void): (...args: A) => void {
    return (...args: A) => {
      try {
        fn?.(...args);
      } catch (err) {
        this.log.warn(`${name} callback threw`, { err });
      }
    };
  }
}
