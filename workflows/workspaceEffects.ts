/**
 * What the workspace workflow's steps share besides its state (`WorkspaceMachine`): the
 * activities of the host that holds the container, the status written with its consequences,
 * a lost host noticed, and what the workspace tells others — webhooks and thread replies in
 * the background, the automation runs that wait on its turns.
 */
import { getExternalWorkflowHandle, log, uuid4 } from '@temporalio/workflow';
import { onHost, records, threadReplies, webhooks } from './activities';
import { failureMessage, isHostLost } from './failures';
import { RUN_SIGNALS, type HostPlacement, type RunOutcome, type WorkspaceInput, type WorkspaceStatus } from './shared';
import type { WorkspaceMachine } from './workspaceState';

type WebhookEvent = 'replica.ready' | 'replica.turn_completed' | 'replica.deleted' | 'replica.error';

export class WorkspaceEffects {
  readonly replicaId: string;
  /** The container activities and the turns, sent to the queue of the host that holds the container. */
  containers: ReturnType<typeof onHost>['containers'];
  turns: ReturnType<typeof onHost>['turns'];
  supervisedTurns: ReturnType<typeof onHost>['supervisedTurns'];
  /** Webhooks and thread relays still going out in the background. */
  private readonly deliveries = new Set<Promise<void>>();

  constructor(
    private readonly input: WorkspaceInput,
    readonly machine: WorkspaceMachine,
  ) {
    this.replicaId = input.replicaId;
    ({ containers: this.containers, turns: this.turns, supervisedTurns: this.supervisedTurns } = onHost(machine.placement.host));
  }

  /** The workspace is placed on `host` (or moved there): its container work goes to that host's queue. */
  useHost(host: HostPlacement | undefined): void {
    this.machine.placement.placeOn(host);
    ({ containers: this.containers, turns: this.turns, supervisedTurns: this.supervisedTurns } = onHost(host));
  }

  /** Whether `err` says the host was lost (it did not pick up container work in time); the machine records it. */
  noteLost(err: unknown): boolean {
    const { placement } = this.machine;
    if (!isHostLost(err) || !placement.hostLost()) return false;
    log.warn('the workspace host was lost', { hostId: placement.host!.hostId });
    return true;
  }

  /** Container work that ends quietly (false) when the host is lost, so the workflow can record it. */
  async onContainer(work: () => Promise<unknown>): Promise<boolean> {
    try {
      await work();
      return true;
    } catch (err) {
      if (this.noteLost(err)) return false;
      throw err;
    }
  }

  /**
   * Writes the workspace's status. `error` is also told to the webhook and to every run still
   * waiting on the workspace, as "failed to start" whatever the cause (a run is told once, so a
   * later, truer report does not reach it: test/workflows/COVERAGE.md, "A finding pinned by L9").
   */
  async setStatus(next: WorkspaceStatus, error?: string): Promise<void> {
    this.machine.status = next;
    await records.setReplicaStatus({ replicaId: this.replicaId, status: next, error });
    if (next === 'error') {
      this.notify('replica.error', { status: next, message: error ?? null });
      await this.report({ ok: false, error: 'the workspace failed to start' });
      await this.tellGrouped(null, { ok: false, error: 'the workspace failed to start' });
    }
  }

  // --- what the workspace tells others ---------------------------------------------------------

  /** An outbound webhook, in the background of the workspace's life. */
  notify(event: WebhookEvent, payload: unknown): void {
    if (!this.input.hasWebhook) return;
    this.inBackground(
      webhooks
        .deliverReplicaWebhook({ replicaId: this.replicaId, event, deliveryId: uuid4(), occurredAt: new Date().toISOString(), payload })
        .catch(() => undefined), // a receiver that never answers 2xx loses that event, not the workspace
    );
  }

  /** Threads (Slack, Linear, GitHub/GitLab issues) talking to this workspace get each turn's answer. */
  relay(chatId: string, messageId: string): void {
    this.inBackground(
      threadReplies
        .relayTurn({ replicaId: this.replicaId, chatId, messageId })
        .then(() => undefined)
        .catch((err) => log.warn('a turn could not be relayed to its threads', { error: failureMessage(err) })),
    );
  }

  /** The automation run the workspace was started for hears the outcome of its prompt's turn, once. */
  async report(outcome: RunOutcome): Promise<void> {
    const workflowId = this.machine.reports.claimRun();
    if (workflowId === null) return;
    await tellRun(workflowId, outcome, 'the automation run could not be told');
  }

  /** The grouped runs waiting on `messageId`'s turn (every one for null) hear its outcome, each once. */
  async tellGrouped(messageId: string | null, outcome: RunOutcome): Promise<void> {
    const { reports } = this.machine;
    for (const [id, workflowId] of reports.groupedRuns(messageId)) {
      reports.groupedRunTold(id);
      await tellRun(workflowId, outcome, 'a grouped automation run could not be told');
    }
  }

  /** Waits for the webhooks and relays still going out (before the workflow ends or continues as new). */
  async settleDeliveries(): Promise<void> {
    await Promise.all([...this.deliveries]);
  }

  private inBackground(work: Promise<void>): void {
    const delivery: Promise<void> = work.finally(() => this.deliveries.delete(delivery));
    this.deliveries.add(delivery);
  }
}

/** Signals a run's workflow how the turn it waits on ended; a run that is gone is only logged. */
function tellRun(workflowId: string, outcome: RunOutcome, failed: string): Promise<void> {
  return getExternalWorkflowHandle(workflowId)
    .signal(RUN_SIGNALS.turnFinished, outcome)
    .catch((err) => log.warn(failed, { error: failureMessage(err) }));
}
