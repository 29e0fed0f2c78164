/**
 * Runs `temporal server start-dev` as a child process on free ports (tests, `npm start`).
 * In memory unless a database file is given; WAL makes the file-backed mode bearable. Hangar's
 * search attributes are registered at start, as a cluster's operator registers them once.
 *
 * A file-backed server's pid is kept beside its file (`<file>.pid`): a process that started one
 * and was killed outright (kill -9, a crash) leaves it running, holding the file and its ports,
 * and the next start stops it first (`stopStaleDevServer`) rather than run a second server on
 * the same file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { Connection } from '@temporalio/client';
import type { Logger } from '../logger';
import { devServerSearchAttributeArgs } from './searchAttributes';

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
  /** SIGKILL, as a crash: no shutdown at all (the fault suite restarts it on the same file and port). */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const pidFileOf = (dbFile: string) => `${dbFile}.pid`;

/** Whether process `pid` runs and is a Temporal dev server on `dbFile` (not a process that reused its pid). */
function servesFile(pid: number, dbFile: string): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dbFile);
  } catch {
    return false;
  }
}

/**
 * Stops the dev server a killed process left running on `dbFile`, if any: SIGTERM, then SIGKILL
 * after five seconds. Resolves once it is gone.
 */
export async function stopStaleDevServer(dbFile: string, logger: Logger): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFileOf(dbFile), 'utf8').trim());
  } catch {
    return;
  }
  if (Number.isInteger(pid) && pid > 0 && servesFile(pid, dbFile)) {
    logger.warn('stopping the Temporal dev server a killed process left running on this data', { pid, dbFile });
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (servesFile(pid, dbFile)) {
      if (Date.now() > deadline) process.kill(pid, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  rmSync(pidFileOf(dbFile), { force: true });
}

async function waitUntilServing(address: string, child: ChildProcess, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`temporal dev server exited with code ${child.exitCode}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`temporal dev server did not answer on ${address}: ${String(lastError)}`);
}

export async function startTemporalDevServer(options: {
  cliPath: string;
  dbFile?: string;
  port?: number;
  uiPort?: number;
  headless?: boolean;
  logger: Logger;
}): Promise<DevServer> {
  const port = options.port ?? (await freePort());
  const uiPort = options.headless ? null : options.uiPort ?? (await freePort());
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error', ...devServerSearchAttributeArgs()];
  if (uiPort === null) args.push('--headless');
  else args.push('--ui-port', String(uiPort));
  if (options.dbFile) args.push('--db-filename', options.dbFile, '--sqlite-pragma', 'journal_mode=wal');
  if (options.dbFile) await stopStaleDevServer(options.dbFile, options.logger);
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (options.dbFile && child.pid) writeFileSync(pidFileOf(options.dbFile), `${child.pid}\n`);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const address = `127.0.0.1:${port}`;
  try {
    await waitUntilServing(address, child, 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  options.logger.info('temporal dev server started', { address, ui: uiPort ? `http://127.0.0.1:${uiPort}` : null });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    address,
    uiUrl: uiPort ? `http://127.0.0.1:${uiPort}` : null,
    kill: () =>
      new Promise<void>((resolve) => {
        if (exited()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited()) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
