/**
 * Start hooks in a live workspace: the script goes in on stdin (no argument-size limit), is
 * saved under /tmp/hangar-hooks so error messages name it, and runs with stderr merged into
 * stdout inside the container, so the output keeps the order it was written in.
 */
import { StringDecoder } from 'node:string_decoder';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { SandboxInputError } from '../errors';
import { SANDBOX_HOME } from '../request';
import { runExec } from './exec';
import type { HookRequest, HookResult } from './types';

/** interop §4.12: the stored output is a ~100,000-character preview. */
export const HOOK_OUTPUT_PREVIEW_CHARS = 100_000;
export const HOOKS_DIR = '/tmp/hangar-hooks';

const HOOK_RUNNER = `mkdir -p -m 700 ${HOOKS_DIR} && cat > "$1" || exit 1
exec </dev/null 2>&1
exec bash "$1"`;

export function hookScriptPath(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'hook';
  return `${HOOKS_DIR}/${slug}.sh`;
}

/** Keeps the first `limit` characters and counts them all. */
export class PreviewCollector {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly limit: number) {}

  write(bytes: Buffer): void {
    this.append(this.decoder.write(bytes));
  }

  append(text: string): void {
    if (!text) return;
    this.total += text.length;
    if (this.kept >= this.limit) return;
    const part = text.slice(0, this.limit - this.kept);
    this.kept += part.length;
    this.parts.push(part);
  }

  finish(): string {
    this.append(this.decoder.end());
    return this.parts.join('');
  }
}

export async function runWorkspaceHook(container: Docker.Container, req: HookRequest, log: Logger): Promise<HookResult> {
  if (typeof req.script !== 'string' || req.script.includes('\0')) {
    throw new SandboxInputError('A hook needs a script string without NUL', 'script');
  }
  if (!Number.isInteger(req.timeoutMs) || req.timeoutMs <= 0) throw new SandboxInputError('timeoutMs must be a positive integer', 'timeoutMs');
  const output = new PreviewCollector(HOOK_OUTPUT_PREVIEW_CHARS);
  // A decoder of its own: a live listener gets whole characters, past the preview's limit too.
  const live = req.onOutput ? new StringDecoder('utf8') : null;
  const onChunk = (chunk: Buffer) => {
    output.write(chunk);
    if (live) req.onOutput!(live.write(chunk));
  };
  const startedAt = Date.now();
  const result = await runExec(
    container,
    {
      argv: ['bash', '-c', HOOK_RUNNER, 'hangar-hook', hookScriptPath(String(req.name ?? 'hook'))],
      env: req.env,
      cwd: req.cwd ?? SANDBOX_HOME,
      stdin: req.script,
      onStdout: onChunk,
      onStderr: onChunk,
      timeoutMs: req.timeoutMs,
    },
    log,
  );
  if (live) req.onOutput!(live.end());
  let text = output.finish();
  if (result.timedOut) {
    const notice = `${text && !text.endsWith('\n') ? '\n' : ''}[hangar] timed out after ${req.timeoutMs / 1000} s; the hook was killed\n`;
    output.append(notice);
    text = output.finish();
  }
  log.info('workspace hook finished', { hook: req.name, exitCode: result.exitCode, timedOut: result.timedOut, durationMs: Date.now() - startedAt });
  return { exitCode: result.exitCode, output: text, outputTotalChars: output.total, timedOut: result.timedOut };
}
