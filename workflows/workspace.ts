/**
 * `workspace/{replicaId}`: one workspace's life, a thin shell over `WorkspaceMachine`
 * (`workspaceState.ts`, with where the workspace lives and who waits on it). It provisions the
 * container, then carries out the machine's steps: agent turns (one at a time per chat, chats
 * in parallel: `workspaceTurns.ts`), sleep after inactivity, archive after a long sleep, wake
 * on demand, delete on request, a container restarted or a lost host left behind
 * (`workspaceHosting.ts`). The database holds the messages; this workflow only learns that a
 * chat has work (`workRequested`) and asks an activity to run that chat's next queued turn.
 */
import { condition, continueAsNew, defineQuery, defineSignal, setHandler, workflowInfo } from '@temporalio/workflow';
import { records } from './activities';
import { WORKSPACE_QUERIES, WORKSPACE_SIGNALS, type LifecycleRequest, type RunReportTarget, type WorkspaceInput, type WorkspaceState } from './shared';
import { WorkspaceEffects } from './workspaceEffects';
import { bringUp, failLostHost, provisionNew, relocate, restart } from './workspaceHosting';
import { WorkspaceMachine } from './workspaceState';
import { TurnLoops } from './workspaceTurns';

export const workRequested = defineSignal<[{ chatId: string }]>(WORKSPACE_SIGNALS.workRequested);
export const lifecycle = defineSignal<[LifecycleRequest]>(WORKSPACE_SIGNALS.lifecycle);
/** A grouped automation run asks to be told how one message's turn ends. */
export const reportTurn = defineSignal<[RunReportTarget]>(WORKSPACE_SIGNALS.reportTurn);
export const stateQuery = defineQuery<WorkspaceState>(WORKSPACE_QUERIES.state);

export async function workspaceWorkflow(input: WorkspaceInput): Promise<void> {
  const { replicaId } = input;
  const machine = new WorkspaceMachine(input);
  setHandler(workRequested, ({ chatId }) => machine.workRequested(chatId));
  setHandler(lifecycle, (request) => machine.lifecycleRequested(request));
  setHandler(stateQuery, () => machine.snapshot());
  setHandler(reportTurn, (target) => machine.reports.groupedRunWaits(target));
  const ws = new WorkspaceEffects(input, machine);
  const turns = new TurnLoops(ws);

  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > input.historyLimit;
  const continueIfFull = async () => {
    if (!historyFull()) return;
    await ws.settleDeliveries();
    await continueAsNew<typeof workspaceWorkflow>({ ...input, carried: machine.carry() });
  };

  if (machine.status === 'preparing' && !(await provisionNew(ws))) return ws.settleDeliveries();

  for (;;) {
    const step = machine.next();
    switch (step.kind) {
      case 'host-lost':
        if (!(await relocate(ws, turns))) await failLostHost(ws, turns);
        break;
      case 'delete':
        await turns.stop();
        // A lost host keeps its container; the record goes all the same.
        await ws.onContainer(() => ws.containers.removeWorkspace({ replicaId }));
        ws.notify('replica.deleted', { status: 'deleted' });
        await ws.report({ ok: false, error: 'the workspace was deleted before the agent finished' });
        await ws.tellGrouped(null, { ok: false, error: 'the workspace was deleted before the agent finished' });
        await ws.settleDeliveries();
        await records.deleteReplica({ replicaId });
        return;
      case 'archive':
        await turns.stop();
        if (!(await ws.onContainer(() => ws.containers.removeWorkspace({ replicaId })))) break;
        await ws.setStatus('archived');
        break;
      case 'sleep':
        await turns.stop();
        if (!(await ws.onContainer(() => ws.containers.stopWorkspace({ replicaId })))) break;
        await ws.setStatus('sleeping');
        break;
      case 'wake':
        await bringUp(ws, step.fresh);
        break;
      case 'restart':
        await restart(ws);
        break;
      case 'run-turns':
        for (const chatId of step.start) turns.start(chatId);
        await condition(() => machine.turnsNeedAttention);
        break;
      case 'idle':
        await continueIfFull();
        if (!(await condition(() => machine.wanted, step.timeoutMs))) machine.lifecycleRequested(step.onTimeout);
        break;
      case 'dormant':
        await continueIfFull();
        if (step.timeoutMs === null) await condition(() => machine.wanted);
        else if (!(await condition(() => machine.wanted, step.timeoutMs))) machine.lifecycleRequested('archive');
        break;
      case 'again':
        break;
      case 'end':
        return ws.settleDeliveries();
    }
  }
}
