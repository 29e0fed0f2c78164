/**
 * Runs the real workspace workflow (the worker's own bundle of `workflows/index.ts`) on a local
 * Temporal dev server with fake activities: plain functions that record each call (name,
 * arguments, the task queue it was picked up from, the attempt) and answer from a small script
 * of queued messages. No Docker, no database.
 *
 * Workers are laid out as in production (src/temporal/taskQueueWorkers.ts): one on the shared
 * queue with the workflows and every activity, and one per worker host on `{queue}@{hostId}` with the
 * host's container activities (`onHost` in activities/index.ts). A host is "lost" by shutting its worker
 * down: its container work then times out schedule-to-start, which is how the workflow finds a
 * lost host.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type LogEntry, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { workflowBundle } from '../../../src/temporal/taskQueueWorkers';
import { resolveTemporalCli } from '../../../src/toolchain';
import { until as pollUntil } from '../../support/wait';
import { writeHistory } from '../../support/histories';
import type { workspaceWorkflow } from '../../../workflows/workspace';
import {
  hostTaskQueue,
  RUN_SIGNALS,
  WORKSPACE_QUERIES,
  WORKSPACE_SIGNALS,
  workspaceWorkflowId,
  type HostPlacement,
  type LifecycleRequest,
  type RunOutcome,
  type RunReportTarget,
  type TurnResult,
  type WorkspaceInput,
  type WorkspaceState,
  type WorkspaceStatus,
} from '../../../workflows/shared';
import type { HeardSignal, signalListener } from './listener';

// --- Waiting ---------------------------------------------------------------------------------

/**
 * Polls `fn` until it answers a value (not undefined or false), failing after `timeoutMs` with
 * what was awaited and, when given, what was last seen. Errors count as "not yet".
 */
export function until<T>(what: string, fn: () => Promise<T | undefined | false>, options: { timeoutMs?: number; seen?: () => unknown } = {}): Promise<T> {
  return pollUntil(what, fn, options.timeoutMs ?? 60_000, 100, options.seen);
}

// --- The server ------------------------------------------------------------------------------

/** What the SDK logged (workflow `log` calls included): printed when a test fails. */
export const sdkLogs: LogEntry[] = [];

/**
 * The SDK's logs go to `sdkLogs` instead of the console. The Runtime is installed once per
 * process: under `npm test` the integration harness has installed its own first, and its logger
 * is kept.
 */
function installQuietRuntime(): void {
  try {
    Runtime.install({
      logger: new DefaultLogger('INFO', (entry) => void sdkLogs.push(entry)),
      telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
    });
  } catch {
    // already installed in this process
  }
}

/** The dev server of the CLI that setup.sh found or built (`resolveTemporalCli`, as the integration harness does). */
export async function startServer(): Promise<TestWorkflowEnvironment> {
  const path = resolveTemporalCli();
  if (!path) throw new Error('no Temporal CLI found: run `npm run setup` first (it records one in .hangar/toolchain.json)');
  installQuietRuntime();
  return TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path }, ip: '127.0.0.1', log: { format: 'json', level: 'error' } } });
}

let listenerBundlePromise: Promise<WorkflowBundleWithSourceMap> | undefined;
function listenerBundle(): Promise<WorkflowBundleWithSourceMap> {
  listenerBundlePromise ??= bundleWorkflowCode({ workflowsPath: require.resolve('./listener.ts'), logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
  return listenerBundlePromise;
}

/**
 * `HANGAR_WORKFLOW_COVERAGE=1` (test/workflows/COVERAGE.md): the same bundle, written to a file
 * so that c8 finds the code V8 counted and its source map, and run on the main thread (debug
 * mode) so that the process's coverage holds the workflow code.
 */
const COVERAGE = !!process.env.HANGAR_WORKFLOW_COVERAGE;
let coverageBundlePath: Promise<{ codePath: string }> | undefined;
function coverageBundle(): Promise<{ codePath: string }> {
  coverageBundlePath ??= (async () => {
    const dir = join(tmpdir(), 'hangar-workflow-coverage');
    mkdirSync(dir, { recursive: true });
    const codePath = join(dir, `workflow-bundle-${process.pid}.js`);
    writeFileSync(codePath, (await workflowBundle()).code);
    return { codePath };
  })();
  return coverageBundlePath;
}

// --- The fake activities ---------------------------------------------------------------------

export interface Call {
  name: string;
  args: any;
  /** The task queue the activity was picked up from: the shared queue or a host's. */
  taskQueue: string;
  attempt: number;
}

/** One queued message of a chat and how its turn goes. */
export interface ScriptedTurn {
  id: string;
  /** `ok` (default); `agent-failed`: the turn ran and the agent failed; `throws`: the activity fails for good. */
  outcome?: 'ok' | 'agent-failed' | 'throws';
  /** The turn's first this many attempts hand it over (their worker stops) after the gate; the next one ends it. */
  handedOver?: number;
  /** Set: the turn holds (heartbeating) until `release()` is called. */
  gate?: Gate;
  /** Not a message: the activity answers that the container is down (`containerDown`), then this entry is gone. */
  containerDown?: boolean;
  /**
   * Not a message: the turn activity throws before it claims one, this many times (then this
   * entry is gone and the chat's next message is claimed as usual).
   */
  failsBeforeClaim?: number;
}

/** A held turn: it ends once `release()` is called. */
export interface Gate {
  readonly opened: Promise<void>;
  release(): void;
}

export function gate(): Gate {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  return { opened, release: () => release() };
}

type BringUpResult = { ok: boolean; error?: string; warmPoolEnvironmentId?: string };

function answer<T>(result: T | Error): T {
  if (result instanceof Error) throw result;
  return result;
}

/**
 * The world the activities see: queued messages per chat, the placements placement answers,
 * what provisioning answers. Every call is recorded in `calls`.
 */
export class FakeWorld {
  readonly calls: Call[] = [];
  /** The turns that ran to an end (`runAgentTurn` answered one), with the queue each ran on. */
  readonly turnsRun: Array<{ chatId: string; messageId: string; taskQueue: string }> = [];
  /** Queued messages per chat, the head first; a turn's message leaves when its turn ends. */
  readonly chats = new Map<string, ScriptedTurn[]>();
  /** Messages whose turn has started and not ended, by chat. */
  readonly claimed = new Map<string, string>();
  /** What `placeWorkspace` answers (or throws), then what each `replaceWorkspace` answers in turn. */
  placement: HostPlacement | null | Error = null;
  replacements: Array<HostPlacement | null | Error> = [];
  /** What bringing a container up answers, or throws (an error the activity gave up on). */
  provisionResult: BringUpResult | Error = { ok: true };
  startResult: BringUpResult | Error = { ok: true };
  reprovisionResult: BringUpResult | Error = { ok: true };
  /** Set: `failRunningTurn` throws it (the record of a failed turn could not be written). */
  failRunningTurnError: Error | null = null;
  /** Set: webhook deliveries and thread relays throw it. */
  deliveryError: Error | null = null;
  /** What happened, in order: each activity call's name, and `ended {messageId}` when a turn ends. */
  readonly timeline: string[] = [];

  constructor(readonly taskQueue: string) {}

  /** Every gate a queued turn holds on, released or not (teardown releases them all). */
  private readonly gates: Gate[] = [];

  queue(chatId: string, ...turns: ScriptedTurn[]): void {
    for (const turn of turns) if (turn.gate) this.gates.push(turn.gate);
    this.chats.set(chatId, [...(this.chats.get(chatId) ?? []), ...turns]);
  }

  /** A placement on host `hostId` of this test's queue. */
  host(hostId: string, options: { scheduleToStartMs?: number | null; sharedVolumes?: boolean } = {}): HostPlacement {
    return { hostId, taskQueue: hostTaskQueue(this.taskQueue, hostId), scheduleToStartMs: options.scheduleToStartMs ?? null, ...(options.sharedVolumes ? { sharedVolumes: true } : {}) };
  }

  callsTo(name: string): Call[] {
    return this.calls.filter((c) => c.name === name);
  }

  /** The statuses the workflow wrote, in order. */
  statuses(): Array<{ status: WorkspaceStatus; error?: string }> {
    return this.callsTo('setReplicaStatus').map((c) => ({ status: c.args.status, ...(c.args.error ? { error: c.args.error } : {}) }));
  }

  /** Webhook events sent, in the order the activity received them. */
  webhookEvents(): Array<{ event: string; payload: any }> {
    return this.callsTo('deliverReplicaWebhook').map((c) => ({ event: c.args.event, payload: c.args.payload }));
  }

  private record(name: string, args: unknown): Call {
    const info = Context.current().info;
    const call = { name, args, taskQueue: info.taskQueue, attempt: info.attempt };
    this.calls.push(call);
    this.timeline.push(name);
    return call;
  }

  /** Every activity the workspace workflow calls, under its registered name. */
  activities() {
    return {
      // --- placement (shared queue) ---
      placeWorkspace: async (args: { replicaId: string }): Promise<HostPlacement | null> => {
        this.record('placeWorkspace', args);
        if (this.placement instanceof Error) throw this.placement;
        return this.placement;
      },
      replaceWorkspace: async (args: { replicaId: string; lostHostId: string }): Promise<HostPlacement | null> => {
        this.record('replaceWorkspace', args);
        return answer(this.replacements.shift() ?? null);
      },
      // --- records (shared queue) ---
      setReplicaStatus: async (args: { replicaId: string; status: WorkspaceStatus; error?: string }): Promise<void> => {
        this.record('setReplicaStatus', args);
      },
      failRunningTurn: async (args: { replicaId: string; chatId: string; error: string }): Promise<{ messageId: string | null }> => {
        this.record('failRunningTurn', args);
        if (this.failRunningTurnError) throw this.failRunningTurnError;
        const messageId = this.claimed.get(args.chatId) ?? null;
        if (messageId) this.endTurn(args.chatId, messageId);
        return { messageId };
      },
      interruptRunningTurns: async (args: { replicaId: string; error: string }): Promise<Array<{ chatId: string; messageId: string }>> => {
        this.record('interruptRunningTurns', args);
        const cut = [...this.claimed].map(([chatId, messageId]) => ({ chatId, messageId }));
        for (const { chatId, messageId } of cut) this.endTurn(chatId, messageId);
        return cut;
      },
      deleteReplica: async (args: { replicaId: string }): Promise<void> => {
        this.record('deleteReplica', args);
      },
      deliverReplicaWebhook: async (args: { replicaId: string; event: string; deliveryId: string; occurredAt: string; payload: unknown }): Promise<void> => {
        this.record('deliverReplicaWebhook', args);
        if (this.deliveryError) throw this.deliveryError;
      },
      relayTurn: async (args: { replicaId: string; chatId: string; messageId: string }): Promise<number> => {
        this.record('relayTurn', args);
        if (this.deliveryError) throw this.deliveryError;
        return 1;
      },
      // --- container work (the host's queue) ---
      provisionWorkspace: async (args: { replicaId: string }): Promise<BringUpResult> => {
        this.record('provisionWorkspace', args);
        return answer(this.provisionResult);
      },
      reprovisionWorkspace: async (args: { replicaId: string }): Promise<BringUpResult> => {
        this.record('reprovisionWorkspace', args);
        return answer(this.reprovisionResult);
      },
      startWorkspace: async (args: { replicaId: string }): Promise<BringUpResult> => {
        this.record('startWorkspace', args);
        return answer(this.startResult);
      },
      stopWorkspace: async (args: { replicaId: string }): Promise<void> => {
        this.record('stopWorkspace', args);
      },
      removeWorkspace: async (args: { replicaId: string }): Promise<void> => {
        this.record('removeWorkspace', args);
      },
      runNextTurn: (args: { replicaId: string; chatId: string }) => this.turn('runNextTurn', args),
      runAgentTurn: (args: { replicaId: string; chatId: string }) => this.turn('runAgentTurn', args),
    };
  }

  /**
   * A turn, as `runAgentTurn` (or `runNextTurn`, the name of histories from before the
   * supervisor) answers it. Failures that end the activity for good are non-retryable here, as
   * a real turn's attempts would all fail the same way; a hand-over is retryable, as the real one is.
   */
  private async turn(name: string, args: { replicaId: string; chatId: string }): Promise<TurnResult> {
    const call = this.record(name, args);
    const head = this.chats.get(args.chatId)?.[0];
    if (!head) return { ran: false };
    if (head.failsBeforeClaim) {
      if (--head.failsBeforeClaim === 0) this.chats.get(args.chatId)!.shift();
      throw ApplicationFailure.create({ message: 'the turn could not start', type: 'TurnStartFailed', nonRetryable: true });
    }
    if (head.containerDown) {
      this.chats.get(args.chatId)!.shift();
      return { ran: false, containerDown: true };
    }
    this.claimed.set(args.chatId, head.id);
    if (head.gate) {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), 1000);
      try {
        await head.gate.opened;
      } finally {
        clearInterval(beat);
      }
    }
    if (head.outcome === 'throws') throw ApplicationFailure.create({ message: `the agent process crashed on ${head.id}`, type: 'AgentCrashed', nonRetryable: true });
    if (head.handedOver) {
      head.handedOver--;
      throw ApplicationFailure.create({ message: `the turn is handed over to the next attempt: the worker is stopping (${head.id})`, type: 'TurnHandedOver' });
    }
    this.endTurn(args.chatId, head.id);
    this.turnsRun.push({ chatId: args.chatId, messageId: head.id, taskQueue: call.taskQueue });
    return head.outcome === 'agent-failed'
      ? { ran: true, messageId: head.id, ok: false, error: `the agent gave up on ${head.id}` }
      : { ran: true, messageId: head.id, ok: true, error: null };
  }

  /**
   * What a host's worker registers on its own queue. The worker registers whole groups there
   * (`onHost`: workspace, agent turns, warm pool, canvas); the fakes are one set, so all of them:
   * the workflow sends only container work to a host's queue.
   */
  hostActivities() {
    return this.activities();
  }

  private endTurn(chatId: string, messageId: string): void {
    this.timeline.push(`ended ${messageId}`);
    this.claimed.delete(chatId);
    const queue = this.chats.get(chatId) ?? [];
    const at = queue.findIndex((t) => t.id === messageId);
    if (at >= 0) queue.splice(at, 1);
  }

  /** Releases every held turn (teardown: a worker waits for its activities to end). */
  releaseAll(): void {
    for (const held of this.gates) held.release();
  }
}

// --- One test's workers and workflows --------------------------------------------------------

interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped; rejects with what stopped it otherwise. */
  done: Promise<void>;
}

/**
 * One test's task queue, its workers (the shared one and one per host), its fake world and
 * what it started. `close()` stops everything.
 */
export class WorkspaceTest {
  readonly taskQueue = `wf-test-${randomBytes(4).toString('hex')}`;
  readonly replicaId = `replica-${randomBytes(4).toString('hex')}`;
  readonly world = new FakeWorld(this.taskQueue);
  private readonly workers = new Map<string, RunningWorker>();
  /** Workers told to stop whose activities are left hanging (`loseHost`): awaited at close. */
  private readonly stopping: RunningWorker[] = [];
  private readonly started: WorkflowHandle[] = [];
  /** The workspace workflows started, with the run each began as. */
  private readonly workspaces: Array<{ workflowId: string; firstRunId: string }> = [];

  constructor(private readonly env: TestWorkflowEnvironment) {}

  get client(): Client {
    return this.env.client;
  }

  /** The shared queue's worker: the workflows (the worker's own bundle) and every activity. */
  async startSharedWorker(): Promise<void> {
    await this.run(
      'shared',
      await Worker.create({
        connection: this.env.nativeConnection,
        namespace: this.env.namespace,
        taskQueue: this.taskQueue,
        ...(COVERAGE ? { workflowBundle: await coverageBundle(), debugMode: true } : { workflowBundle: await workflowBundle() }),
        activities: this.world.activities(),
      }),
    );
  }

  /** Host `hostId`'s worker on `{queue}@{hostId}`: the container activities only. */
  async startHostWorker(hostId: string): Promise<void> {
    await this.run(
      `host:${hostId}`,
      await Worker.create({ connection: this.env.nativeConnection, namespace: this.env.namespace, taskQueue: hostTaskQueue(this.taskQueue, hostId), activities: this.world.hostActivities() }),
    );
  }

  async stopSharedWorker(): Promise<void> {
    await this.stop('shared');
  }

  async stopHostWorker(hostId: string): Promise<void> {
    await this.stop(`host:${hostId}`);
  }

  /**
   * Host `hostId` dies: its worker stops polling at once, and the activities it had picked up
   * are left as they are (a held turn stays held) until the test ends.
   */
  async loseHost(hostId: string): Promise<void> {
    const name = `host:${hostId}`;
    const running = this.workers.get(name);
    if (!running) throw new Error(`worker ${name} is not running`);
    this.workers.delete(name);
    this.stopping.push(running);
    running.worker.shutdown();
    await until(`worker ${name} to stop polling`, async () => running.worker.getState() !== 'RUNNING');
  }

  private async run(name: string, worker: Worker): Promise<void> {
    if (this.workers.has(name)) throw new Error(`worker ${name} is already running`);
    const done = worker.run();
    done.catch(() => undefined); // surfaced by stop()
    this.workers.set(name, { worker, done });
  }

  private async stop(name: string): Promise<void> {
    const running = this.workers.get(name);
    if (!running) throw new Error(`worker ${name} is not running`);
    this.workers.delete(name);
    running.worker.shutdown();
    await running.done;
  }

  /** A workspace input with timers long enough never to fire unless a test shortens them. */
  input(overrides: Partial<WorkspaceInput> = {}): WorkspaceInput {
    return {
      replicaId: this.replicaId,
      organizationId: 'org-1',
      lifecyclePolicy: 'default',
      idleMs: 3_600_000,
      archiveAfterMs: 3_600_000,
      historyLimit: 10_000,
      hasWebhook: true,
      ...overrides,
    };
  }

  async startWorkspace(input: WorkspaceInput, options: { reportTurn?: RunReportTarget } = {}): Promise<WorkspaceHandle> {
    const common = { taskQueue: this.taskQueue, workflowId: workspaceWorkflowId(input.replicaId), args: [input] as [WorkspaceInput] };
    let handle: WorkflowHandle;
    let firstRunId: string;
    if (options.reportTurn) {
      const started = await this.client.workflow.signalWithStart<typeof workspaceWorkflow, [RunReportTarget]>('workspaceWorkflow', {
        ...common,
        signal: WORKSPACE_SIGNALS.reportTurn,
        signalArgs: [options.reportTurn],
      });
      [handle, firstRunId] = [started, started.signaledRunId];
    } else {
      const started = await this.client.workflow.start<typeof workspaceWorkflow>('workspaceWorkflow', common);
      [handle, firstRunId] = [started, started.firstExecutionRunId];
    }
    this.started.push(handle);
    this.workspaces.push({ workflowId: handle.workflowId, firstRunId });
    return new WorkspaceHandle(handle, this.client, firstRunId);
  }

  /**
   * A stand-in for a workflow the workspace signals (an automation run, a warm pool), on its own
   * queue and worker: it records every signal it gets. `workflowId` defaults to a run's.
   */
  async startListener(name: string, workflowId = `run/${this.taskQueue}/${name}`): Promise<Listener> {
    const taskQueue = `${this.taskQueue}-listeners`;
    if (!this.workers.has('listeners')) {
      await this.run('listeners', await Worker.create({ connection: this.env.nativeConnection, namespace: this.env.namespace, taskQueue, workflowBundle: await listenerBundle() }));
    }
    const handle = await this.client.workflow.start<typeof signalListener>('signalListener', { taskQueue, workflowId });
    this.started.push(handle);
    return new Listener(handle);
  }

  /**
   * Writes the histories of this test's workspace workflows into the replay fixtures as
   * `workspaceWorkflow.path-{path}.{n}.json`: the run each started as and, after continue-as-new,
   * the run it is now. Called before `close`, so a workflow still running is recorded as it is.
   */
  async recordHistories(path: string): Promise<void> {
    let n = 0;
    for (const { workflowId, firstRunId } of this.workspaces) {
      const latest = (await this.client.workflow.getHandle(workflowId).describe()).runId;
      for (const runId of new Set([firstRunId, latest])) {
        const history = await this.client.workflow.getHandle(workflowId, runId).fetchHistory();
        await writeHistory(`workspaceWorkflow.path-${path}.${++n}.json`, { workflowType: 'workspaceWorkflow', workflowId, history });
      }
    }
  }

  async close(): Promise<void> {
    this.world.releaseAll();
    for (const handle of this.started) await handle.terminate('test over').catch(() => undefined);
    for (const name of [...this.workers.keys()]) await this.stop(name);
    for (const running of this.stopping.splice(0)) await running.done;
  }
}

export class WorkspaceHandle {
  constructor(
    /** Follows the chain of runs: `result()` is the last run's. */
    readonly handle: WorkflowHandle,
    private readonly client: Client,
    /** The run the test started (continue-as-new starts others). */
    readonly firstRunId: string,
  ) {}

  get workflowId(): string {
    return this.handle.workflowId;
  }

  state(): Promise<WorkspaceState> {
    return this.client.workflow.getHandle(this.workflowId).query<WorkspaceState>(WORKSPACE_QUERIES.state);
  }

  workRequested(chatId: string): Promise<void> {
    return this.client.workflow.getHandle(this.workflowId).signal(WORKSPACE_SIGNALS.workRequested, { chatId });
  }

  lifecycle(request: LifecycleRequest): Promise<void> {
    return this.client.workflow.getHandle(this.workflowId).signal(WORKSPACE_SIGNALS.lifecycle, request);
  }

  reportTurn(target: RunReportTarget): Promise<void> {
    return this.client.workflow.getHandle(this.workflowId).signal(WORKSPACE_SIGNALS.reportTurn, target);
  }

  /**
   * Waits until the workflow has handled the latest `signal` it was sent: a workflow task
   * completed after the signal's event in the history of its current run.
   */
  async signalHandled(signal: string): Promise<void> {
    await until(`the workflow to handle its ${signal} signal`, async () => {
      const history = await this.client.workflow.getHandle(this.workflowId).fetchHistory();
      const events = history.events ?? [];
      const signalled = events.map((e, i) => (e.workflowExecutionSignaledEventAttributes?.signalName === signal ? i : -1)).filter((i) => i >= 0);
      const at = signalled.at(-1);
      return at !== undefined && events.slice(at + 1).some((e) => e.workflowTaskCompletedEventAttributes);
    });
  }

  /** The latest run of the workflow (after continue-as-new, not the first). */
  async describe() {
    return this.client.workflow.getHandle(this.workflowId).describe();
  }

  /** Waits until the state query answers `expected` (deep-equal on the fields given). */
  async stateBecomes(expected: Partial<WorkspaceState>, timeoutMs = 60_000): Promise<WorkspaceState> {
    let last: WorkspaceState | undefined;
    return until(
      `the workspace's state query to answer ${JSON.stringify(expected)}`,
      async () => {
        last = await this.state();
        return Object.entries(expected).every(([k, v]) => JSON.stringify((last as any)[k]) === JSON.stringify(v)) ? last : undefined;
      },
      { timeoutMs, seen: () => last },
    );
  }
}

export class Listener {
  constructor(readonly handle: WorkflowHandle) {}

  get workflowId(): string {
    return this.handle.workflowId;
  }

  signals(): Promise<HeardSignal[]> {
    return this.handle.query<HeardSignal[]>('heard');
  }

  /** The run outcomes it was told (`runTurnFinished`), in order. */
  async outcomes(): Promise<RunOutcome[]> {
    return (await this.signals()).filter((s) => s.signal === RUN_SIGNALS.turnFinished).map((s) => s.args[0] as RunOutcome);
  }

  /** Waits until it has been told `count` run outcomes, and answers them all. */
  async hears(count: number, timeoutMs = 60_000): Promise<RunOutcome[]> {
    let last: RunOutcome[] = [];
    return until(
      `${this.workflowId} to be told ${count} run outcome(s)`,
      async () => {
        last = await this.outcomes();
        return last.length >= count ? last : undefined;
      },
      { timeoutMs, seen: () => last },
    );
  }
}
