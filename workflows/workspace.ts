/**
 * `workspace/{replicaId}`: one workspace's life, a thin shell over `WorkspaceMachine`. It
 * provisions the container, then carries out the machine's steps: agent turns (one at a time
 * per chat, chats in parallel), sleep after inactivity, archive after a long sleep, wake on
 * demand, delete on request. The database holds the messages; this workflow only learns that a
 * chat has work (`workRequested`) and asks an activity to run that chat's next queued turn.
 */
import {
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  patched,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { onHost, placements, records, threadReplies, webhooks } from './activities';
import { failureMessage, isHostLost } from './failures';
import { WorkspaceMachine } from './workspaceState';
import {
  RUN_SIGNALS,
  WARM_POOL_SIGNALS,
  WORKSPACE_QUERIES,
  WORKSPACE_SIGNALS,
  warmPoolWorkflowId,
  type HostPlacement,
  type LifecycleRequest,
  type RunOutcome,
  type RunReportTarget,
  type TurnResult,
  type WorkspaceInput,
  type WorkspaceState,
  type WorkspaceStatus,
} from './shared';

export const workRequested = defineSignal<[{ chatId: string }]>(WORKSPACE_SIGNALS.workRequested);
export const lifecycle = defineSignal<[LifecycleRequest]>(WORKSPACE_SIGNALS.lifecycle);
/** A grouped automation run asks to be told how one message's turn ends. */
export const reportTurn = defineSignal<[RunReportTarget]>(WORKSPACE_SIGNALS.reportTurn);
export const stateQuery = defineQuery<WorkspaceState>(WORKSPACE_QUERIES.state);

type WebhookEvent = 'replica.ready' | 'replica.turn_completed' | 'replica.deleted' | 'replica.error';

/** Workflows from before worker hosts ran every container activity on the shared queue. */
const WORKER_HOSTS_PATCH = 'worker-hosts';
/** How long a restart waits for the turns on the stopped container to end before starting it. */
const RESTART_TURNS_WAIT = '2 minutes';
/** A lost host's workspace on shared storage moves to another host instead of ending in `error`. */
const REPROVISION_PATCH = 'reprovision-shared-volumes';

export async function workspaceWorkflow(input: WorkspaceInput): Promise<void> {
  const { replicaId } = input;
  const machine = new WorkspaceMachine(input);
  const { placement, reports } = machine;
  setHandler(workRequested, ({ chatId }) => machine.workRequested(chatId));
  setHandler(lifecycle, (request) => machine.lifecycleRequested(request));
  setHandler(stateQuery, () => machine.snapshot());

  // Outbound webhooks go out in the background of the workspace's life.
  const deliveries = new Set<Promise<void>>();
  const notify = (event: WebhookEvent, payload: unknown) => {
    if (!input.hasWebhook) return;
    const delivery: Promise<void> = webhooks
      .deliverReplicaWebhook({ replicaId, event, deliveryId: uuid4(), occurredAt: new Date().toISOString(), payload })
      .catch(() => undefined) // a receiver that never answers 2xx loses that event, not the workspace
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };
  const settleDeliveries = async () => void (await Promise.all([...deliveries]));

  // Grouped runs (an event joining this workspace) wait for their message's turn, each told once.
  setHandler(reportTurn, (target) => reports.groupedRunWaits(target));
  const tellGrouped = async (messageId: string | null, outcome: RunOutcome) => {
    for (const [id, workflowId] of reports.groupedRuns(messageId)) {
      reports.groupedRunTold(id);
      await getExternalWorkflowHandle(workflowId)
        .signal(RUN_SIGNALS.turnFinished, outcome)
        .catch((err) => log.warn('a grouped automation run could not be told', { error: failureMessage(err) }));
    }
  };

  // Threads (Slack, Linear, GitHub/GitLab issues) talking to this workspace get each turn's answer.
  const relay = (chatId: string, messageId: string) => {
    const delivery: Promise<void> = threadReplies
      .relayTurn({ replicaId, chatId, messageId })
      .then(() => undefined)
      .catch((err) => log.warn('a turn could not be relayed to its threads', { error: failureMessage(err) }))
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  // An automation run waits for the outcome of its prompt's turn; it is told once.
  const report = async (outcome: RunOutcome) => {
    const workflowId = reports.claimRun();
    if (workflowId === null) return;
    await getExternalWorkflowHandle(workflowId)
      .signal(RUN_SIGNALS.turnFinished, outcome)
      .catch((err) => log.warn('the automation run could not be told', { error: failureMessage(err) }));
  };

  // The host holding the container (`placement`); its container activities go to that host's queue.
  let { containers, turns } = onHost(placement.host);
  const useHost = (host: HostPlacement | undefined) => {
    placement.placeOn(host);
    ({ containers, turns } = onHost(host));
  };
  const noteLost = (err: unknown): boolean => {
    if (!isHostLost(err) || !placement.hostLost()) return false;
    log.warn('the workspace host was lost', { hostId: placement.host!.hostId });
    return true;
  };
  /** Container work that ends quietly (false) when the host is lost, so the workflow can record it. */
  const onContainer = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (err) {
      if (noteLost(err)) return false;
      throw err;
    }
  };

  const setStatus = async (next: WorkspaceStatus, error?: string) => {
    machine.status = next;
    await records.setReplicaStatus({ replicaId, status: next, error });
    if (next === 'error') {
      notify('replica.error', { status: next, message: error ?? null });
      await report({ ok: false, error: 'the workspace failed to start' });
      await tellGrouped(null, { ok: false, error: 'the workspace failed to start' });
    }
  };

  // Bring the container up: provision from scratch (new or archived) or start a stopped one.
  const bringUp = async (fresh: boolean): Promise<boolean> => {
    let result: Awaited<ReturnType<typeof containers.provisionWorkspace>>;
    try {
      result = fresh ? await containers.provisionWorkspace({ replicaId }) : await containers.startWorkspace({ replicaId });
    } catch (err) {
      if (!noteLost(err)) throw err;
      // On shared storage the loop moves the workspace to another host; otherwise it ends here.
      if (!placement.shared) await setStatus('error', placement.lost!);
      return false;
    }
    if (!result.ok) {
      // The replica stays readable with its error; a half-built container does not stay.
      await onContainer(() => containers.removeWorkspace({ replicaId }));
      await setStatus('error', result.error);
      return false;
    }
    await setStatus('active');
    // The environment has a warm pool: it may have lost an entry to this workspace.
    if ('warmPoolEnvironmentId' in result && result.warmPoolEnvironmentId) {
      await getExternalWorkflowHandle(warmPoolWorkflowId(result.warmPoolEnvironmentId))
        .signal(WARM_POOL_SIGNALS.changed)
        .catch(() => undefined); // no pool workflow running: nothing to refill
    }
    return true;
  };

  /**
   * One turn. A turn whose activity failed (it timed out, or its worker was lost on both
   * attempts) ends as a failed turn: the message is marked, the chat freed and the error shown,
   * so the next message runs.
   */
  const runTurn = async (chatId: string): Promise<TurnResult> => {
    try {
      return await turns.runNextTurn({ replicaId, chatId });
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Nothing ran (the turn was never picked up): the message stays queued, the workspace goes
      // to error or, on shared storage, to another host where the chat is taken up again.
      if (noteLost(err)) {
        placement.chatLost(chatId);
        return { ran: false };
      }
      const error = `the agent's turn did not finish: ${failureMessage(err)}`;
      const failed = await records.failRunningTurn({ replicaId, chatId, error });
      return { ran: true, messageId: failed.messageId ?? undefined, ok: false, error, interrupted: true };
    }
  };

  let turnScope = new CancellationScope();
  const turnLoops = new Set<Promise<void>>();
  const startTurns = (chatId: string) => {
    machine.turnsStarted(chatId);
    const loop: Promise<void> = turnScope
      .run(async () => {
        for (;;) {
          const turn = await runTurn(chatId);
          if (turn.containerDown) machine.turnFoundContainerDown(chatId);
          if (!turn.ran) return;
          machine.turnEnded();
          notify('replica.turn_completed', { chatId, messageId: turn.messageId, isComplete: turn.ok });
          const outcome: RunOutcome = { ok: !!turn.ok, error: turn.ok ? null : (turn.error ?? 'the agent turn failed'), ...(turn.interrupted ? { interrupted: true } : {}) };
          if (turn.messageId && reports.isRunMessage(turn.messageId)) await report(outcome);
          if (turn.messageId) await tellGrouped(turn.messageId, outcome);
          if (turn.messageId && patched('thread-replies')) relay(chatId, turn.messageId);
        }
      })
      // Nothing awaits a turn loop, so nothing may escape it: a stopped loop ends quietly, and
      // anything else is logged (its message was marked by `failRunningTurn` or stays for the user).
      .catch((err) => {
        if (!isCancellation(err)) log.error('a chat turn loop failed', { chatId, error: failureMessage(err) });
      })
      .finally(() => {
        machine.turnsStopped(chatId);
        turnLoops.delete(loop);
      });
    turnLoops.add(loop);
  };
  const stopTurns = async () => {
    turnScope.cancel();
    await Promise.allSettled([...turnLoops]);
    turnScope = new CancellationScope();
  };

  /**
   * The container stopped without being asked (its Docker engine restarted): the worker's
   * reconciler asks for this. Turns on the stopped container end by themselves (interrupted, or
   * not started, their messages left queued), each telling its run; then the container is
   * started again (made again on its volume if the engine lost it), and those chats go on. One
   * that cannot start puts the workspace in `error` saying why; its volume stays.
   */
  const restart = async () => {
    await condition(() => machine.restartMayStart, RESTART_TURNS_WAIT);
    const chats = machine.takeWaitingChats();
    let error: string | null = null;
    try {
      const result = await containers.startWorkspace({ replicaId });
      if (!result.ok) error = result.error ?? 'it did not start';
    } catch (err) {
      if (noteLost(err)) return;
      error = failureMessage(err);
    }
    if (error === null) {
      log.info('the workspace container was started again', { replicaId });
      for (const chatId of chats) machine.workRequested(chatId);
      return;
    }
    const message = `the workspace's container stopped (was its Docker engine restarted?) and could not be started again: ${error}`;
    // The platform's fault, not the automation's: runs waiting on this workspace are told so first.
    await report({ ok: false, error: message, interrupted: true });
    await tellGrouped(null, { ok: false, error: message, interrupted: true });
    await setStatus('error', message);
  };

  /**
   * The host was lost and the workspace's volume is on storage every host opens: the turns cut
   * with the host end interrupted, the workspace is placed on another live host and provisioned
   * there over the same volume, and its chats carry on (docs/decisions/hosts.md, "Re-provisioning on
   * shared storage"). False when it cannot move (not shared, or no other host): it goes to `error`.
   */
  const relocate = async (): Promise<boolean> => {
    if (!placement.shared || !patched(REPROVISION_PATCH)) return false;
    const lostHost = placement.host!;
    const why = placement.lost!;
    for (const chatId of machine.runningChats) placement.chatLost(chatId);
    await stopTurns();
    // Not `active` while it has no container: from here until it runs on its new host.
    await setStatus('preparing');
    const next = await placements.replaceWorkspace({ replicaId, lostHostId: lostHost.hostId }).catch((err) => {
      log.warn('the workspace could not be moved off its lost host', { error: failureMessage(err) });
      return null;
    });
    if (!next) return false;
    useHost(next);
    log.warn('the workspace moves off its lost host', { from: lostHost.hostId, to: next.hostId });
    // The turns that were running on the lost host end interrupted, and whoever waits on them hears.
    const error = `${why}; the turn was cut, and the workspace moved to host "${next.hostId}"`;
    for (const cut of await records.interruptRunningTurns({ replicaId, error })) {
      placement.chatLost(cut.chatId);
      const outcome: RunOutcome = { ok: false, error, interrupted: true };
      notify('replica.turn_completed', { chatId: cut.chatId, messageId: cut.messageId, isComplete: false });
      if (reports.isRunMessage(cut.messageId)) await report(outcome);
      await tellGrouped(cut.messageId, outcome);
    }
    let result: Awaited<ReturnType<typeof containers.reprovisionWorkspace>>;
    try {
      result = await containers.reprovisionWorkspace({ replicaId });
    } catch (err) {
      if (!noteLost(err)) throw err;
      return true; // the new host was lost too: the loop moves it again
    }
    if (!result.ok) {
      // What was made there stays until the workspace is deleted: its volume is the workspace's data.
      await setStatus('error', result.error);
      return true;
    }
    await setStatus('active');
    if (reports.announceReady()) notify('replica.ready', { status: 'active' });
    for (const chatId of placement.takeLostChats()) machine.workRequested(chatId);
    return true;
  };

  const historyFull = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > input.historyLimit;
  const continueIfFull = async () => {
    if (!historyFull()) return;
    await settleDeliveries();
    await continueAsNew<typeof workspaceWorkflow>({
      ...input,
      carried: machine.carry(),
    });
  };

  if (machine.status === 'preparing') {
    // A new workspace is placed on a worker host first (docs/decisions/hosts.md, "Workspaces pinned to worker hosts").
    if (!placement.host && patched(WORKER_HOSTS_PATCH)) {
      let placed: HostPlacement | null;
      try {
        placed = await placements.placeWorkspace({ replicaId });
      } catch (err) {
        await setStatus('error', `the workspace could not be placed on a worker host: ${failureMessage(err)}`);
        return settleDeliveries();
      }
      useHost(placed ?? undefined);
    }
    if (await bringUp(true)) {
      if (reports.announceReady()) notify('replica.ready', { status: 'active' });
    } else if (placement.lost === null || !placement.shared) return settleDeliveries();
  }

  for (;;) {
    const step = machine.next();
    switch (step.kind) {
      case 'host-lost': {
        if ((await relocate()) || !machine.hostLost) break;
        const lost = placement.lost!;
        await stopTurns();
        await setStatus('error', lost);
        // A run waiting on this workspace's turn hears now, not at its 6-hour limit; a lost host is
        // not the automation's failure.
        await report({ ok: false, error: lost, interrupted: true });
        await tellGrouped(null, { ok: false, error: lost, interrupted: true });
        break;
      }
      case 'delete':
        await stopTurns();
        // A lost host keeps its container; the record goes all the same.
        await onContainer(() => containers.removeWorkspace({ replicaId }));
        notify('replica.deleted', { status: 'deleted' });
        await report({ ok: false, error: 'the workspace was deleted before the agent finished' });
        await tellGrouped(null, { ok: false, error: 'the workspace was deleted before the agent finished' });
        await settleDeliveries();
        await records.deleteReplica({ replicaId });
        return;
      case 'archive':
        await stopTurns();
        if (!(await onContainer(() => containers.removeWorkspace({ replicaId })))) break;
        await setStatus('archived');
        break;
      case 'sleep':
        await stopTurns();
        if (!(await onContainer(() => containers.stopWorkspace({ replicaId })))) break;
        await setStatus('sleeping');
        break;
      case 'wake':
        await bringUp(step.fresh);
        break;
      case 'restart':
        await restart();
        break;
      case 'run-turns':
        for (const chatId of step.start) startTurns(chatId);
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
        return settleDeliveries();
    }
  }
}
