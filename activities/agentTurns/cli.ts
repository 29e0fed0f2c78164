/**
 * One claimed agent turn's CLI (activities/agentTurns/index.ts): run it in the workspace container,
 * stream its events into the record, stop it when its output shows it cannot succeed or it has
 * gone quiet, and end the turn with what it did: completed, failed (saying why) or interrupted
 * (its container stopped under it, its worker stopping).
 */
import type { Context } from '@temporalio/activity';
import type { AgentAdapter, AgentCommand, AgentFile } from '../../src/agents/adapters';
import type { AgentId } from '../../src/agents/catalog';
import type { ReplicaRow } from '../../src/db/replicasRepository';
import type { AgentTurnRecords, TurnEnd } from './records';
import { replicaEnvironment, type WorkspaceActivityDeps } from '../workspace';

export type AgentCliDeps = Pick<WorkspaceActivityDeps, 'repos' | 'secretBox' | 'runtime' | 'events' | 'logger' | 'agentIdleTimeoutMs' | 'workspaceApiUrl'>;

/** A claimed turn, ready for its CLI. */
export interface ClaimedTurn {
  replicaId: string;
  chatId: string;
  messageId: string;
  agent: AgentId;
  adapter: AgentAdapter;
  command: AgentCommand;
  row: ReplicaRow;
  /** The workspace container's key. */
  key: string;
  cwd: string;
  /** When the container started, as the turn found it (`containerStartedAt`). */
  startedAt: string | null;
  /**
   * How the first exec checks the configuration files (src/worker/agentFiles.ts): `argv` puts the
   * command behind the check, which prints `staleMarker` when they are missing or different.
   */
  filesCheck: { argv: (files: AgentFile[], argv: string[]) => string[]; staleMarker: string };
  /** The activity's heartbeat: it stops once the CLI has ended. */
  heartbeat: NodeJS.Timeout;
}

/**
 * How long a write made while the agent runs (a line's events, the agent's session) is retried.
 * The database being away for a moment must not lose what the agent said, and must not end a
 * turn the agent is still doing.
 */
const WRITE_RETRY_MS = 60_000;

/** `write` again, backing off, until it succeeds or WRITE_RETRY_MS has passed. */
async function persistently<T>(write: () => PromiseLike<T>): Promise<T> {
  const deadline = Date.now() + WRITE_RETRY_MS;
  for (let wait = 250; ; wait = Math.min(wait * 2, 5000)) {
    try {
      return await write();
    } catch (err) {
      if (Date.now() + wait > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
/** How often, and how far apart, a failed turn's container is checked for having stopped under it (at most 2 s in all). */
const STOP_SETTLE_CHECKS = 8;
const STOP_SETTLE_MS = 250;
const CONTAINER_STOPPED_ERROR = "the workspace's container stopped while the agent ran (was its Docker engine restarted?); send the message again to retry it";

/** When the workspace's container started, null when it is not running or its engine does not answer. */
export const containerStartedAt = (deps: Pick<AgentCliDeps, 'runtime'>, key: string) => deps.runtime.runningSince(key).catch(() => null);

/**
 * Whether the container that was running since `startedAt` has stopped (or restarted) since.
 * The agent's exec can end a moment before the engine marks its killed container stopped, so
 * a container still running is asked again for a short while.
 */
async function stoppedSince(deps: Pick<AgentCliDeps, 'runtime'>, key: string, startedAt: string | null): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    if ((await containerStartedAt(deps, key)) !== startedAt) return true;
    if (attempt >= STOP_SETTLE_CHECKS) return false;
    await new Promise((resolve) => setTimeout(resolve, STOP_SETTLE_MS));
  }
}

/** Runs the turn's CLI (twice when its configuration files had to be written again) and ends the turn. */
export async function runAgentCli(deps: AgentCliDeps, ctx: Context, turn: ClaimedTurn, records: Pick<AgentTurnRecords, 'endTurn'>): Promise<TurnEnd> {
  const { replicaId, chatId, messageId, agent, command, key } = turn;
  const cli = new CliOutput(deps, ctx, turn);
  let exit: { exitCode: number; timedOut: boolean } = { exitCode: -1, timedOut: false };
  let end: TurnEnd = { status: 'failed', error: null };
  // Set when the container stopped (or its engine went away) while the agent ran.
  let containerStopped = false;
  try {
    exit = await cli.exec(turn.filesCheck.argv(command.files, command.argv));
    if (cli.staleFiles) {
      await deps.runtime.writeFiles(key, command.files);
      exit = await cli.exec(command.argv);
    }
  } catch (err) {
    // The container went away under the agent: the turn ends interrupted below.
    if (!cli.stopped && !ctx.cancellationSignal.aborted && (containerStopped = await stoppedSince(deps, key, turn.startedAt))) {
      deps.logger.warn('the workspace container stopped while the agent ran', { replicaId, err });
    } else if (!cli.stopped || ctx.cancellationSignal.aborted) throw err;
    // Stopped on purpose: the turn ends failed below with the agent's reason.
    // The exec gives up waiting after a grace period; the next turn must not meet the old CLI
    // (still retrying, holding its session) in the same workspace.
    else if (cli.execSession !== undefined) await deps.runtime.killSession(key, cli.execSession).catch((e: unknown) => deps.logger.warn('could not stop an agent', { replicaId, err: e }));
  } finally {
    cli.watchdog.clear();
    clearInterval(turn.heartbeat);
    await cli.pending;
    await cli.sessionSaved;
    // An agent that failed as its container stopped was cut by the platform, not by its work.
    if (!containerStopped && exit.exitCode !== 0 && !cli.stopped && !ctx.cancellationSignal.aborted) containerStopped = await stoppedSince(deps, key, turn.startedAt);
    const interrupted = ctx.cancellationSignal.aborted || containerStopped;
    // The SDK cancels running activities with this reason once the shutdown grace period is over.
    const shutdown = interrupted && (ctx.cancellationSignal.reason as Error | undefined)?.message === 'WORKER_SHUTDOWN';
    const { result, stopReason } = cli;
    const ok = !interrupted && exit.exitCode === 0 && result?.ok !== false;
    end = {
      status: interrupted ? 'interrupted' : ok ? 'completed' : 'failed',
      error: ok ? null : containerStopped ? CONTAINER_STOPPED_ERROR : (result?.error ?? (interrupted ? 'interrupted' : exitError(agent, command.argv[0]!, exit.exitCode))),
      // A CLI stopped on a refused credential did nothing the conversation needs, and was
      // killed perhaps before it wrote its new session: the chat keeps the one it had. So
      // does a turn cut by its worker stopping (as one whose worker died does, see
      // resumeLost): its CLI may not have saved the session, and the next message, on
      // another worker, would fail resuming one that does not exist.
      // The same holds for a turn whose container stopped under it.
      sessionId: stopReason?.code === 'provider_refused' || shutdown || containerStopped ? undefined : cli.sessionId,
    };
    // Every failed turn says why on the events stream, as well as on its message.
    if (end.status === 'failed') {
      const failure = stopReason ?? { code: 'agent_failed', error: end.error ?? 'the agent failed' };
      await deps.events.emit(replicaId, 'error', { code: failure.code, message: failure.error, agent, chatId, messageId });
    }
    // The answer a thread gets back (threads read it after the turn).
    if (result?.text) await deps.repos.replicaMessages.setReply(replicaId, messageId, result.text.slice(0, 100_000));
    await records.endTurn(replicaId, chatId, messageId, end);
  }
  return end;
}

/**
 * What the CLI said while it ran: its result, its session, the events written in order, and
 * why it was stopped early. It is stopped when its output shows the turn cannot succeed (a
 * refused credential the CLI would otherwise retry for minutes), or when it has printed nothing
 * for the idle limit (a provider stalled mid-answer: CLIs wait for minutes, then retry).
 */
class CliOutput {
  result: { ok: boolean; sessionId?: string; text?: string; error?: string } | undefined;
  /** Saved as soon as any line names it, so an interrupted turn can still be resumed. */
  sessionId: string | undefined;
  /** Each line's writes, chained so that the events stay in order. */
  pending = Promise.resolve();
  /** The agent session's record: written before anything else may fail, and awaited before the turn ends. */
  sessionSaved: Promise<unknown> = Promise.resolve();
  stopReason: { code: string; error: string } | undefined;
  /** Set when the exec's check found the configuration files missing or different. */
  staleFiles = false;
  /** The CLI's exec session, to make sure a stopped CLI is gone before the turn ends. */
  execSession: number | undefined;
  readonly watchdog: IdleTimer;
  private readonly stopper = new AbortController();

  constructor(
    private readonly deps: AgentCliDeps,
    private readonly ctx: Context,
    private readonly turn: ClaimedTurn,
  ) {
    const idleSeconds = Math.round(deps.agentIdleTimeoutMs / 1000);
    this.watchdog = new IdleTimer(deps.agentIdleTimeoutMs, () =>
      this.stop({ code: 'agent_stalled', error: `the agent printed nothing for ${idleSeconds} s (its model provider may have stalled); the turn was stopped` }),
    );
  }

  get stopped(): boolean {
    return this.stopper.signal.aborted;
  }

  stop(reason: { code: string; error: string }): void {
    if (this.stopper.signal.aborted) return;
    this.result = { ok: false, sessionId: this.sessionId, error: reason.error };
    this.stopReason = reason;
    this.stopper.abort(new Error(reason.error));
  }

  exec(argv: string[]) {
    const { deps, turn } = this;
    const { replicaId, chatId, messageId } = turn;
    return deps.runtime.exec(turn.key, {
      argv,
      // A warm-pool container was created before the replica: its per-replica
      // variables come with each exec.
      env: { ...replicaEnvironment(deps, turn.row), ...turn.command.env },
      stdin: turn.command.stdin,
      cwd: turn.cwd,
      signal: AbortSignal.any([this.ctx.cancellationSignal, this.stopper.signal]),
      onSession: (id) => {
        this.execSession = id;
        // Sent now (awaiting a knex builder runs it) and handled now: nothing awaits it until
        // the turn ends, and a rejection nobody handles yet would end the worker process.
        this.sessionSaved = persistently(() => deps.repos.replicaMessages.setAgentSession(replicaId, messageId, id)).catch((err: unknown) =>
          deps.logger.warn('could not record a turn\'s agent session', { replicaId, err }),
        );
      },
      onStdoutLine: (line) => {
        this.watchdog.reset();
        if (line === turn.filesCheck.staleMarker) return void (this.staleFiles = true);
        const parsed = turn.adapter.parse(line);
        if (parsed.result) this.result = parsed.result;
        if (parsed.stop) this.stop({ code: 'provider_refused', error: parsed.stop.error ?? 'the agent was stopped' });
        this.sessionId = parsed.sessionId ?? parsed.result?.sessionId ?? this.sessionId;
        // Keep the events in order: each line's writes wait for the previous line's.
        // Nothing awaits the chain until the agent exits, so a write that fails for good is
        // logged here: an unhandled rejection would end the worker process.
        this.pending = this.pending
          .then(async () => {
            for (const event of parsed.events) {
              // History and the stream are separate tables: both writes go out together.
              await Promise.all([
                persistently(() => deps.repos.replicaLogs.appendAgentEvent({ replicaId, chatId, messageId, timestamp: event.timestamp, type: event.type, payload: event.payload })),
                persistently(() => deps.events.emit(replicaId, 'chat.turn.delta', { chatId, event })),
              ]);
            }
          })
          .catch((err: unknown) => deps.logger.warn('could not record an agent event', { replicaId, err }));
      },
    });
  }
}

/** Why a CLI that reported nothing failed; 127 is the shell's "command not found". */
function exitError(agent: AgentId, executable: string, exitCode: number): string {
  if (exitCode !== 127) return `the agent exited with code ${exitCode}`;
  const hint = agent === 'agent_3' ? ' (the Cursor CLI is in the image only when the operator supplies it: HANGAR_AGENT_3_BINARY, see docs/operations.md)' : '';
  return `the ${agent} CLI (${executable}) is not installed in this workspace's image${hint}`;
}

/** Calls `onIdle` once when `reset` has not been called for `ms`. */
class IdleTimer {
  private timer: NodeJS.Timeout;
  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.timer = setTimeout(onIdle, ms);
  }
  reset(): void {
    this.timer.refresh();
  }
  clear(): void {
    clearTimeout(this.timer);
  }
}
