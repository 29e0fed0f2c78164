/**
 * The workspace's container and the host that holds it: a new workspace placed and
 * provisioned, a container brought up again (woken, or started after it stopped by itself),
 * and a workspace whose host was lost moved to another host (shared storage) or put in `error`
 * (docs/decisions/hosts.md).
 */
import { condition, getExternalWorkflowHandle, log, patched } from '@temporalio/workflow';
import { placements, records } from './activities';
import { failureMessage } from './failures';
import { WARM_POOL_SIGNALS, warmPoolWorkflowId, type HostPlacement, type RunOutcome } from './shared';
import type { WorkspaceEffects } from './workspaceEffects';
import type { TurnLoops } from './workspaceTurns';

/** Workflows from before worker hosts ran every container activity on the shared queue. */
const WORKER_HOSTS_PATCH = 'worker-hosts';
/** How long a restart waits for the turns on the stopped container to end before starting it. */
const RESTART_TURNS_WAIT = '2 minutes';
/** A lost host's workspace on shared storage moves to another host instead of ending in `error`. */
const REPROVISION_PATCH = 'reprovision-shared-volumes';

/**
 * A new workspace is placed on a worker host first (docs/decisions/hosts.md, "Workspaces pinned
 * to worker hosts"), then provisioned there and announced ready. False when the workflow ends
 * here: it could not be placed, or its container did not come up and it cannot move (it is in
 * `error`). True when it runs, or its first host was lost and it moves (shared storage).
 */
export async function provisionNew(ws: WorkspaceEffects): Promise<boolean> {
  const { placement, reports } = ws.machine;
  if (!placement.host && patched(WORKER_HOSTS_PATCH)) {
    let placed: HostPlacement | null;
    try {
      placed = await placements.placeWorkspace({ replicaId: ws.replicaId });
    } catch (err) {
      await ws.setStatus('error', `the workspace could not be placed on a worker host: ${failureMessage(err)}`);
      return false;
    }
    ws.useHost(placed ?? undefined);
  }
  if (await bringUp(ws, true)) {
    if (reports.announceReady()) ws.notify('replica.ready', { status: 'active' });
    return true;
  }
  return placement.lost !== null && placement.shared;
}

/** Brings the container up: provisioned from scratch (new or archived) or a stopped one started. */
export async function bringUp(ws: WorkspaceEffects, fresh: boolean): Promise<boolean> {
  const { replicaId, containers } = ws;
  let result: Awaited<ReturnType<typeof containers.provisionWorkspace>>;
  try {
    result = fresh ? await containers.provisionWorkspace({ replicaId }) : await containers.startWorkspace({ replicaId });
  } catch (err) {
    if (!ws.noteLost(err)) throw err;
    // On shared storage the loop moves the workspace to another host; otherwise it ends here.
    if (!ws.machine.placement.shared) await ws.setStatus('error', ws.machine.placement.lost!);
    return false;
  }
  if (!result.ok) {
    // The replica stays readable with its error; a half-built container does not stay.
    await ws.onContainer(() => ws.containers.removeWorkspace({ replicaId }));
    await ws.setStatus('error', result.error);
    return false;
  }
  await ws.setStatus('active');
  // The environment has a warm pool: it may have lost an entry to this workspace.
  if ('warmPoolEnvironmentId' in result && result.warmPoolEnvironmentId) {
    await getExternalWorkflowHandle(warmPoolWorkflowId(result.warmPoolEnvironmentId))
      .signal(WARM_POOL_SIGNALS.changed)
      .catch(() => undefined); // no pool workflow running: nothing to refill
  }
  return true;
}

/**
 * The container stopped without being asked (its Docker engine restarted): the worker's
 * reconciler asks for this. Turns on the stopped container end by themselves (interrupted, or
 * not started, their messages left queued), each telling its run; then the container is
 * started again (made again on its volume if the engine lost it), and those chats go on. One
 * that cannot start puts the workspace in `error` saying why; its volume stays.
 */
export async function restart(ws: WorkspaceEffects): Promise<void> {
  const { machine, replicaId } = ws;
  await condition(() => machine.restartMayStart, RESTART_TURNS_WAIT);
  const chats = machine.waitingChats.take();
  let error: string | null = null;
  try {
    const result = await ws.containers.startWorkspace({ replicaId });
    if (!result.ok) error = result.error ?? 'it did not start';
  } catch (err) {
    if (ws.noteLost(err)) return;
    error = failureMessage(err);
  }
  if (error === null) {
    log.info('the workspace container was started again', { replicaId });
    for (const chatId of chats) machine.workRequested(chatId);
    return;
  }
  const message = `the workspace's container stopped (was its Docker engine restarted?) and could not be started again: ${error}`;
  // The platform's fault, not the automation's: runs waiting on this workspace are told so first.
  await ws.report({ ok: false, error: message, interrupted: true });
  await ws.tellGrouped(null, { ok: false, error: message, interrupted: true });
  await ws.setStatus('error', message);
}

/**
 * The host was lost and the workspace's volume is on storage every host opens: the turns cut
 * with the host end interrupted, the workspace is placed on another live host and provisioned
 * there over the same volume, and its chats carry on (docs/decisions/hosts.md, "Re-provisioning on
 * shared storage"). False when it cannot move (not shared, or no other host): it goes to `error`.
 */
export async function relocate(ws: WorkspaceEffects, turns: TurnLoops): Promise<boolean> {
  const { machine, replicaId } = ws;
  const { placement, reports } = machine;
  if (!placement.shared || !patched(REPROVISION_PATCH)) return false;
  const lostHost = placement.host!;
  const why = placement.lost!;
  for (const chatId of machine.runningChats) placement.lostChats.add(chatId);
  await turns.stop();
  // Not `active` while it has no container: from here until it runs on its new host.
  await ws.setStatus('preparing');
  const next = await placements.replaceWorkspace({ replicaId, lostHostId: lostHost.hostId }).catch((err) => {
    log.warn('the workspace could not be moved off its lost host', { error: failureMessage(err) });
    return null;
  });
  if (!next) return false;
  ws.useHost(next);
  log.warn('the workspace moves off its lost host', { from: lostHost.hostId, to: next.hostId });
  // The turns that were running on the lost host end interrupted, and whoever waits on them hears.
  const error = `${why}; the turn was cut, and the workspace moved to host "${next.hostId}"`;
  for (const cut of await records.interruptRunningTurns({ replicaId, error })) {
    placement.lostChats.add(cut.chatId);
    const outcome: RunOutcome = { ok: false, error, interrupted: true };
    ws.notify('replica.turn_completed', { chatId: cut.chatId, messageId: cut.messageId, isComplete: false });
    if (reports.isRunMessage(cut.messageId)) await ws.report(outcome);
    await ws.tellGrouped(cut.messageId, outcome);
  }
  let result: Awaited<ReturnType<typeof ws.containers.reprovisionWorkspace>>;
  try {
    result = await ws.containers.reprovisionWorkspace({ replicaId });
  } catch (err) {
    if (!ws.noteLost(err)) throw err;
    return true; // the new host was lost too: the loop moves it again
  }
  if (!result.ok) {
    // What was made there stays until the workspace is deleted: its volume is the workspace's data.
    await ws.setStatus('error', result.error);
    return true;
  }
  await ws.setStatus('active');
  if (reports.announceReady()) ws.notify('replica.ready', { status: 'active' });
  for (const chatId of placement.lostChats.take()) machine.workRequested(chatId);
  return true;
}

/**
 * The host was lost and the workspace cannot move: its turns stop and it goes to `error`. A run
 * waiting on this workspace's turn hears now, not at its 6-hour limit; a lost host is not the
 * automation's failure (but `setStatus` has told it "failed to start" first: see
 * test/workflows/COVERAGE.md, "A finding pinned by L9").
 */
export async function failLostHost(ws: WorkspaceEffects, turns: TurnLoops): Promise<void> {
  const lost = ws.machine.placement.lost!;
  await turns.stop();
  await ws.setStatus('error', lost);
  await ws.report({ ok: false, error: lost, interrupted: true });
  await ws.tellGrouped(null, { ok: false, error: lost, interrupted: true });
}
