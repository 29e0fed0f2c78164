/**
 * The workflows events start: an automation's schedule loop, its runs, debounce windows and
 * cleanup, and the `thread-event/…` workflow of a receiver's verified delivery. Each is started
 * once per id, so a retried start does nothing the second time.
 */
import type { automationRunWorkflow } from '../../../workflows/run';
import type { debounceWindowWorkflow } from '../../../workflows/debounce';
import type { automationCleanupWorkflow } from '../../../workflows/cleanup';
import type { threadEventWorkflow } from '../../../workflows/thread';
import {
  automationRunWorkflowId,
  automationWorkflowId,
  automationCleanupWorkflowId,
  AUTOMATION_SIGNALS,
  debounceWindowWorkflowId,
  threadEventWorkflowId,
  type ThreadEventInput,
  type AutomationCleanupInput,
  type DebounceWindowInput,
  type AutomationRunInput,
} from '../../../workflows/shared';
import { translate, type StartContext, type WorkflowCalls } from './calls';

export interface AutomationOperations {
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
}

export function automationOperations(calls: WorkflowCalls): AutomationOperations {
  const { client, taskQueue, visibility, startOnce } = calls;
  return {
    async automationChanged(automationId, organizationId, context) {
      try {
        await client.workflow.signalWithStart('automationScheduleWorkflow', {
          taskQueue,
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
  };
}
