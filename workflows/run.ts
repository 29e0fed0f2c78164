/**
 * `run/{executionId}`: one fire of an automation. The execution row goes pending → creating →
 * running → completed/failed: open the pull request's checks (when the automation reports
 * any), write the run's workspace record with the automation's settings and its prompt (plus
 * the trigger payload), start that workspace's workflow as a child that outlives the run, wait
 * for the workspace to say how the agent's turn ended, complete the checks with the verdict and
 * finish the record (circuit breaker included). The workspace applies the lifecycle policy
 * itself. Any failure ends the execution `failed` with its message; it is never left `running`.
 */
import { ParentClosePolicy, condition, defineSignal, getExternalWorkflowHandle, log, patched, setHandler, startChild, uuid4 } from '@temporalio/workflow';
import { checks, runRecords } from './activities';
import { failureMessage } from './failures';
import { RUN_SIGNALS, WORKSPACE_SIGNALS, automationRunWorkflowId, workspaceWorkflowId, type AutomationRunInput, type RunOutcome } from './shared';
import { childVisibility } from './visibility';
import { workspaceWorkflow } from './workspace';

export const runTurnFinished = defineSignal<[RunOutcome]>(RUN_SIGNALS.turnFinished);

/**
 * Starts `run/{executionId}` as a child that outlives its starter (a cron loop or a debounce
 * window); `trigger` when the starter's own does not say it (the cron loop has none).
 */
export async function startRunChild(input: AutomationRunInput, trigger?: string): Promise<void> {
  await startChild(automationRunWorkflow, {
    workflowId: automationRunWorkflowId(input.executionId),
    args: [input],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    ...childVisibility({ organizationId: input.organizationId, automationId: input.automationId, executionId: input.executionId, ...(trigger ? { trigger } : {}) }),
  });
}

/** The longest a run waits for its agent, as the turn activity's own limit. */
const TURN_LIMIT = '6 hours';

/** A run whose turn was cut with its workspace, its agent's session kept, continues it once (issue 32). */
export const CONTINUES_CUT_TURN = 'run-continues-cut-turn';

export async function automationRunWorkflow(input: AutomationRunInput): Promise<RunOutcome> {
  const { executionId } = input;
  let told: RunOutcome | undefined;
  setHandler(runTurnFinished, (outcome) => void (told ??= outcome));

  try {
    await runRecords.beginExecution(executionId);
  } catch (err) {
    // The execution is gone (its automation was deleted): finishing it does nothing.
    const outcome = { ok: false, error: failureMessage(err) };
    await runRecords.finishExecution(executionId, outcome.ok, outcome.error);
    return outcome;
  }
  // Checks are best effort: the code-hosting platform being down fails no run.
  const opened = checks.openRunChecks(executionId).catch((err) => {
    log.warn('checks could not be opened', { executionId, error: failureMessage(err) });
    return 0;
  });
  let outcome: RunOutcome;
  try {
    const run = await runRecords.createRunWorkspace(executionId);
    const reportTo = { workflowId: automationRunWorkflowId(executionId), messageId: run.messageId };
    if (run.grouped) {
      // Asked before the prompt is queued, so the turn cannot end before the workspace knows.
      const workspace = getExternalWorkflowHandle(workspaceWorkflowId(run.workspace.replicaId));
      await workspace.signal(WORKSPACE_SIGNALS.reportTurn, reportTo);
      await runRecords.queueGroupedPrompt(executionId);
      await workspace.signal(WORKSPACE_SIGNALS.workRequested, { chatId: run.chatId });
    } else {
      await startChild(workspaceWorkflow, {
        workflowId: workspaceWorkflowId(run.workspace.replicaId),
        args: [{ ...run.workspace, firstChatId: run.chatId, reportTo }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        ...childVisibility({ replicaId: run.workspace.replicaId }),
      });
    }
    let finished = await condition(() => told !== undefined, TURN_LIMIT);
    // Cut short with its workspace (its container stopped), not failed by the agent, and its
    // session kept: the agent gets one more turn to continue where it stopped, and the run's
    // outcome is that turn's (docs/decisions/automations.md, "A run continues a cut turn once").
    if (finished && told!.resumable && patched(CONTINUES_CUT_TURN)) {
      const cut = told!;
      const continuation = { workflowId: reportTo.workflowId, messageId: uuid4() };
      const workspace = getExternalWorkflowHandle(workspaceWorkflowId(run.workspace.replicaId));
      // Asked before the message is queued, so the turn cannot end before the workspace knows.
      await workspace.signal(WORKSPACE_SIGNALS.reportTurn, continuation);
      told = undefined;
      const queued = await runRecords.continueCutTurn({ executionId, cutMessageId: reportTo.messageId, messageId: continuation.messageId });
      if (queued) {
        log.info('the run continues its cut turn', { executionId, messageId: continuation.messageId });
        await workspace.signal(WORKSPACE_SIGNALS.workRequested, { chatId: queued.chatId });
        finished = await condition(() => told !== undefined, TURN_LIMIT);
      } else told = cut;
    }
    outcome = finished ? told! : { ok: false, error: `the agent did not finish within ${TURN_LIMIT}` };
  } catch (err) {
    outcome = { ok: false, error: failureMessage(err) };
  }
  if ((await opened) > 0) {
    await checks.completeRunChecks(executionId, outcome.ok, outcome.error).catch((err) => {
      log.warn('checks could not be completed', { executionId, error: failureMessage(err) });
      return 0;
    });
  }
  await runRecords.finishExecution(executionId, outcome.ok, outcome.error, outcome.interrupted === true);
  return outcome;
}
