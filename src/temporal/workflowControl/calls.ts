/**
 * What every operation of the workflow control shares: the SDK's client, its errors translated
 * into domain errors (503 when the cluster is unreachable), the start options that make a
 * workflow findable in the Temporal UI, and the two calls most operations are made of (a start
 * once per workflow id, a signal to a workspace's workflow).
 */
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { DomainError, invalid, notFound, unavailable } from '../../domain/errors';
import { FailureTypes, searchAttributePairs, workspaceWorkflowId, type WorkflowLabels, type WorkflowMemo } from '../../../workflows/shared';

/** What a start knows beyond its input: how the work was triggered, and names for the memo. */
export interface StartContext {
  trigger?: string;
  names?: WorkflowMemo;
}

export function translate(err: unknown): never {
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

export function createWorkflowCalls(
  client: Client,
  options: {
    taskQueue: string;
    /** Whether starts carry Hangar's search attributes (the namespace must have them registered). */
    searchAttributes: boolean;
    /** How long a canvas read waits for its workspace's host to pick it up (at most a minute: the API waits on it). */
    hostTimeoutMs?: number;
  },
) {
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
  async function signalWorkspace(replicaId: string, name: string, arg: unknown): Promise<boolean> {
    try {
      await client.workflow.getHandle(workspaceWorkflowId(replicaId)).signal(name, arg);
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      return translate(err);
    }
  }

  return { client, taskQueue: options.taskQueue, hostTimeoutMs: options.hostTimeoutMs, visibility, startOnce, signalWorkspace };
}

export type WorkflowCalls = ReturnType<typeof createWorkflowCalls>;
