/**
 * The API's only door to Temporal. Client errors are translated here into domain errors
 * (503 when the cluster is unreachable), never in routes.
 */
import { randomUUID } from 'node:crypto';
import type { Tracer } from '@opentelemetry/api';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, type ConnectionLike } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { DomainError, invalid, notFound, unavailable } from '../domain/errors';
import type { hookTestWorkflow } from '../../workflows/hookTest';
import type { warmPoolWorkflow } from '../../workflows/warmPool';
import type { workspaceWorkflow } from '../../workflows/workspace';
import type { automationRunWorkflow } from '../../workflows/run';
import type { debounceWindowWorkflow } from '../../workflows/debounce';
import type { automationCleanupWorkflow } from '../../workflows/cleanup';
import type { canvasWorkflow } from '../../workflows/canvas';
import type { threadEventWorkflow } from '../../workflows/thread';
import {
  automationRunWorkflowId,
  FailureTypes,
  WORKSPACE_QUERIES,
  WORKSPACE_SIGNALS,
  startHookTestWorkflowId,
  WARM_POOL_SIGNALS,
  warmPoolWorkflowId,
  workspaceWorkflowId,
  automationWorkflowId,
  automationCleanupWorkflowId,
  AUTOMATION_SIGNALS,
  debounceWindowWorkflowId,
  canvasWorkflowId,
  hostTaskQueue,
  threadEventWorkflowId,
  searchAttributePairs,
  type WorkflowLabels,
  type WorkflowMemo,
  type ThreadEventInput,
  type CanvasInput,
  type CanvasListResult,
  type CanvasReadResult,
  type AutomationCleanupInput,
  type DebounceWindowInput,
  type AutomationRunInput,
  type WarmPoolInput,
  type HookTestInput,
  type HookTestResult,
  type LifecycleRequest,
  type WorkspaceInput,
  type WorkspaceState,
} from '../../workflows/shared';

/** What a start knows beyond its input: how the work was triggered, and names for the memo. */
export interface StartContext {
  trigger?: string;
  names?: WorkflowMemo;
}

export interface TemporalGateway {
  runHookTest(input: Omit<HookTestInput, 'testId'> & { testId?: string }, signal?: AbortSignal): Promise<HookTestResult>;
  /** Starts the workspace's workflow with work for its first chat. */
  startWorkspace(input: WorkspaceInput, firstChatId: string, context?: StartContext): Promise<void>;
  /** Tells the workflow a chat has queued work. False when the workflow is gone. */
  requestWork(replicaId: string, chatId: string): Promise<boolean>;
  requestLifecycle(replicaId: string, request: LifecycleRequest): Promise<boolean>;
  workspaceState(replicaId: string): Promise<WorkspaceState | null>;
  /**
   * Tells an environment's warm-pool workflow to look at its pool again; `start` starts it
   * when it is not running (enabling). False when it is not running and `start` is not set.
   */
  warmPoolChanged(input: WarmPoolInput, start: boolean): Promise<boolean>;
  /** Starts `run/{executionId}` (idempotent: an already started run is left alone). */
  startAutomationRun(input: AutomationRunInput, context?: StartContext): Promise<void>;
  /** Tells an automation's schedule loop to re-read it, starting the loop if needed. */
  automationChanged(automationId: string, organizationId: string, context?: StartContext): Promise<void>;
  /** Starts `debounce/{automation}/{key}/{window}` (idempotent like startAutomationRun). */
  startDebounceWindow(input: DebounceWindowInput, context?: StartContext): Promise<void>;
  /** Starts `cleanup/automation/{id}` (idempotent). */
  startAutomationCleanup(input: AutomationCleanupInput, context?: StartContext): Promise<void>;
  /** Starts `thread-event/{provider}/{deliveryId}` (idempotent by delivery). */
  startThreadEvent(provider: string, deliveryId: string, input: ThreadEventInput): Promise<void>;
  /** Terminates a running workflow; false when it is not running. */
  terminateWorkflow(workflowId: string, reason: string): Promise<boolean>;
  /** Lists a workspace's canvas, or copies one of its files into the blob store (`canvas/{uuid}`). */
  /** `hostId`: the workspace's worker host, whose worker alone can read its container. */
  canvas(input: Omit<Extract<CanvasInput, { op: 'list' }>, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<CanvasListResult>;
  canvas(input: Omit<Extract<CanvasInput, { op: 'read' }>, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<CanvasReadResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function connectTemporal(address: string): Promise<Connection> {
  return Connection.connect({ address, connectTimeout: '10 seconds' });
}

function translate(err: unknown): never {
  if (err instanceof WorkflowFailedError) {
    // The activity's ApplicationFailure sits under the ActivityFailure.
    let cause = err.cause as { message?: string; type?: string; cause?: unknown } | undefined;
    while (cause && !cause.type && cause.cause) cause = cause.cause as typeof cause;
    switch (cause?.type) {
      case FailureTypes.environmentGone:
        throw notFound('Environment');
      case FailureTypes.invalidInput:
        throw invalid('Invalid environment configuration', cause.message ?? null);
      case FailureTypes.sandboxUnavailable:
        throw unavailable('The sandbox is unavailable', cause.message ?? null);
      default:
        throw new DomainError('internal', 'The workflow failed');
    }
  }
  const code = (err as { code?: number }).code;
  // gRPC UNAVAILABLE / DEADLINE_EXCEEDED: the cluster cannot be reached.
  if (code === 14 || code === 4) throw unavailable('Temporal is unreachable');
  throw err;
}

/** The API's connection, or a worker's own (a worker needs no second one to start workflows). */
export type GatewayConnection = ConnectionLike & Pick<Connection, 'workflowService'>;

export function createTemporalGateway(
  connection: GatewayConnection,
  options: {
    namespace: string;
    taskQueue: string;
    /** Whether starts carry Hangar's search attributes (the namespace must have them registered). */
    searchAttributes: boolean;
    /** How long a canvas read waits for its workspace's host to pick it up (at most a minute: the API waits on it). */
    hostTimeoutMs?: number;
    /**
     * Traces on: each start, signal, query and update gets a client span, and its context
     * travels to the workflow in the call's headers (docs/operations.md, "Traces").
     */
    tracer?: Tracer;
  },
): TemporalGateway {
  const interceptors = options.tracer ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: options.tracer })] } : undefined;
  const client = new Client({ connection, namespace: options.namespace, interceptors });

  /** The start options that make a workflow findable in the Temporal UI (nothing when off). */
  function visibility(labels: WorkflowLabels, context?: StartContext) {
    if (!options.searchAttributes) return {};
    const memo = Object.fromEntries(Object.entries(context?.names ?? {}).filter(([, name]) => name));
    return {
      typedSearchAttributes: searchAttributePairs({ ...labels, trigger: context?.trigger ?? labels.trigger }),
      ...(Object.keys(memo).length ? { memo } : {}),
    };
  }

  /** Starts a workflow whose id makes it unique; one already running under that id is left alone. */
  async function startOnce<W extends (input: never) => Promise<unknown>>(
    type: string,
    workflowId: string,
    input: Parameters<W>[0],
    labels: WorkflowLabels,
    context?: StartContext,
  ): Promise<void> {
    try {
      await client.workflow.start(type, { taskQueue: options.taskQueue, workflowId, args: [input], ...visibility(labels, context) });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return;
      translate(err);
    }
  }

  /** Signals a workspace workflow; false when it has ended (a closed workflow takes no signals). */
  async function signal(replicaId: string, name: string, arg: unknown): Promise<boolean> {
    try {
      await client.workflow.getHandle(workspaceWorkflowId(replicaId)).signal(name, arg);
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      return translate(err);
    }
  }
  return {
    async runHookTest(input, signal) {
      const testId = input.testId ?? randomUUID();
      try {
        const handle = await client.workflow.start<typeof hookTestWorkflow>('hookTestWorkflow', {
          taskQueue: options.taskQueue,
          workflowId: startHookTestWorkflowId(testId),
          args: [{ ...input, testId }],
          workflowExecutionTimeout: '10 minutes',
          ...visibility({ organizationId: input.organizationId }),
        });
        // A client that hangs up cancels the test, which kills its sandbox.
        const onAbort = () => void handle.cancel().catch(() => undefined);
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          return await handle.result();
        } finally {
          signal?.removeEventListener('abort', onAbort);
        }
      } catch (err) {
        return translate(err);
      }
    },
    async startWorkspace(input, firstChatId, context) {
      try {
        await client.workflow.signalWithStart<typeof workspaceWorkflow, [{ chatId: string }]>('workspaceWorkflow', {
          taskQueue: options.taskQueue,
          workflowId: workspaceWorkflowId(input.replicaId),
          args: [input],
          signal: WORKSPACE_SIGNALS.workRequested,
          signalArgs: [{ chatId: firstChatId }],
          ...visibility({ organizationId: input.organizationId, replicaId: input.replicaId }, context),
        });
      } catch (err) {
        translate(err);
      }
    },
    async requestWork(replicaId, chatId) {
      return signal(replicaId, WORKSPACE_SIGNALS.workRequested, { chatId });
    },
    async requestLifecycle(replicaId, request) {
      return signal(replicaId, WORKSPACE_SIGNALS.lifecycle, request);
    },
    async workspaceState(replicaId) {
      try {
        return await client.workflow.getHandle(workspaceWorkflowId(replicaId)).query<WorkspaceState>(WORKSPACE_QUERIES.state);
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return null;
        return translate(err);
      }
    },
    async warmPoolChanged(input, start) {
      try {
        if (start) {
          await client.workflow.signalWithStart<typeof warmPoolWorkflow, []>('warmPoolWorkflow', {
            taskQueue: options.taskQueue,
            workflowId: warmPoolWorkflowId(input.environmentId),
            args: [input],
            signal: WARM_POOL_SIGNALS.changed,
            signalArgs: [],
            ...visibility({ organizationId: input.organizationId }),
          });
          return true;
        }
        await client.workflow.getHandle(warmPoolWorkflowId(input.environmentId)).signal(WARM_POOL_SIGNALS.changed);
        return true;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        return translate(err);
      }
    },
    async automationChanged(automationId, organizationId, context) {
      try {
        await client.workflow.signalWithStart('automationScheduleWorkflow', {
          taskQueue: options.taskQueue,
          workflowId: automationWorkflowId(automationId),
          args: [{ automationId, organizationId }],
          signal: AUTOMATION_SIGNALS.configChanged,
          signalArgs: [],
          ...visibility({ organizationId, automationId }, context),
        });
      } catch (err) {
        translate(err);
      }
    },
    startAutomationRun: (input, context) =>
      startOnce<typeof automationRunWorkflow>(
        'automationRunWorkflow',
        automationRunWorkflowId(input.executionId),
        input,
        { organizationId: input.organizationId, automationId: input.automationId, executionId: input.executionId },
        context,
      ),
    startDebounceWindow: (input, context) =>
      startOnce<typeof debounceWindowWorkflow>(
        'debounceWindowWorkflow',
        debounceWindowWorkflowId(input.automationId, input.debounceKey, input.windowNo),
        input,
        { organizationId: input.organizationId, automationId: input.automationId },
        context,
      ),
    startAutomationCleanup: (input, context) =>
      startOnce<typeof automationCleanupWorkflow>(
        'automationCleanupWorkflow',
        automationCleanupWorkflowId(input.automationId),
        input,
        { organizationId: input.organizationId, automationId: input.automationId },
        context,
      ),
    async startThreadEvent(provider, deliveryId, input) {
      const organizationId = input.kind === 'message' ? input.message.organizationId : input.closed.organizationId;
      await startOnce<typeof threadEventWorkflow>('threadEventWorkflow', threadEventWorkflowId(provider, deliveryId), input, { organizationId, trigger: provider });
    },
    async terminateWorkflow(workflowId, reason) {
      try {
        await client.workflow.getHandle(workflowId).terminate(reason);
        return true;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        return translate(err);
      }
    },
    async canvas(input: Omit<CanvasInput, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<any> {
      const requestId = randomUUID();
      const host = hostId ? { hostId, taskQueue: hostTaskQueue(options.taskQueue, hostId), scheduleToStartMs: Math.min(options.hostTimeoutMs ?? 60_000, 60_000) } : undefined;
      try {
        return await client.workflow.execute<typeof canvasWorkflow>('canvasWorkflow', {
          taskQueue: options.taskQueue,
          workflowId: canvasWorkflowId(requestId),
          args: [{ ...input, requestId, ...(host ? { host } : {}) } as CanvasInput],
          workflowExecutionTimeout: '3 minutes',
          ...visibility({ organizationId, replicaId: input.replicaId }),
        });
      } catch (err) {
        return translate(err);
      }
    },
    async ping() {
      try {
        await connection.workflowService.getSystemInfo({});
      } catch (err) {
        translate(err);
      }
    },
    async close() {
      await connection.close();
    },
  };
}
