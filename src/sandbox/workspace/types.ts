/**
 * The workspace runtime's public contract: one long-lived container per replica with its home
 * on a volume, and the ways the worker reaches into it.
 */
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import type { WorkspaceNetworks } from '../network/networks';
import type { WorkspaceVolumeSettings } from '../../domain/workspaceVolumes';

export type WorkspaceSize = 'small' | 'large';
export type WorkspaceState = 'running' | 'stopped' | 'missing';

export interface WorkspaceSpec {
  replicaId: string;
  size: WorkspaceSize;
  /** The container's environment, fixed at create (the environment's resolved variables). */
  env: Record<string, string>;
  labels?: Record<string, string>;
  /** The owning organization: with network isolation, the workspace joins its network. */
  organizationId?: string;
}

export interface WorkspaceFile {
  /** `~/...`, strictly below the home directory. */
  path: string;
  content: string;
  /** Default 0o600. */
  mode?: number;
}

export interface RepositoryCheckout {
  /** The folder name under ~/workspaces. */
  name: string;
  url: string;
  branch: string;
}

export interface ExecRequest {
  argv: string[];
  env?: Record<string, string>;
  /** Default the home directory. */
  cwd?: string;
  stdin?: string;
  /** Each stdout line without its newline, in order (JSON-lines agents). */
  onStdoutLine?: (line: string) => void;
  /** Stdout as the bytes arrive, for a reader that counts them (a supervised turn's output). */
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: string) => void;
  /** Aborting kills the command's session in the container and rejects with the reason. */
  signal?: AbortSignal;
  /** Past it the command's session is killed; the result says `timedOut` (exit code 124). */
  timeoutMs?: number;
  /** The command's process session in the container, once it runs (see `killSession`). */
  onSession?: (sessionId: number) => void;
}

export interface ExecResult {
  exitCode: number;
  timedOut: boolean;
}

export interface HookRequest {
  name: string;
  script: string;
  timeoutMs: number;
  env?: Record<string, string>;
  /** Default the home directory (a repository's start hook runs in its checkout). */
  cwd?: string;
  /** Receives the output as it is written (decoded text, stdout and stderr interleaved). */
  onOutput?: (text: string) => void;
}

export interface HookResult {
  exitCode: number;
  /** stdout and stderr interleaved, the first HOOK_OUTPUT_PREVIEW_CHARS characters. */
  output: string;
  outputTotalChars: number;
  timedOut: boolean;
}

export interface TtyOptions {
  cols: number;
  rows: number;
  env?: Record<string, string>;
}

export interface TtySession {
  write(data: string): void;
  resize(cols: number, rows: number): Promise<void>;
  /** Output as it arrives; output before the first callback is registered is kept for it. */
  onData(cb: (chunk: string) => void): void;
  /** Called once with the shell's exit code (null when it could not be read). */
  onExit(cb: (code: number | null) => void): void;
  /** Kills the shell and everything it started; resolves once the exec has ended. */
  close(): Promise<void>;
}

export interface WorkspaceRuntime {
  ensure(spec: WorkspaceSpec): Promise<{ created: boolean }>;
  writeFiles(replicaId: string, files: WorkspaceFile[]): Promise<void>;
  checkout(replicaId: string, repo: RepositoryCheckout): Promise<{ path: string; created: boolean }>;
  exec(replicaId: string, req: ExecRequest): Promise<ExecResult>;
  /** Kills an exec's whole session, e.g. one whose caller was lost; an ended one is fine. */
  killSession(replicaId: string, sessionId: number): Promise<void>;
  /**
   * Puts a file of the runtime's image into the container, at the same path: a container made
   * from an older image gets a program the worker now relies on (the turn supervisor).
   */
  copyFromImage(replicaId: string, path: string): Promise<void>;
  runHook(replicaId: string, req: HookRequest): Promise<HookResult>;
  stop(replicaId: string): Promise<void>;
  /** With the organization (network isolation), a container on another network moves onto its organization's first. */
  start(replicaId: string, organizationId?: string): Promise<void>;
  /** Removes the container and its home volume; missing ones are fine. */
  remove(replicaId: string): Promise<void>;
  /**
   * Removes the container only, leaving its home volume and data: a container left on this host
   * by a workspace that now runs on another host over the same shared volume.
   */
  removeContainer(replicaId: string): Promise<void>;
  state(replicaId: string): Promise<WorkspaceState>;
  /**
   * When the running container last started (Docker's StartedAt), or null when it is not
   * running: a different answer later means it stopped in between.
   */
  runningSince(replicaId: string): Promise<string | null>;
  openTty(replicaId: string, opts: TtyOptions): Promise<TtySession>;
  /** The running container's IP on its Docker network (what previews forward to); null when it is not running. */
  address(replicaId: string): Promise<string | null>;
}

export interface WorkspaceRuntimeOptions {
  image: string;
  logger: Logger;
  /** Docker network mode. Default 'bridge'; 'none' disables networking; never 'host'. */
  networkMode?: string;
  /**
   * Per-organization networks (network isolation): each workspace joins its organization's
   * network instead of `networkMode`, and an organization's network goes with its last workspace.
   */
  networks?: WorkspaceNetworks;
  /** Caps every size's memory (small machines); sizes below it keep their own. */
  memoryCapBytes?: number;
  /** The git identity set for `hangar` when a repository is checked out (if none is set). */
  gitIdentity?: { name: string; email: string };
  /** How long a host-side `git clone` may take. Default 10 min. */
  cloneTimeoutMs?: number;
  /** Where home volumes live (`HANGAR_WORKSPACE_VOLUME_*`). Default a local volume. */
  volumes?: WorkspaceVolumeSettings;
}

export type { Docker };
