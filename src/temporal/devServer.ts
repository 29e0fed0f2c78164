/**
 * Runs `temporal server start-dev` as a child process on free ports (tests, `npm start`).
 * In memory unless a database file is given; WAL makes the file-backed mode bearable. Hangar's
 * search attributes are registered at start, as a cluster's operator registers them once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
  const child = spawn(options.cliPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
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
