/**
 * The workflow control: the only door to Temporal of the API (and of the worker, which starts
 * and stops workflows on its own connection). It starts, signals, queries and terminates
 * Hangar's workflows; client errors are translated here into domain errors (503 when the
 * cluster is unreachable), never in routes. Workspace operations are in `workspaces.ts`, those
 * events start in `automations.ts`, what they share in `calls.ts`.
 */
import type { Tracer } from '@opentelemetry/api';
import { Client, Connection, WorkflowNotFoundError, type ConnectionLike } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { TemporalConnectionOptions } from '../connectionOptions';
import { automationOperations, type AutomationOperations } from './automations';
import { createWorkflowCalls, translate } from './calls';
import { workspaceOperations, type WorkspaceOperations } from './workspaces';

export type { StartContext } from './calls';

export interface WorkflowControl extends WorkspaceOperations, AutomationOperations {
  /** Terminates a running workflow; false when it is not running. */
  terminateWorkflow(workflowId: string, reason: string): Promise<boolean>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The API's connection (options from `temporalConnectionOptions`). */
export async function connectTemporal(options: TemporalConnectionOptions): Promise<Connection> {
  return Connection.connect({ ...options, connectTimeout: '10 seconds' });
}

/** The API's connection, or a worker's own (a worker needs no second one to start workflows). */
export type WorkflowControlConnection = ConnectionLike & Pick<Connection, 'workflowService'>;

export function createWorkflowControl(
  connection: WorkflowControlConnection,
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
): WorkflowControl {
  const interceptors = options.tracer ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: options.tracer })] } : undefined;
  const client = new Client({ connection, namespace: options.namespace, interceptors });
  const calls = createWorkflowCalls(client, options);
  return {
    ...workspaceOperations(calls),
    ...automationOperations(calls),
    async terminateWorkflow(workflowId, reason) {
      try {
        await client.workflow.getHandle(workflowId).terminate(reason);
        return true;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
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
