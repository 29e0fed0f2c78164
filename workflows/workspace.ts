/**
 * One workspace's life: provision, then active (agent turns, one at a time per chat, chats in
 * parallel), sleeping after inactivity, archived after a long sleep, woken on demand, deleted
 * on request. The database holds the messages; this workflow only learns that a chat has
 * work (`workRequested`) and asks an activity to run that chat's next queued turn.
 */
import {
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { WorkspaceActivities } from '../activities/workspace';
import {
  WARM_POOL_SIGNALS,
  WORKSPACE_QUERIES,
  WORKSPACE_SIGNALS,
  warmPoolWorkflowId,
  type LifecycleRequest,
  type WorkspaceInput,
  type WorkspaceState,
  type WorkspaceStatus,
} from './shared';

export const workRequested = defineSignal<[{ chatId: string }]>(WORKSPACE_SIGNALS.workRequested);
export const lifecycle = defineSignal<[LifecycleRequest]>(WORKSPACE_SIGNALS.lifecycle);
export const stateQuery = defineQuery<WorkspaceState>(WORKSPACE_QUERIES.state);

// Container work: provisioning clones and runs hooks (heartbeats carry progress).
const containers = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '20 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3, initialInterval: '2 seconds' },
});
// Agent turns: long, heartbeating, not retried automatically (a turn has side effects; the
// activity marks an interrupted message and the user can resend).
const turns = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 1 },
});
// Bookkeeping in the database: quick, retried.
const records = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

// Outbound webhooks: one attempt per activity, retried on the webhook schedule (the
// activity sets each next delay), delivered in the background of the workspace's life.
const webhooks = proxyActivities<WorkspaceActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { maximumAttempts: 6, initialInterval: '1 second', backoffCoefficient: 5, maximumInterval: '10 minutes' },
});

export async function workspaceWorkflow(input: WorkspaceInput): Promise<void> {
  const { replicaId } = input;
  let status: WorkspaceStatus = input.carried?.status ?? 'preparing';
  const pending = new Set<string>(input.carried?.pendingChats ?? []);
  const requests: LifecycleRequest[] = [...(input.carried?.lifecycle ?? [])];
  const running = new Map<string, Promise<void>>();
  let turnsSinceIdle = 0;

  setHandler(workRequested, ({ chatId }) => void pending.add(chatId));
  setHandler(lifecycle, (request) => void requests.push(request));
  setHandler(stateQuery, () => ({ status, pendingChats: [...pending], runningChats: [...running.keys()] }));

  const deliveries = new Set<Promise<void>>();
  const notify = (event: 'replica.ready' | 'replica.turn_completed' | 'replica.deleted' | 'replica.error', payload: unknown) => {
    if (!input.hasWebhook) return;
    const delivery: Promise<void> = webhooks
      .deliverReplicaWebhook({ replicaId, event, deliveryId: uuid4(), occurredAt: new Date().toISOString(), payload })
      .catch(() => undefined) // a receiver that never answers 2xx loses that event, not the workspace
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };
  const settleDeliveries = () => Promise.all([...deliveries]);

  const setStatus = async (next: WorkspaceStatus, error?: string) => {
    status = next;
    await records.setReplicaStatus({ replicaId, status: next, error });
    if (next === 'error') notify('replica.error', { status: next, message: error ?? null });
  };

  // Bring the container up: provision from scratch (new or archived) or start a stopped one.
  const bringUp = async (fresh: boolean): Promise<boolean> => {
    const result = fresh ? await containers.provisionWorkspace({ replicaId }) : await containers.startWorkspace({ replicaId });
    if (!result.ok) {
      // The replica stays readable with its error; a half-built container does not stay.
      await containers.removeWorkspace({ replicaId });
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

  let turnScope = new CancellationScope();
  const startChat = (chatId: string) => {
    if (running.has(chatId)) return;
    pending.delete(chatId);
    const run = turnScope
      .run(async () => {
        for (;;) {
          const turn = await turns.runNextTurn({ replicaId, chatId });
          if (!turn.ran) return;
          turnsSinceIdle++;
          notify('replica.turn_completed', { chatId, messageId: turn.messageId, isComplete: turn.ok });
        }
      })
      .catch((err) => {
        if (!isCancellation(err)) throw err;
      })
      .finally(() => running.delete(chatId));
    running.set(chatId, run);
  };

  const stopTurns = async () => {
    turnScope.cancel();
    await Promise.allSettled([...running.values()]);
    turnScope = new CancellationScope();
  };

  if (status === 'preparing') {
    if (!(await bringUp(true))) return settleDeliveries().then(() => undefined);
    notify('replica.ready', { status: 'active' });
  }

  for (;;) {
    const request = requests.shift();
    if (request === 'delete') {
      await stopTurns();
      await containers.removeWorkspace({ replicaId });
      notify('replica.deleted', { status: 'deleted' });
      await settleDeliveries();
      await records.deleteReplica({ replicaId });
      return;
    }
    if (request === 'archive' && status !== 'archived') {
      await stopTurns();
      await containers.removeWorkspace({ replicaId });
      await setStatus('archived');
      continue;
    }
    if (request === 'sleep' && status === 'active') {
      await stopTurns();
      await containers.stopWorkspace({ replicaId });
      await setStatus('sleeping');
      continue;
    }
    if (request === 'wake' || (request === undefined && pending.size > 0 && (status === 'sleeping' || status === 'archived'))) {
      if (status === 'sleeping' || status === 'archived') await bringUp(status === 'archived');
      if (status === 'error') return settleDeliveries().then(() => undefined);
      continue;
    }
    if (request !== undefined) continue; // a request that does not apply in this state

    if (status === 'error') return settleDeliveries().then(() => undefined);

    if (status === 'active') {
      for (const chatId of [...pending]) startChat(chatId);
      if (running.size > 0) {
        const settled = running.size;
        await condition(() => requests.length > 0 || running.size < settled || [...pending].some((c) => !running.has(c)));
        continue;
      }
      // Idle: apply the lifecycle policy once the work is done, else wait for inactivity.
      if (turnsSinceIdle > 0 && input.lifecyclePolicy === 'sleep_when_done') {
        turnsSinceIdle = 0;
        requests.push('sleep');
        continue;
      }
      if (turnsSinceIdle > 0 && input.lifecyclePolicy === 'archive_when_done') {
        turnsSinceIdle = 0;
        requests.push('archive');
        continue;
      }
      turnsSinceIdle = 0;
      if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > input.historyLimit) {
        await settleDeliveries();
        await continueAsNew<typeof workspaceWorkflow>({ ...input, carried: { status, pendingChats: [...pending], lifecycle: requests } });
      }
      const woken = await condition(() => requests.length > 0 || pending.size > 0, input.idleMs);
      if (!woken) requests.push(input.lifecyclePolicy === 'delete_after_inactivity' ? 'delete' : 'sleep');
      continue;
    }

    // Sleeping or archived: wait for work or a request; a long sleep ends in the archive.
    if (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > input.historyLimit) {
      await settleDeliveries();
      await continueAsNew<typeof workspaceWorkflow>({ ...input, carried: { status, pendingChats: [...pending], lifecycle: requests } });
    }
    const wanted = () => requests.length > 0 || pending.size > 0;
    if (status === 'sleeping') {
      if (!(await condition(wanted, input.archiveAfterMs))) requests.push('archive');
    } else {
      await condition(wanted);
    }
  }
}
