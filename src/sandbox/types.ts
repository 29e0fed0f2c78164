/**
 * The sandbox runtime's public contract. Kept apart from `index.ts` so the implementation
 * files can share these types without importing the barrel.
 */
import type Docker from 'dockerode';
import type { Logger } from '../logger';

export type { Docker };

/** One script in the chain; `name` is what the output header and `onStep` report. */
export interface HookStep {
  name: string;
  script: string;
}

/** A file written into the sandbox before the chain runs; `path` is `~/...`. */
export interface SandboxFile {
  path: string;
  content: string;
}

export interface StepEvent {
  step: string;
  state: 'started' | 'finished';
  exitCode?: number;
}

export interface HookRunRequest {
  steps: HookStep[];
  env: Record<string, string>;
  files: SandboxFile[];
  /** Hard deadline for the whole run, claim included. Default 90 s. */
  timeoutMs?: number;
  /** Cap on the collected output in bytes. Default 1 MiB. */
  outputLimitBytes?: number;
  /** Live output in arrival order, already capped (the truncation marker included). */
  onOutput?: (chunk: string) => void;
  onStep?: (e: StepEvent) => void;
  /** Cancels the run: the container is removed and the promise rejects with the reason. */
  signal?: AbortSignal;
}

export interface HookRunResult {
  exitCode: number;
  output: string;
  timedOut: boolean;
}

export interface SandboxRuntime {
  runHooks(req: HookRunRequest): Promise<HookRunResult>;
  /** Resolves when the Docker engine answers (for readiness probes). */
  ping(): Promise<void>;
  /**
   * Resolves once the pool holds `poolSize` ready containers and every used container is
   * removed; rejects with the reason the pool cannot be filled (a missing image, say).
   */
  warm(): Promise<void>;
  /** Stops refilling, removes idle containers and waits for pending removals. */
  close(): Promise<void>;
}

export interface SandboxOptions {
  image: string;
  /** Pre-started idle containers; 0 creates one per run. Default 2. */
  poolSize?: number;
  /** Default 1 GiB; swap is disabled by setting MemorySwap to the same value. */
  memoryBytes?: number;
  /** Default 1e9 (one CPU). */
  nanoCpus?: number;
  /** Default 256. */
  pidsLimit?: number;
  /** Docker network mode. Default 'bridge'; 'none' disables networking. */
  networkMode?: string;
  /** Idle pool containers older than this are discarded instead of claimed. Default 3 min. */
  maxIdleMs?: number;
  logger?: Logger;
  /**
   * Identifies this process's containers (label `dev.hangar.owner`). Containers of the same
   * owner found at start are leftovers of a crashed predecessor and are removed, so every
   * live process sharing an engine needs its own owner id, unless it runs in a container of
   * that engine (`container`). Default: the host name.
   */
  ownerId?: string;
  /**
   * The process's own container when it runs in one on this engine (a compose worker): its
   * sandboxes carry its id, and a process of the same owner leaves the sandboxes of a sibling
   * container that still runs alone (`docker compose up --scale worker=2`).
   */
  container?: string | null;
}
