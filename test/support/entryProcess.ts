/**
 * A Hangar process started from an entry point as production starts it (its own Node process),
 * ready once it logs a JSON line with a given message; and its stop by SIGTERM, as an
 * orchestrator stops it.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

export interface EntryProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** The first JSON log line with the awaited message. */
  line: Record<string, unknown>;
}

/** Starts a process: `spawn`, or another machine's (an engine host's `spawn`). */
export type Spawner = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

/** Runs `node <args>` with `env` over the current one; resolves at its first log line with `msg === ready`. */
export async function startEntryProcess(args: string[], options: { env: Record<string, string>; ready: string; cwd?: string; spawner?: Spawner }): Promise<EntryProcess> {
  const child = (options.spawner ?? spawn)(process.execPath, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const line = await new Promise<Record<string, unknown>>((found, failed) => {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const text of lines) {
        const record = JSON.parse(text) as Record<string, unknown>;
        if (record.msg === options.ready) found(record);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => failed(new Error(`${args.join(' ')} exited (${code}) before "${options.ready}":\n${output.slice(-3000)}`)));
  });
  return { child, output: () => output, line };
}

/** SIGTERM, and its exit code once it has closed. */
export const stopEntryProcess = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });
