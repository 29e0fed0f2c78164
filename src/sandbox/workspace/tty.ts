/**
 * A real terminal in a workspace: a TTY exec of `bash -l` as `hangar`. The same wrapper as
 * plain execs reports the shell's session id first (stripped from the output), so closing
 * kills the shell and everything it started, not only the connection.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { SandboxInputError } from '../errors';
import { SANDBOX_HOME } from '../request';
import { execEnv, HANGAR_USER } from './container';
import { EXEC_WRAPPER, execExitCode, killSession, markerPrefix, MarkerReader } from './exec';
import type { TtyOptions, TtySession } from './types';

const CLOSE_GRACE_MS = 5_000;
const START_TIMEOUT_MS = 10_000;

function checkSize(cols: number, rows: number): void {
  if (!Number.isInteger(cols) || cols < 1 || cols > 10_000 || !Number.isInteger(rows) || rows < 1 || rows > 10_000) {
    throw new SandboxInputError('cols and rows must be positive integers', 'size');
  }
}

export async function openWorkspaceTty(container: Docker.Container, opts: TtyOptions, log: Logger): Promise<TtySession> {
  checkSize(opts.cols, opts.rows);
  const prefix = markerPrefix();
  const exec = await container.exec({
    Cmd: ['bash', '-c', EXEC_WRAPPER, 'hangar-tty', prefix, SANDBOX_HOME, 'bash', '-l'],
    User: HANGAR_USER,
    Env: execEnv(opts.env, { TERM: 'xterm-256color' }),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    Privileged: false,
  });
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as Duplex;
  const decoder = new StringDecoder('utf8');
  const dataListeners: Array<(chunk: string) => void> = [];
  const exitListeners: Array<(code: number | null) => void> = [];
  let early: string[] = [];
  let sessionId: number | null = null;
  let exitCode: number | null | undefined;

  const emit = (text: string) => {
    if (!text) return;
    if (!dataListeners.length) return void early.push(text);
    for (const cb of dataListeners) guarded(log, () => cb(text));
  };
  let onSession!: () => void;
  const sessionKnown = new Promise<void>((resolve) => (onSession = resolve));
  const marker = new MarkerReader(
    prefix,
    (id) => {
      sessionId = id;
      onSession();
    },
    (chunk) => emit(decoder.write(chunk)),
  );
  stream.on('data', (chunk: Buffer) => marker.push(chunk));
  stream.on('error', (err: unknown) => log.debug('terminal stream error', { err }));

  const exited = new Promise<void>((resolve) => {
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      emit(decoder.end());
      void execExitCode(exec)
        .catch(() => null)
        .then((code) => {
          exitCode = code;
          for (const cb of exitListeners) guarded(log, () => cb(code));
          resolve();
        });
    };
    stream.once('end', onEnd);
    stream.once('close', onEnd);
  });

  // Input typed before the wrapper has printed its line would be echoed ahead of it.
  const ready = await Promise.race([
    sessionKnown.then(() => true),
    exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), START_TIMEOUT_MS).unref()),
  ]);
  if (!ready) {
    stream.destroy();
    throw new Error('The terminal shell did not start');
  }
  await exec.resize({ h: opts.rows, w: opts.cols });

  return {
    write: (data) => {
      if (exitCode === undefined) stream.write(data);
    },
    resize: async (cols, rows) => {
      checkSize(cols, rows);
      if (exitCode === undefined) await exec.resize({ h: rows, w: cols });
    },
    onData: (cb) => {
      dataListeners.push(cb);
      const pending = early;
      early = [];
      for (const text of pending) guarded(log, () => cb(text));
    },
    onExit: (cb) => {
      if (exitCode !== undefined) return guarded(log, () => cb(exitCode!));
      exitListeners.push(cb);
    },
    close: async () => {
      if (exitCode !== undefined) return;
      if (sessionId !== null) await killSession(container, sessionId).catch((err: unknown) => log.warn('could not kill a terminal', { err }));
      const timer = setTimeout(() => stream.destroy(), CLOSE_GRACE_MS);
      stream.end();
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A failing consumer callback (a closed SSE stream) must not break the terminal. */
function guarded(log: Logger, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    log.warn('terminal callback threw', { err });
  }
}
