/**
 * Where the Node side finds the machine's tools. Mirrors scripts/setup.sh: the versions and the
 * default sandbox image name live only in package.json's "hangar" block.
 * Node built-ins only; every function takes the environment as a parameter.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { packageRoot } from './packageRoot';

interface HangarBlock {
  temporalCliVersion: string;
  sandboxImage: string;
}

let cachedBlock: HangarBlock | undefined;

function hangarBlock(): HangarBlock {
  if (!cachedBlock) {
    const file = join(packageRoot(), 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { hangar?: Partial<HangarBlock> };
    const block = pkg.hangar;
    if (!block || typeof block.temporalCliVersion !== 'string' || typeof block.sandboxImage !== 'string') {
      throw new Error(`${file}: "hangar" must set temporalCliVersion and sandboxImage`);
    }
    cachedBlock = { temporalCliVersion: block.temporalCliVersion, sandboxImage: block.sandboxImage };
  }
  return cachedBlock;
}

/** The pinned Temporal CLI release, e.g. "v1.5.1". */
export function temporalCliVersion(): string {
  return hangarBlock().temporalCliVersion;
}

/** `HANGAR_CACHE_DIR`, else `$HOME/.cache/hangar`. */
export function hangarCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HANGAR_CACHE_DIR || join(env.HOME || homedir(), '.cache', 'hangar');
}

/** Where setup.sh installs the pinned CLI: `<cache dir>/temporal-<version>/temporal`. */
export function temporalCliCachePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(hangarCacheDir(env), `temporal-${temporalCliVersion()}`, 'temporal');
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Temporal CLI to run `temporal server start-dev` with, in setup.sh's order:
 * `TEMPORAL_CLI_PATH` (when it is an executable file), `temporal` on `PATH`, the cache path.
 * Undefined when there is none (the SDK's own dev-server download is then the fallback).
 */
export function resolveTemporalCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TEMPORAL_CLI_PATH && isExecutableFile(env.TEMPORAL_CLI_PATH)) return env.TEMPORAL_CLI_PATH;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, 'temporal');
    if (isExecutableFile(candidate)) return candidate;
  }
  const cached = temporalCliCachePath(env);
  return isExecutableFile(cached) ? cached : undefined;
}

/** `HANGAR_SANDBOX_IMAGE`, else package.json's hangar.sandboxImage. */
export function defaultSandboxImage(env: NodeJS.ProcessEnv = process.env): string {
  return env.HANGAR_SANDBOX_IMAGE || hangarBlock().sandboxImage;
}
