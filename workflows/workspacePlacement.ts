/**
 * Where a workspace's container lives and whether that host was lost, free of Temporal: part
 * of the workspace's state (`WorkspaceMachine.placement`), carried across continue-as-new. The
 * workflow's hosting steps (`workspaceHosting.ts`) place, move and lose it through this class.
 */
import type { HostPlacement, WorkspaceCarriedState } from './shared';

/** What a workspace whose host was lost shows as its error. */
export function hostLostMessage(hostId: string, timeoutMs: number | null): string {
  const within = timeoutMs === null ? '' : ` within ${Math.round(timeoutMs / 1000)} s`;
  return `the worker host "${hostId}" holding this workspace's container did not pick up its work${within}; the host is taken as lost`;
}

/**
 * Chats whose turns stopped because the container was not there (stopped, or on a lost host):
 * taken up again, in the order they stopped, once it runs again.
 */
export class WaitingChats {
  private readonly chats = new Set<string>();

  add(chatId: string): void {
    this.chats.add(chatId);
  }

  /** The waiting chats, to ask again; forgotten here. */
  take(): string[] {
    const chats = [...this.chats];
    this.chats.clear();
    return chats;
  }
}

export class WorkspacePlacement {
  /**
   * The host holding the container (placed when the workspace is new, carried across
   * continue-as-new); undefined for a workspace from before hosts were recorded, whose
   * container work the shared queue serves.
   */
  host: HostPlacement | undefined;
  /** Set when the host did not pick up container work in time: the workspace moves, or goes to `error`. */
  lost: string | null = null;
  /** Chats whose turn loop ended with the lost host: asked again once the workspace runs elsewhere. */
  readonly lostChats = new WaitingChats();

  constructor(host?: HostPlacement) {
    this.host = host;
  }

  /** Whether every host opens the workspace's volume: when its host is lost it moves instead of ending in `error`. */
  get shared(): boolean {
    return !!this.host?.sharedVolumes;
  }

  /** Its container work was not picked up in time: the host is lost (the first reason stays). False when there is no host to lose. */
  hostLost(): boolean {
    if (!this.host) return false;
    this.lost ??= hostLostMessage(this.host.hostId, this.host.scheduleToStartMs);
    return true;
  }

  /** The workspace is placed on `host` (or moved there from its lost host), which is not lost. */
  placeOn(host: HostPlacement | undefined): void {
    this.host = host;
    this.lost = null;
  }

  carry(): Pick<WorkspaceCarriedState, 'host'> {
    return this.host ? { host: this.host } : {};
  }
}
