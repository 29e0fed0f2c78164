/**
 * The workspace's agent turns: one loop per chat with work, running that chat's queued turns
 * one at a time (chats in parallel), in a cancellation scope the workflow stops them all by.
 * Each turn's end is told to whoever waits on it: the webhook, the runs, the chat's threads.
 */
import { CancellationScope, isCancellation, log, patched } from '@temporalio/workflow';
import { records } from './activities';
import { failureMessage } from './failures';
import type { RunOutcome, TurnResult } from './shared';
import type { WorkspaceEffects } from './workspaceEffects';

/**
 * Turns run under the in-workspace supervisor and outlive their worker (issue 32): a new
 * activity name with its own retry policy. Histories from before it keep `runNextTurn`.
 */
export const TURNS_OUTLIVE_WORKERS = 'turns-outlive-workers';

export class TurnLoops {
  private scope = new CancellationScope();
  private readonly loops = new Set<Promise<void>>();

  constructor(private readonly ws: WorkspaceEffects) {}

  /** Starts `chatId`'s turn loop: it runs until the chat has nothing queued, or is stopped. */
  start(chatId: string): void {
    const { ws } = this;
    const { machine } = ws;
    machine.turnsStarted(chatId);
    const loop: Promise<void> = this.scope
      .run(async () => {
        for (;;) {
          const turn = await this.runTurn(chatId);
          if (turn.containerDown) machine.waitingChats.add(chatId);
          if (!turn.ran) return;
          machine.turnEnded();
          ws.notify('replica.turn_completed', { chatId, messageId: turn.messageId, isComplete: turn.ok });
          const outcome: RunOutcome = {
            ok: !!turn.ok,
            error: turn.ok ? null : (turn.error ?? 'the agent turn failed'),
            ...(turn.interrupted ? { interrupted: true } : {}),
            ...(turn.resumable ? { resumable: true } : {}),
          };
          if (turn.messageId && machine.reports.isRunMessage(turn.messageId)) await ws.report(outcome);
          if (turn.messageId) await ws.tellGrouped(turn.messageId, outcome);
          if (turn.messageId && patched('thread-replies')) ws.relay(chatId, turn.messageId);
        }
      })
      // Nothing awaits a turn loop, so nothing may escape it: a stopped loop ends quietly, and
      // anything else is logged (its message was marked by `failRunningTurn` or stays for the user).
      .catch((err) => {
        if (!isCancellation(err)) log.error('a chat turn loop failed', { chatId, error: failureMessage(err) });
      })
      .finally(() => {
        machine.turnsStopped(chatId);
        this.loops.delete(loop);
      });
    this.loops.add(loop);
  }

  /** Stops every turn loop and waits for them to end. */
  async stop(): Promise<void> {
    this.scope.cancel();
    await Promise.allSettled([...this.loops]);
    this.scope = new CancellationScope();
  }

  /**
   * One turn. A turn whose activity failed for good (it ran past its timeouts, or failed on
   * every attempt) ends as a failed turn: the message is marked, the chat freed and the error
   * shown, so the next message runs.
   */
  private async runTurn(chatId: string): Promise<TurnResult> {
    const { ws } = this;
    try {
      const args = { replicaId: ws.replicaId, chatId };
      return await (patched(TURNS_OUTLIVE_WORKERS) ? ws.supervisedTurns.runAgentTurn(args) : ws.turns.runNextTurn(args));
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Nothing ran (the turn was never picked up): the message stays queued, the workspace goes
      // to error or, on shared storage, to another host where the chat is taken up again.
      if (ws.noteLost(err)) {
        ws.machine.placement.lostChats.add(chatId);
        return { ran: false };
      }
      const error = `the agent's turn did not finish: ${failureMessage(err)}`;
      const failed = await records.failRunningTurn({ replicaId: ws.replicaId, chatId, error });
      return { ran: true, messageId: failed.messageId ?? undefined, ok: false, error, interrupted: true };
    }
  }
}
