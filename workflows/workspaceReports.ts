/**
 * Who waits to hear from a workspace, free of Temporal: part of the workspace's state
 * (`WorkspaceMachine.reports`), carried across continue-as-new. The workflow sends what this
 * class says is due (`workspaceEffects.ts`).
 *
 * - The automation run the workspace was started for (`reportTo`) waits for its prompt's turn,
 *   and is told once: of that turn, or of the workspace failing or going away first.
 * - Grouped runs (an event joining this workspace, `reportTurn`) each wait for their message's
 *   turn, each told once.
 * - `replica.ready` goes out once, also for a new workspace that is ready only on a second host.
 */
import type { RunReportTarget, WorkspaceCarriedState } from './shared';

export class WorkspaceReports {
  /** Whether `reportTo` has been told (or there is no run to tell). */
  private reported: boolean;
  /** Grouped runs not told yet: their workflow id by the message they wait on. */
  private readonly grouped: Map<string, string>;

  constructor(
    private readonly reportTo: RunReportTarget | undefined,
    carried: WorkspaceCarriedState | undefined,
    /** Whether `replica.ready` went out already (the workspace was provisioned before). */
    private readyAnnounced: boolean,
  ) {
    this.reported = carried?.reported ?? !reportTo;
    this.grouped = new Map((carried?.reportTargets ?? []).map((t) => [t.messageId, t.workflowId]));
  }

  /** Whether `messageId` is the prompt of the run the workspace was started for. */
  isRunMessage(messageId: string): boolean {
    return messageId === this.reportTo?.messageId;
  }

  /** The workflow id of the run to tell now, or null when it was told already (or there is none): it is told once. */
  claimRun(): string | null {
    if (this.reported || !this.reportTo) return null;
    this.reported = true;
    return this.reportTo.workflowId;
  }

  /** A grouped run asks to be told how `target.messageId`'s turn ends. */
  groupedRunWaits(target: RunReportTarget): void {
    this.grouped.set(target.messageId, target.workflowId);
  }

  /** The grouped runs waiting on `messageId` (every one for null), as [messageId, workflowId]. */
  groupedRuns(messageId: string | null): Array<readonly [string, string]> {
    if (messageId === null) return [...this.grouped];
    const workflowId = this.grouped.get(messageId);
    return workflowId === undefined ? [] : [[messageId, workflowId]];
  }

  /** The grouped run waiting on `messageId` is being told: it is not told again. */
  groupedRunTold(messageId: string): void {
    this.grouped.delete(messageId);
  }

  /** Whether `replica.ready` is to go out now: the first time only. */
  announceReady(): boolean {
    if (this.readyAnnounced) return false;
    this.readyAnnounced = true;
    return true;
  }

  carry(): Pick<WorkspaceCarriedState, 'reported' | 'reportTargets'> {
    return { reported: this.reported, reportTargets: [...this.grouped].map(([messageId, workflowId]) => ({ messageId, workflowId })) };
  }
}
