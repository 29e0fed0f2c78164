/**
 * Checks a hook run request before any container is touched, so bad input is a 400 and
 * never a half-prepared sandbox.
 */
import { posix } from 'node:path';
import { SandboxInputError } from './errors';
import type { HookRunRequest, HookStep } from './types';

export const SANDBOX_HOME = '/home/hangar';

export interface PreparedFile {
  /** Absolute path inside the sandbox, always below SANDBOX_HOME. */
  path: string;
  content: string;
}

export interface PreparedRequest {
  steps: HookStep[];
  env: string[];
  files: PreparedFile[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_PATH_BYTES = 4096;
const MAX_SEGMENT_BYTES = 255;

/**
 * `~/a/b` (or `/home/hangar/a/b`) → `/home/hangar/a/b`. Rejects anything that is not
 * strictly below the home directory: `..` segments, other roots, the home itself.
 */
export function resolveSandboxPath(input: string): string {
  const fail = (rule: string): never => {
    throw new SandboxInputError(`File path ${JSON.stringify(input)} ${rule}`, 'files.path');
  };
  if (typeof input !== 'string' || input.length === 0) fail('must be a non-empty string');
  if (input.includes('\0')) fail('must not contain NUL');
  if (Buffer.byteLength(input) > MAX_PATH_BYTES) fail(`must be at most ${MAX_PATH_BYTES} bytes`);

  let rest: string;
  if (input.startsWith('~/')) rest = input.slice(2);
  else if (input.startsWith(`${SANDBOX_HOME}/`)) rest = input.slice(SANDBOX_HOME.length + 1);
  else return fail('must start with ~/');

  const segments = rest.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) fail("must not contain '..'");
  if (segments.length === 0) fail('must name a file below ~');
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) fail('has a name longer than 255 bytes');

  const resolved = posix.join(SANDBOX_HOME, ...segments);
  if (!resolved.startsWith(`${SANDBOX_HOME}/`)) fail('must resolve below ~');
  return resolved;
}

/** Later entries for the same path win; a path that is both a file and a directory is refused. */
function prepareFiles(files: HookRunRequest['files']): PreparedFile[] {
  const byPath = new Map<string, string>();
  for (const file of files) {
    if (typeof file?.content !== 'string') {
      throw new SandboxInputError(`File ${JSON.stringify(file?.path)} needs string content`, 'files.content');
    }
    const path = resolveSandboxPath(file.path);
    byPath.delete(path);
    byPath.set(path, file.content);
  }
  for (const path of byPath.keys()) {
    for (let dir = posix.dirname(path); dir !== SANDBOX_HOME; dir = posix.dirname(dir)) {
      if (byPath.has(dir)) {
        throw new SandboxInputError(`File path ${dir} is also a directory of ${path}`, 'files.path');
      }
    }
  }
  return [...byPath].map(([path, content]) => ({ path, content }));
}

/** Defaults first, then the environment's variables, then what the sandbox guarantees. */
function prepareEnv(env: Record<string, string>): string[] {
  const merged: Record<string, string> = {
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    LANG: 'C.UTF-8',
    SHELL: '/bin/bash',
  };
  for (const [name, value] of Object.entries(env)) {
    if (!ENV_NAME.test(name)) {
      throw new SandboxInputError(`Variable name ${JSON.stringify(name)} is not a valid shell name`, 'env');
    }
    if (typeof value !== 'string' || value.includes('\0')) {
      throw new SandboxInputError(`Variable ${name} must be a string without NUL`, 'env');
    }
    merged[name] = value;
  }
  Object.assign(merged, { HOME: SANDBOX_HOME, USER: 'hangar', LOGNAME: 'hangar' });
  return Object.entries(merged).map(([name, value]) => `${name}=${value}`);
}

function prepareSteps(steps: HookStep[]): HookStep[] {
  return steps.map((step, i) => {
    if (typeof step?.script !== 'string' || step.script.includes('\0')) {
      throw new SandboxInputError(`Hook step ${i} needs a script string without NUL`, 'steps.script');
    }
    // The name lands in a header line of the output; keep it to one printable line.
    const name = String(step.name ?? `step ${i + 1}`).replace(/[^\x20-\x7e]/g, '?').slice(0, 100);
    return { name, script: step.script };
  });
}

function checkPositive(field: 'timeoutMs' | 'outputLimitBytes', value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new SandboxInputError(`${field} must be a positive integer`, field);
  }
}

export function prepareRequest(req: HookRunRequest): PreparedRequest {
  if (!Array.isArray(req.steps)) throw new SandboxInputError('steps must be an array', 'steps');
  checkPositive('timeoutMs', req.timeoutMs);
  checkPositive('outputLimitBytes', req.outputLimitBytes);
  return {
    steps: prepareSteps(req.steps),
    env: prepareEnv(req.env ?? {}),
    files: prepareFiles(req.files ?? []),
  };
}
