/**
 * Shared pieces of the sandbox integration tests: a real Docker engine, one owner label per
 * suite so suites never see each other's containers, and condition waits.
 */
import { randomUUID } from 'node:crypto';
import { createDocker, createSandboxRuntime, LABEL_OWNER, LABEL_ROLE, type SandboxOptions, type SandboxRuntime } from '../../../src/sandbox';

export const docker = createDocker(process.env);
export const SANDBOX_IMAGE = process.env.HANGAR_SANDBOX_IMAGE || 'hangar-sandbox:latest';

export function testOwner(suite: string): string {
  return `test-${suite}-${randomUUID().slice(0, 8)}`;
}

export function createTestRuntime(ownerId: string, options: Partial<SandboxOptions> = {}): SandboxRuntime {
  return createSandboxRuntime(docker, { image: SANDBOX_IMAGE, ownerId, ...options });
}

/** Ids of this owner's sandbox containers, running or not. */
export async function containersOf(ownerId: string): Promise<string[]> {
  const found = await docker.listContainers({
    all: true,
    filters: JSON.stringify({ label: [`${LABEL_ROLE}=hook-sandbox`, `${LABEL_OWNER}=${ownerId}`] }),
  });
  return found.map((c) => c.Id);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | false | null | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function containerExists(id: string): Promise<boolean> {
  try {
    await docker.getContainer(id).inspect();
    return true;
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) return false;
    throw err;
  }
}

/** The container a run used: its host name is the short container id. */
export function hostnameIn(output: string): string {
  const match = /^host=([0-9a-f]{12})$/m.exec(output);
  if (!match) throw new Error(`no host= line in output:\n${output}`);
  return match[1]!;
}

export const step = (name: string, script: string) => ({ name, script });
