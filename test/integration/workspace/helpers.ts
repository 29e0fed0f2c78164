/**
 * Shared pieces of the workspace integration tests: a real Docker engine, a runtime over the
 * sandbox image, replica ids unique per run (so runs never share containers), a bare git
 * repository on the host, and condition waits.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { createWorkspaceRuntime, type ExecRequest, type WorkspaceRuntime } from '../../../src/sandbox/workspace';

export const docker = createDocker(process.env);
export const SANDBOX_IMAGE = process.env.HANGAR_SANDBOX_IMAGE || 'hangar-sandbox:latest';
/** Small enough for any test machine; the size's own limits are checked on the spec. */
export const TEST_MEMORY_CAP = 2 * 1024 * 1024 * 1024;

export function createTestRuntime(): WorkspaceRuntime {
  return createWorkspaceRuntime(docker, { image: SANDBOX_IMAGE, logger: silentLogger, memoryCapBytes: TEST_MEMORY_CAP });
}

export const newReplicaId = () => randomUUID();

/** Runs a command and collects its stdout lines and stderr. */
export async function run(runtime: WorkspaceRuntime, replicaId: string, argv: string[], extra: Partial<ExecRequest> = {}) {
  const lines: string[] = [];
  let stderr = '';
  const result = await runtime.exec(replicaId, { argv, onStdoutLine: (l) => lines.push(l), onStderr: (c) => (stderr += c), ...extra });
  return { ...result, lines, stdout: lines.join('\n'), stderr };
}

export const sh = (runtime: WorkspaceRuntime, replicaId: string, script: string, extra: Partial<ExecRequest> = {}) =>
  run(runtime, replicaId, ['bash', '-c', script], extra);

/** A bare repository on the host with one commit on `main` (`*.sh` executable), as a `file://` URL. */
export function bareRepository(files: Record<string, string> = { 'README.md': '# demo\n' }): { url: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'hangar-ws-test-'));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, stdio: 'pipe' });
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', 'origin.git');
  git(root, 'init', '--quiet', '--initial-branch=main', 'work');
  const work = join(root, 'work');
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(work, name), content);
    chmodSync(join(work, name), name.endsWith('.sh') ? 0o755 : 0o644);
  }
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'initial commit');
  git(work, 'push', '--quiet', join(root, 'origin.git'), 'main');
  return { url: `file://${join(root, 'origin.git')}`, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export async function volumeExists(name: string): Promise<boolean> {
  try {
    await docker.getVolume(name).inspect();
    return true;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return false;
    throw err;
  }
}

export async function waitFor<T>(what: string, probe: () => T | false | null | undefined | Promise<T | false | null | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
