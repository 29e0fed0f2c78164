/** Runs the real `hangar` command (scripts/hangar) as a child process against the suite's API. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { harness } from '../../support/harness';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let scratch: string | undefined;
/** A data directory of the suite's own, so no .hangar/dev-credentials.json of the checkout is picked up. */
export function scratchDir(): string {
  if (!scratch) {
    const dir = (scratch = mkdtempSync(join(tmpdir(), 'hangar-cli-user-')));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}

export function hangar(args: string[], options: { key?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.HANGAR_URL;
  delete env.HANGAR_API_KEY;
  Object.assign(env, { HANGAR_DATA_DIR: scratchDir(), HANGAR_URL: harness().baseUrl }, options.key ? { HANGAR_API_KEY: options.key } : {}, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn('scripts/hangar', args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Parses stdout as the one JSON document `--json` prints, with the run in the message when it is not. */
export function json(run: Run): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`expected JSON on stdout (exit ${run.code}):\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}
