/** The sandboxes hook tests run in, and the image every sandbox and workspace starts from. */
import { hostname } from 'node:os';
import { integer, section, text } from './schema';

export const sandbox = section(
  'Sandboxes',
  {
    HANGAR_SANDBOX_IMAGE: text({
      shownDefault: '`hangar-sandbox:latest` (`npm start`: `hangar.sandboxImage` in package.json)',
      description: 'image for hook sandboxes and workspaces',
    }),
    HANGAR_SANDBOX_POOL_SIZE: integer({ default: 2, min: 0, max: 64, description: 'idle hook-test sandboxes kept ready' }),
    HANGAR_SANDBOX_MEMORY_MB: integer({ default: 1024, min: 64, max: 65536, description: "a hook-test sandbox's memory" }),
    HANGAR_SANDBOX_MILLICPUS: integer({ default: 1000, min: 100, max: 64000, description: "a hook-test sandbox's CPU, in thousandths of a CPU" }),
    HANGAR_SANDBOX_PIDS_LIMIT: integer({ default: 256, min: 16, max: 32768, description: 'processes a hook-test sandbox may run at once' }),
    HANGAR_SANDBOX_NETWORK: text({ default: 'bridge', description: 'the Docker network mode of hook-test sandboxes' }),
    HANGAR_SANDBOX_OWNER: text({
      shownDefault: "the machine's host name",
      description: "labels this worker's sandboxes; it must be unique per live worker on one Docker engine, except among workers that each run in a container of that engine (a scaled compose service)",
    }),
    HANGAR_HOOK_TIMEOUT_MS: integer({ default: 90_000, min: 1000, max: 900_000, description: 'hook deadline' }),
  },
  {},
  (read, defaults) => ({
    sandboxImage: read.get('HANGAR_SANDBOX_IMAGE') || defaults.sandboxImage || 'hangar-sandbox:latest',
    sandboxPoolSize: read.get('HANGAR_SANDBOX_POOL_SIZE'),
    sandboxMemoryBytes: read.get('HANGAR_SANDBOX_MEMORY_MB') * 1024 * 1024,
    sandboxNanoCpus: read.get('HANGAR_SANDBOX_MILLICPUS') * 1_000_000,
    sandboxPidsLimit: read.get('HANGAR_SANDBOX_PIDS_LIMIT'),
    sandboxNetworkMode: read.get('HANGAR_SANDBOX_NETWORK'),
    /** Labels this process's sandboxes; one per live worker sharing a Docker engine. */
    sandboxOwner: read.get('HANGAR_SANDBOX_OWNER') ?? hostname(),
    hookTimeoutMs: read.get('HANGAR_HOOK_TIMEOUT_MS'),
  }),
);
