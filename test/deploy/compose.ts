/**
 * docker-compose.yml as an operator runs it: the project's images from `npm run images` (named
 * in .env), `docker compose up -d` with the variables the README asks for, and everything after
 * that through the published ports only. A project of its own (its own name, volumes, ports), so
 * it never touches a deployment already on the machine.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO = join(__dirname, '..', '..');

/** `docker compose` (v2) where the plugin is installed, else Debian's `docker-compose` 1.29. */
async function composeCommand(): Promise<string[]> {
  try {
    await run('docker', ['compose', 'version'], { timeout: 20_000 });
    return ['docker', 'compose'];
  } catch {
    await run('docker-compose', ['version'], { timeout: 20_000 });
    return ['docker-compose'];
  }
}

export interface Deployment {
  project: string;
  apiUrl: string;
  uiUrl: string;
  env: Record<string, string>;
  /** The compose command with this deployment's project and files, as scripts/compose/*.sh take it (COMPOSE). */
  command: string[];
  /** Runs `compose …` in the repository with the deployment's variables; resolves with stdout. */
  compose(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<string>;
  /** The id of a service's container (`compose ps -q`). */
  containerOf(service: string): Promise<string>;
}

/**
 * A deployment's settings: the three variables the README asks for, the ports it is published on,
 * an override file for what stands in for the internet (`override`: compose YAML), and the
 * settings file the api and the workers read (`settings`: NAME=value lines, named by
 * HANGAR_ENV_FILE as docs/operations.md tells an operator to).
 */
export async function deployment(options: { apiPort: number; uiPort: number; override: string; settings?: string }): Promise<Deployment> {
  const [bin, ...pre] = await composeCommand();
  const project = `hangardeploy${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'hangar-deploy-'));
  const overrideFile = join(dir, 'override.yml');
  writeFileSync(overrideFile, options.override);
  const settingsFile = join(dir, 'hangar.env');
  if (options.settings !== undefined) writeFileSync(settingsFile, options.settings, { mode: 0o600 });
  const { stdout: key } = await run('bash', [join(REPO, 'scripts', 'hangar'), 'admin', 'gen-encryption-key'], { cwd: REPO });
  const env: Record<string, string> = {
    POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
    TEMPORAL_DB_PASSWORD: randomBytes(12).toString('hex'),
    HANGAR_ENCRYPTION_KEYS: key.trim(),
    HANGAR_API_PORT: String(options.apiPort),
    TEMPORAL_UI_PORT: String(options.uiPort),
    // The workers' sandbox labels, so what this deployment leaves on the engine is told apart.
    HANGAR_SANDBOX_OWNER_PREFIX: project,
    ...(options.settings !== undefined ? { HANGAR_ENV_FILE: settingsFile } : {}),
  };
  const files = ['-f', join(REPO, 'docker-compose.yml'), '-f', overrideFile];
  const compose = (args: string[], opts: { input?: string; timeoutMs?: number } = {}) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(bin!, [...pre, '-p', project, ...files, ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 0) resolve(stdout);
        else reject(new Error(`compose ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      });
      child.stdin.end(opts.input ?? '');
    });
  return {
    project,
    apiUrl: `http://127.0.0.1:${options.apiPort}`,
    uiUrl: `http://127.0.0.1:${options.uiPort}`,
    env,
    command: [bin!, ...pre, '-p', project, ...files],
    compose,
    containerOf: async (service) => (await compose(['ps', '-q', service])).trim(),
  };
}

/** Runs a command, printing nothing; rejects with its output's tail. */
export async function sh(command: string, args: string[], options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<string> {
  try {
    const { stdout } = await run(command, args, { cwd: REPO, timeout: options.timeoutMs ?? 900_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...options.env } });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${e.message}\n${(e.stdout ?? '').slice(-2000)}\n${(e.stderr ?? '').slice(-2000)}`);
  }
}
