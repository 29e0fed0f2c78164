/**
 * The workspace's workflow, and those that run for a workspace or an environment: starting,
 * signalling and querying `workspace/{replicaId}`, hook tests, warm pools and canvas reads.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { hookTestWorkflow } from '../../../workflows/hookTest';
import type { warmPoolWorkflow } from '../../../workflows/warmPool';
import type { workspaceWorkflow } from '../../../workflows/workspace';
import type { canvasWorkflow } from '../../../workflows/canvas';
import {
  WORKSPACE_QUERIES,
  WORKSPACE_SIGNALS,
  startHookTestWorkflowId,
  WARM_POOL_SIGNALS,
  warmPoolWorkflowId,
  workspaceWorkflowId,
  canvasWorkflowId,
  hostTaskQueue,
  type CanvasInput,
  type CanvasListResult,
  type CanvasReadResult,
  type WarmPoolInput,
  type HookTestInput,
  type HookTestResult,
  type LifecycleRequest,
  type WorkspaceInput,
  type WorkspaceState,
} from '../../../workflows/shared';
import { translate, type StartContext, type WorkflowCalls } from './calls';

export interface WorkspaceOperations {
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
  /** Lists a workspace's canvas, or copies one of its files into the blob store (`canvas/{uuid}`). */
  /** `hostId`: the workspace's worker host, whose worker alone can read its container. */
  canvas(input: Omit<Extract<CanvasInput, { op: 'list' }>, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<CanvasListResult>;
  canvas(input: Omit<Extract<CanvasInput, { op: 'read' }>, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<CanvasReadResult>;
}

export function workspaceOperations(calls: WorkflowCalls): WorkspaceOperations {
  const { client, taskQueue, visibility, signalWorkspace } = calls;
  return {
    async runHookTest(input, signal) {
      const testId = input.testId ?? randomUUID();
      try {
        const handle = await client.workflow.start<typeof hookTestWorkflow>('hookTestWorkflow', {
          taskQueue,
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
          taskQueue,
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
      return signalWorkspace(replicaId, WORKSPACE_SIGNALS.workRequested, { chatId });
    },
    async requestLifecycle(replicaId, request) {
      return signalWorkspace(replicaId, WORKSPACE_SIGNALS.lifecycle, request);
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
            taskQueue,
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
    async canvas(input: Omit<CanvasInput, 'requestId' | 'host'>, organizationId?: string, hostId?: string | null): Promise<any> {
      const requestId = randomUUID();
      const host = hostId ? { hostId, taskQueue: hostTaskQueue(taskQueue, hostId), scheduleToStartMs: Math.min(calls.hostTimeoutMs ?? 60_000, 60_000) } : undefined;
      try {
        return await client.workflow.execute<typeof canvasWorkflow>('canvasWorkflow', {
          taskQueue,
          workflowId: canvasWorkflowId(requestId),
          args: [{ ...input, requestId, ...(host ? { host } : {}) } as CanvasInput],
          workflowExecutionTimeout: '3 minutes',
          ...visibility({ organizationId, replicaId: input.replicaId }),
        });
      } catch (err) {
        return translate(err);
      }
    },
  };
}
