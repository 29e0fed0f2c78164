/**
 * The seam between terminal sessions and the workspace container runtime. The worker hands
 * the manager an `OpenTty`; the real one (src/sandbox/workspace) runs a TTY exec of `bash -l`
 * as the workspace user in the workspace's container, tests hand a small Docker adapter.
 */
import type { TerminalSessionRow } from '../db/terminalSessionsRepository';

export type { TerminalSessionRow };

export interface TtyOptions {
  cols: number;
  rows: number;
  env?: Record<string, string>;
}

export interface Tty {
  write(data: string): void | Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  /** Raw output of the terminal; Buffers are decoded as UTF-8 across chunk boundaries. */
  onData(cb: (chunk: Buffer | string) => void): void;
  /** Once, when the process ends or the exec goes away (null: no exit status known). */
  onExit(cb: (exitCode: number | null) => void): void;
  /** Ends the process; resolves when it is gone. */
  close(): Promise<void>;
  /** Optional flow control: the manager pauses output while the bus falls behind. */
  pause?(): void;
  resume?(): void;
}

export type OpenTty = (replicaId: string, options: TtyOptions) => Promise<Tty>;

/** ARCHITECTURE.md "Terminal input" and interop §5. */
export const TERMINAL_LIMITS = {
  sessionsPerWorkspace: 8,
  minCols: 2,
  maxCols: 500,
  minRows: 1,
  maxRows: 200,
  maxInputChars: 65_536,
  /** Early batches held per session while an earlier sequence is missing. */
  inputWindow: 64,
  /** Characters of held (early) input per session, whatever the window. */
  maxHeldChars: 1_048_576,
  /** Recent output kept per session for replay on (re)connect. */
  replayChars: 65_536,
} as const;

/** The API shape (camelCase, interop §5). */
export interface TerminalSessionView {
  id: string;
  title: string;
  createdAt: string;
  exited: boolean;
  exitCode?: number;
}

export function sessionView(row: TerminalSessionRow): TerminalSessionView {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.createdAt.toISOString(),
    exited: row.exited,
    ...(row.exited && row.exitCode !== null ? { exitCode: row.exitCode } : {}),
  };
}
