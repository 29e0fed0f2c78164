/**
 * The workspace's state machine, free of Temporal: what the workspace is, what it was asked,
 * which chats have work and which are running, where it lives and whether that host was lost
 * (`placement`), who waits to hear from it (`reports`), and what to do next. The workflow
 * (`workspace.ts`) feeds it signals and results and carries out the steps it returns; the unit
 * tests drive it directly.
 */
import type { LifecycleRequest, WorkspaceCarriedState, WorkspaceInput, WorkspaceState, WorkspaceStatus } from './shared';
import { WaitingChats, WorkspacePlacement } from './workspacePlacement';
import { WorkspaceReports } from './workspaceReports';

/** What the workflow does next. */
export type WorkspaceStep =
  /** The host was lost: move the workspace to another host (shared storage), else stop turns and go to `error`. */
  | { kind: 'host-lost' }
  /** Stop turns, remove the container, delete the record: the workflow ends. */
  | { kind: 'delete' }
  /** Stop turns, remove the container and volume; the record stays, wakeable. */
  | { kind: 'archive' }
  /** Stop turns and the container; the volume stays. */
  | { kind: 'sleep' }
  /** Bring the container up again: rebuilt from scratch after an archive, else started. */
  | { kind: 'wake'; fresh: boolean }
  /** The container of an active workspace stopped by itself: stop turns, start it again. */
  | { kind: 'restart' }
  /** Start these chats' turn loops, then wait until a turn loop ends or something new arrives. */
  | { kind: 'run-turns'; start: string[] }
  /** Active with nothing to do: wait for work, and after `timeoutMs` of quiet do `onTimeout`. */
  | { kind: 'idle'; timeoutMs: number; onTimeout: LifecycleRequest }
  /** Asleep or archived: wait for work; a sleeping workspace archives after `timeoutMs`. */
  | { kind: 'dormant'; timeoutMs: number | null }
  /** A request that does not apply in this state, or a policy request queued: decide again. */
  | { kind: 'again' }
  /** In error: nothing more happens. */
  | { kind: 'end' };

/** What the machine is made from: the workflow's input. */
export type WorkspaceMachineInput = Pick<WorkspaceInput, 'lifecyclePolicy' | 'idleMs' | 'archiveAfterMs' | 'firstChatId' | 'reportTo' | 'carried'>;

export class WorkspaceMachine {
  status: WorkspaceStatus;
  readonly placement: WorkspacePlacement;
  readonly reports: WorkspaceReports;
  private readonly pending: Set<string>;
  private readonly requests: LifecycleRequest[];
  private readonly running = new Set<string>();
  /** Chats whose next turn found the container stopped: they go on once a restart has started it. */
  readonly waitingChats = new WaitingChats();
  private turnsSinceIdle = 0;
  /** How many turn loops were running when the workflow last started waiting on them. */
  private runningWhenWaited = 0;

  constructor(private readonly input: WorkspaceMachineInput) {
    const { carried } = input;
    this.status = carried?.status ?? 'preparing';
    // A new workspace may start with a chat's queued work (an automation run's workspace).
    this.pending = new Set(carried ? carried.pendingChats : input.firstChatId ? [input.firstChatId] : []);
    this.requests = [...(carried?.lifecycle ?? [])];
    this.placement = new WorkspacePlacement(carried?.host);
    this.reports = new WorkspaceReports(input.reportTo, carried, this.status !== 'preparing');
  }

  // --- inputs ------------------------------------------------------------------------------

  workRequested(chatId: string): void {
    this.pending.add(chatId);
  }

  lifecycleRequested(request: LifecycleRequest): void {
    this.requests.push(request);
  }

  /** A chat's turn loop started: its pending work is now the loop's. */
  turnsStarted(chatId: string): void {
    this.pending.delete(chatId);
    this.running.add(chatId);
  }

  /** One turn of a running chat ended (completed or failed). */
  turnEnded(): void {
    this.turnsSinceIdle++;
  }

  /** A chat's turn loop found nothing more queued, or was stopped. */
  turnsStopped(chatId: string): void {
    this.running.delete(chatId);
  }

  // --- decisions ---------------------------------------------------------------------------

  /** Whether the host was lost and the workspace has not gone to `error` for it yet. */
  get hostLost(): boolean {
    return this.placement.lost !== null && this.status !== 'error';
  }

  /** Whether the workflow waiting on running turns (`run-turns`) should decide again. */
  get turnsNeedAttention(): boolean {
    return this.requests.length > 0 || this.running.size < this.runningWhenWaited || [...this.pending].some((c) => !this.running.has(c)) || this.placement.lost !== null;
  }

  /** Whether a restart may start the container: its turns have ended, or its host is lost (nothing will end them). */
  get restartMayStart(): boolean {
    return this.running.size === 0 || this.placement.lost !== null;
  }

  /** Whether a waiting idle or dormant workspace has something to do. */
  get wanted(): boolean {
    return this.requests.length > 0 || this.pending.size > 0;
  }

  get runningChats(): string[] {
    return [...this.running];
  }

  next(): WorkspaceStep {
    if (this.hostLost) return { kind: 'host-lost' };
    const request = this.requests.shift();
    const asleep = this.status === 'sleeping' || this.status === 'archived';
    if (request === 'delete') return { kind: 'delete' };
    if (request === 'archive' && this.status !== 'archived') return { kind: 'archive' };
    if (request === 'sleep' && this.status === 'active') return { kind: 'sleep' };
    // Only an active workspace's container is meant to run; one asleep or in error stays so.
    if (request === 'restart' && this.status === 'active') return { kind: 'restart' };
    if (request === 'wake' || (request === undefined && this.pending.size > 0 && asleep)) {
      if (asleep) return { kind: 'wake', fresh: this.status === 'archived' };
      return this.status === 'error' ? { kind: 'end' } : { kind: 'again' };
    }
    if (request !== undefined) return { kind: 'again' };
    if (this.status === 'error') return { kind: 'end' };

    if (this.status === 'active') {
      const start = [...this.pending].filter((c) => !this.running.has(c));
      if (this.running.size > 0 || start.length > 0) {
        this.runningWhenWaited = this.running.size + start.length;
        return { kind: 'run-turns', start };
      }
      // Idle: apply the lifecycle policy once the work is done, else wait for inactivity.
      const worked = this.turnsSinceIdle > 0;
      this.turnsSinceIdle = 0;
      if (worked && this.input.lifecyclePolicy === 'sleep_when_done') return this.queue('sleep');
      if (worked && this.input.lifecyclePolicy === 'archive_when_done') return this.queue('archive');
      return { kind: 'idle', timeoutMs: this.input.idleMs, onTimeout: this.input.lifecyclePolicy === 'delete_after_inactivity' ? 'delete' : 'sleep' };
    }
    return { kind: 'dormant', timeoutMs: this.status === 'sleeping' ? this.input.archiveAfterMs : null };
  }

  private queue(request: LifecycleRequest): WorkspaceStep {
    this.requests.push(request);
    return { kind: 'again' };
  }

  // --- views -------------------------------------------------------------------------------

  snapshot(): WorkspaceState {
    return { status: this.status, pendingChats: [...this.pending], runningChats: [...this.running] };
  }

  /** What a continued-as-new workflow starts from (running turns have ended by then). */
  carry(): WorkspaceCarriedState {
    return { status: this.status, pendingChats: [...this.pending], lifecycle: [...this.requests], ...this.reports.carry(), ...this.placement.carry() };
  }
}
