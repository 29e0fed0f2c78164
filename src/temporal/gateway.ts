/**
 * The API's only door to Temporal. Client errors are translated here into domain errors
 * (503 when the cluster is unreachable), never in routes.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { HttpError, badRequest, notFound, unavailable } from '../errors';
import type { hookTestWorkflow } from '../../workflows/hookTest';
import { FailureTypes, startHookTestWorkflowId, type HookTestInput, type HookTestResult } from '../../workflows/shared';

export interface TemporalGateway {
  runHookTest(input: Omit<HookTestInput, 'testId'> & { testId?: string }, signal?: AbortSignal): Promise<HookTestResult>;
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
        throw badRequest('Invalid environment configuration', cause.message ?? null);
      case FailureTypes.sandboxUnavailable:
        throw unavailable('The sandbox is unavailable', cause.message ?? null);
      default:
        throw new HttpError(500, 'The workflow failed');
    }
  }
  const code = (err as { code?: number }).code;
  // gRPC UNAVAILABLE / DEADLINE_EXCEEDED: the cluster cannot be reached.
  if (code === 14 || code === 4) throw unavailable('Temporal is unreachable');
  throw err;
}

export function createTemporalGateway(connection: Connection, options: { namespace: string; taskQueue: string }): TemporalGateway {
  const client = new Client({ connection, namespace: options.namespace });
  return {
    async runHookTest(input, signal) {
      const testId = input.testId ?? randomUUID();
      try {
        const handle = await client.workflow.start<typeof hookTestWorkflow>('hookTestWorkflow', {
          taskQueue: options.taskQueue,
          workflowId: startHookTestWorkflowId(testId),
          args: [{ ...input, testId }],
          workflowExecutionTimeout: '10 minutes',
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
