/** Worker processes and the Docker hosts they serve (docs/operations.md, "Several worker hosts"). */
import { hostname } from 'node:os';
import { ConfigError, integer, section, text } from './schema';

/**
 * A host id names a task queue and a bus channel: a short name of letters, digits, dots,
 * dashes and underscores. A machine's host name qualifies; an FQDN is cut at its first dot
 * only when it is too long.
 */
const HOST_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

function machineHostId(): string {
  const name = hostname();
  if (HOST_ID.test(name)) return name;
  const short = name.split('.')[0]!.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63);
  if (!HOST_ID.test(short)) throw new ConfigError(`this machine's host name "${name}" is not a usable host id: set HANGAR_WORKER_HOST_ID`);
  return short;
}

export const workers = section(
  'Worker hosts',
  {
    HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS: integer({
      default: 30,
      min: 0,
      max: 3600,
      description: 'how long a stopping worker lets in-flight activities (provisioning, hooks) finish; agent turns are handed over to the next worker at once',
    }),
    HANGAR_WORKER_HOST_ID: text({
      pattern: HOST_ID,
      expected: '1-63 letters, digits, ".", "-" or "_", starting with a letter or digit',
      shownDefault: "the machine's host name",
      description: 'the worker\'s Docker host ("Several worker hosts"); workers on one engine share it',
    }),
    HANGAR_HOST_MAX_WORKSPACES: integer({
      default: 0,
      min: 0,
      max: 100_000,
      shownDefault: '0 (no limit)',
      description: 'running workspaces and warm-pool entries placement puts on this host',
    }),
    HANGAR_HOST_TIMEOUT_SECONDS: integer({
      default: 300,
      min: 3,
      max: 86_400,
      description: "with several hosts, a host's container work not picked up within this puts its workspace in `error`; a host silent this long gets no new workspace",
    }),
    HANGAR_ENGINE_LOST_SECONDS: integer({
      default: 120,
      min: 5,
      max: 86_400,
      description:
        "a worker whose Docker engine has not answered for this long asks its host's active workspaces to restart, which puts them in `error` while it stays away (their volumes stay on the host)",
    }),
  },
  {},
  (read) => ({
    workerShutdownGraceMs: read.get('HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS') * 1000,
    /**
     * Several worker hosts (docs/operations.md, "Several worker hosts"). `HANGAR_WORKER_HOST_ID`
     * (default the machine's host name): this worker's Docker host, whose own task queue
     * (`{taskQueue}@{hostId}`) carries the work on its containers. Workers on one engine share it.
     */
    workerHostId: read.get('HANGAR_WORKER_HOST_ID') ?? machineHostId(),
    /** `HANGAR_HOST_MAX_WORKSPACES` (default 0: no limit): running workspaces and warm-pool entries placement puts on this host. */
    hostMaxWorkspaces: read.get('HANGAR_HOST_MAX_WORKSPACES') || null,
    /**
     * `HANGAR_HOST_TIMEOUT_SECONDS` (default 300): how long a container activity waits for its
     * host's worker to pick it up before the workspace goes to `error` (the host is taken as
     * lost), and how long a host that stopped heartbeating is still offered new workspaces.
     */
    hostTimeoutMs: read.get('HANGAR_HOST_TIMEOUT_SECONDS') * 1000,
    /**
     * `HANGAR_ENGINE_LOST_SECONDS` (default 120): a Docker engine unreachable this long has its
     * active workspaces asked to restart, which ends them in `error` while it stays away.
     */
    engineLostMs: read.get('HANGAR_ENGINE_LOST_SECONDS') * 1000,
  }),
);
