/** Workspaces: their lifetimes, the API as they reach it, and where their homes live. */
import { DOCKER_HOST_NAME } from '../domain/dockerHost';
import type { WorkspaceVolumeSettings } from '../domain/workspaceVolumes';
import { http } from './http';
import { ConfigError, custom, flag, integer, section, text, url } from './schema';

const DAY = 86_400;
const OPTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A JSON object of strings: a Docker volume driver's options. */
function volumeOptions(raw: string | undefined, name: string): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${name} must be a JSON object of driver options, e.g. {"type":"nfs","o":"addr=10.0.0.5,rw","device":":/exports/hangar/{name}"}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${name} must be a JSON object`);
  for (const [key, value] of Object.entries(parsed)) {
    if (!OPTION_NAME.test(key)) throw new ConfigError(`${name} has an option name Docker would not take: "${key}"`);
    if (typeof value !== 'string') throw new ConfigError(`${name}.${key} must be a string`);
  }
  return parsed as Record<string, string>;
}

export const workspaces = section(
  'Workspaces',
  {
    HANGAR_WORKSPACE_API_URL: url({
      shownDefault: '`HANGAR_PUBLIC_URL`, else `http://host.docker.internal:<PORT>`',
      description:
        "the API as workspace containers reach it: their `HANGAR_API_URL` and their agents' AI gateway. Every worker host's containers must reach it (the API listens on all interfaces; workspaces get `host.docker.internal` mapped to the Docker host's gateway address)",
    }),
    HANGAR_WARM_POOL_SIZE: integer({ default: 5, min: 0, max: 50, description: 'ready workspaces per enabled pool' }),
    HANGAR_AGENT_EXECUTABLE: text({
      description: "replaces every agent CLI (tests: `hangar-test-agent`); unset in production, where the image's real CLIs run",
    }),
    HANGAR_AGENT_IDLE_TIMEOUT_SECONDS: integer({
      default: 900,
      min: 1,
      max: DAY,
      description: 'a turn whose agent prints nothing this long is stopped and fails with an `agent_stalled` error event (a provider stalled mid-answer)',
    }),
    HANGAR_WORKSPACE_MEMORY_CAP_MB: integer({ min: 64, max: 1_048_576, description: "caps a workspace below its size's memory" }),
    HANGAR_WORKSPACE_IDLE_SECONDS: integer({ default: 3600, min: 1, max: 30 * DAY, description: 'inactivity before a workspace sleeps, unless its replica sets its own' }),
    HANGAR_WORKSPACE_ARCHIVE_AFTER_SECONDS: integer({ default: 7 * DAY, min: 1, max: 365 * DAY, description: 'sleep before a workspace is archived' }),
    HANGAR_WORKSPACE_HISTORY_LIMIT: integer({ default: 10_000, min: 50, max: 50_000, description: 'workflow history events before continue-as-new' }),
    HANGAR_WORKSPACE_RECONCILE_SECONDS: integer({
      default: 30,
      min: 1,
      max: 3600,
      description:
        "how often a worker checks that its host's active workspaces have a running container (it also checks at once when the engine reports a workspace container's death or its events stream breaks and comes back)",
    }),
    HANGAR_WORKSPACE_VOLUME_DRIVER: text({
      default: 'local',
      trim: true,
      pattern: /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/,
      expected: 'a Docker volume driver name',
      description: 'the Docker volume driver of workspace homes ("Workspace volumes on shared storage")',
    }),
    HANGAR_WORKSPACE_VOLUME_OPTIONS: custom({
      type: 'JSON',
      accepts: 'a JSON object of strings',
      shownDefault: 'none',
      description: "the volume driver's options; `{name}` in a value is the volume's name. The `local` driver's options must use `{name}` (the device), or every workspace would open the same directory",
      parse: volumeOptions,
    }),
    HANGAR_WORKSPACE_VOLUMES_SHARED: flag({
      default: false,
      yes: ['true'],
      no: ['false'],
      normalize: true,
      description:
        "`true`: every worker host opens the same workspace volumes, so a lost host's workspaces are re-provisioned on another host instead of going to `error`; needs options or a driver other than plain `local`",
    }),
  },
  { PORT: http.variables.PORT, HANGAR_PUBLIC_URL: http.variables.HANGAR_PUBLIC_URL },
  (read) => ({
    /**
     * Hangar's API as a workspace reaches it: its agents' AI gateway and `HANGAR_API_URL` inside
     * it. Defaults to the public URL, else the Docker host at PORT.
     */
    workspaceApiUrl: (read.get('HANGAR_WORKSPACE_API_URL') ?? read.get('HANGAR_PUBLIC_URL') ?? `http://${DOCKER_HOST_NAME}:${read.get('PORT')}`).replace(/\/+$/, ''),
    /** Ready workspaces kept per enabled warm pool (interop §2.12 documents 5). */
    warmPoolSize: read.get('HANGAR_WARM_POOL_SIZE'),
    /** Replaces every coding agent's executable (tests: the image's hangar-test-agent). */
    agentExecutable: read.get('HANGAR_AGENT_EXECUTABLE'),
    /** A turn whose agent prints nothing this long is stopped (a stalled provider). */
    agentIdleTimeoutMs: read.get('HANGAR_AGENT_IDLE_TIMEOUT_SECONDS') * 1000,
    /** Caps a workspace's memory below its size's (small machines). */
    workspaceMemoryCapBytes: mebibytes(read.get('HANGAR_WORKSPACE_MEMORY_CAP_MB')),
    /** Inactivity before an active workspace sleeps, unless the replica sets its own. */
    workspaceIdleMs: read.get('HANGAR_WORKSPACE_IDLE_SECONDS') * 1000,
    /** How long a workspace sleeps before it is archived. */
    workspaceArchiveAfterMs: read.get('HANGAR_WORKSPACE_ARCHIVE_AFTER_SECONDS') * 1000,
    /** Workspace workflows continue as new past this many history events. */
    workspaceHistoryLimit: read.get('HANGAR_WORKSPACE_HISTORY_LIMIT'),
    /**
     * `HANGAR_WORKSPACE_RECONCILE_SECONDS` (default 30): how often a worker checks that its host's
     * active workspaces have a running container (it also checks at once on an engine event).
     */
    workspaceReconcileMs: read.get('HANGAR_WORKSPACE_RECONCILE_SECONDS') * 1000,
    /**
     * `HANGAR_WORKSPACE_VOLUME_DRIVER` (default `local`), `HANGAR_WORKSPACE_VOLUME_OPTIONS` (JSON
     * driver options, `{name}` the volume's name) and `HANGAR_WORKSPACE_VOLUMES_SHARED` (default
     * false): where workspace homes live, and whether every host opens the same storage (then a
     * lost host's workspaces are re-provisioned on another host).
     */
    workspaceVolumes: workspaceVolumes(read.get('HANGAR_WORKSPACE_VOLUME_DRIVER'), read.get('HANGAR_WORKSPACE_VOLUME_OPTIONS'), read.get('HANGAR_WORKSPACE_VOLUMES_SHARED')),
  }),
);

const mebibytes = (mb: number | undefined) => (mb === undefined ? undefined : mb * 1024 * 1024);

function workspaceVolumes(driver: string, options: Record<string, string>, shared: boolean): WorkspaceVolumeSettings {
  const hasOptions = Object.keys(options).length > 0;
  // The local driver names one device for every volume unless `{name}` sets each apart.
  if (driver === 'local' && hasOptions && !Object.values(options).some((v) => v.includes('{name}'))) {
    throw new ConfigError('HANGAR_WORKSPACE_VOLUME_OPTIONS for the local driver must use {name} in an option (the device), or every workspace would open the same directory');
  }
  if (shared && driver === 'local' && !hasOptions) {
    throw new ConfigError(
      'HANGAR_WORKSPACE_VOLUMES_SHARED=true needs storage every host mounts: set HANGAR_WORKSPACE_VOLUME_OPTIONS (or a shared volume driver); a plain local volume lives on one host',
    );
  }
  return { driver, options, shared };
}
