/**
 * One claimed agent turn's CLI (activities/agentTurns/index.ts), run under the in-workspace
 * supervisor (src/sandbox/workspace/turnSupervisor.ts) so that it outlives this worker: started
 * once in the workspace (a later attempt's start finds it started), its output followed and
 * recorded (output.ts), and the turn ended with what it did: completed, failed (saying why) or
 * interrupted (the user stopped it, or its container stopped under it).
 *
 * A worker that stops (a deploy) or loses the turn's heartbeat hands the turn over instead: it
 * stops following, leaves the agent running, and throws, so that Temporal's next attempt (on the
 * next worker of the host) follows the same agent from where the records stop.
 */
import { ApplicationFailure, type Context } from '@temporalio/activity';
import type { AgentCommand, AgentFile } from '../../src/agents/adapters';
import { AGENTS, type AgentId } from '../../src/agents/catalog';
import type { ReplicaRow } from '../../src/db/replicasRepository';
import { SANDBOX_HOME } from '../../src/sandbox/request';
import { followArgv, forgetArgv, parseFollowEnd, parseStarted, startArgv, turnDir, TURN_SUPERVISOR, TURN_SUPERVISOR_PATH, type FollowEnd, type StartedTurn } from '../../src/sandbox/workspace/turnSupervisor';
import type { AgentTurnRecords, TurnEnd } from './records';
import { TurnOutput, type OutputTurn } from './output';
import { replicaEnvironment, type WorkspaceActivityDeps } from '../workspace';

export type AgentCliDeps = Pick<WorkspaceActivityDeps, 'repos' | 'secretBox' | 'runtime' | 'events' | 'logger' | 'agentIdleTimeoutMs' | 'workspaceApiUrl' | 'draining'>;

/** A claimed turn, ready for its CLI. */
export interface ClaimedTurn extends OutputTurn {
  agent: AgentId;
  command: AgentCommand;
  row: ReplicaRow;
  /** The workspace container's key. */
  key: string;
  cwd: string;
  /**
   * When the container started, as the turn's first attempt found it (`containerStartedAt`): a
   * different answer later means the container stopped under the agent.
   */
  startedAt: string | null;
  /**
   * How the start checks the configuration files (src/worker/agentFiles.ts): `argv` puts the
   * command behind the check, which prints `staleMarker` when they are missing or different.
   */
  filesCheck: { argv: (files: AgentFile[], argv: string[]) => string[]; staleMarker: string };
}

/** How often, and how far apart, a failed turn's container is checked for having stopped under it (at most 2 s in all). */
const STOP_SETTLE_CHECKS = 8;
const STOP_SETTLE_MS = 250;
export const CONTAINER_STOPPED_ERROR = "the workspace's container stopped while the agent ran (was its Docker engine restarted?)";
const RUNNER_KILLED_ERROR = 'the agent was killed inside its workspace before it exited (out of memory, or stopped by a command in the workspace)';
const TURN_FILES_GONE_ERROR = "the turn's files in the workspace are gone (was its home volume replaced?); send the message again to retry it";

/** When the workspace's container started, null when it is not running or its engine does not answer. */
export const containerStartedAt = (deps: Pick<AgentCliDeps, 'runtime'>, key: string) => deps.runtime.runningSince(key).catch(() => null);

/**
 * Whether the container that was running since `startedAt` has stopped (or restarted) since.
 * The agent's end can come a moment before the engine marks its killed container stopped, so a
 * container still running is asked again for a short while.
 */
async function stoppedSince(deps: Pick<AgentCliDeps, 'runtime'>, key: string, startedAt: string | null): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    if ((await containerStartedAt(deps, key)) !== startedAt) return true;
    if (attempt >= STOP_SETTLE_CHECKS) return false;
    await new Promise((resolve) => setTimeout(resolve, STOP_SETTLE_MS));
  }
}

/**
 * Runs the turn's CLI under the supervisor (or follows the one an earlier attempt started) and
 * ends the turn. Null when the turn was ended by another attempt meanwhile. Throws to hand the
 * turn over (this worker stops, or lost the turn's heartbeat) and when its output could not be
 * recorded; the next attempt follows the agent on from the records.
 */
export async function runAgentCli(deps: AgentCliDeps, ctx: Context, turn: ClaimedTurn, records: Pick<AgentTurnRecords, 'endTurn'>): Promise<TurnEnd | null> {
  const { replicaId, chatId, messageId, key } = turn;
  const dir = turnDir(messageId);
  // Not cancelled with the attempt: a start cut half-way would leave an agent nobody follows.
  const started = await startTurn(deps, turn, dir);
  const recorded = await deps.repos.replicaMessages.superviseTurn(replicaId, messageId, started.sid);
  if (recorded === null) return null;
  if (!started.fresh) deps.logger.info('an agent turn is taken over from where its records stop', { replicaId, messageId, recorded, attempt: ctx.info.attempt });

  const output = new TurnOutput(deps, turn, recorded);
  const handOver = deps.draining ? [deps.draining] : [];
  const followed = await follow(deps, key, dir, output, AbortSignal.any([ctx.cancellationSignal, output.interrupt.signal, ...handOver]));
  output.end();
  await output.settled();

  const cancelled = ctx.cancellationSignal.aborted && cancelReason(ctx) === 'CANCELLED';
  // This worker stops, or Temporal gave the turn to another attempt: the agent goes on.
  if (!cancelled && (ctx.cancellationSignal.aborted || deps.draining?.aborted || output.failure)) {
    // (An attempt that finds its turn taken over is one Temporal has given up on already: what
    // it throws is not heard.)
    const why = output.failure?.message ?? (ctx.cancellationSignal.aborted ? `the attempt was cancelled (${cancelReason(ctx)})` : 'the worker is stopping');
    throw ApplicationFailure.retryable(`the turn is handed over to the next attempt: ${why}`, 'TurnHandedOver');
  }
  // Stopped by the user, or because the turn cannot succeed: the agent is stopped here.
  if (cancelled || output.stopped) {
    await deps.runtime.killSession(key, started.sid).catch((err: unknown) => deps.logger.warn('could not stop an agent', { replicaId, err }));
  }
  const end = await turnEnd(deps, turn, output, cancelled, followed);
  // The answer a thread gets back (threads read it after the turn).
  if (output.result?.text) await deps.repos.replicaMessages.setReply(replicaId, messageId, output.result.text.slice(0, 100_000));
  if (end.status === 'failed') {
    const failure = output.stopReason ?? { code: 'agent_failed', error: end.error ?? 'the agent failed' };
    await deps.events.emit(replicaId, 'error', { code: failure.code, message: failure.error, agent: turn.agent, chatId, messageId });
  }
  const ended = await records.endTurn(replicaId, chatId, messageId, end);
  // The turn's files are of no more use once its end is recorded (a day-old leftover is removed
  // by a later start, should this worker be lost right here).
  if (ended && !(cancelled || output.stopped)) await deps.runtime.exec(key, { argv: forgetArgv(dir) }).catch(() => undefined);
  return ended ? end : null;
}

/** The SDK's reason for cancelling the attempt (`CANCELLED` when the workflow asked for it). */
const cancelReason = (ctx: Context) => (ctx.cancellationSignal.reason as Error | undefined)?.message;

/**
 * Starts the turn in the workspace, writing the agent's configuration files first when they are
 * stale, and the supervisor itself first into a container made from an image older than it.
 */
async function startTurn(deps: AgentCliDeps, turn: ClaimedTurn, dir: string): Promise<StartedTurn> {
  const { command } = turn;
  const argv = startArgv({ dir, cwd: turn.cwd, argv: command.argv, withStdin: command.stdin !== undefined, relayUpstream: deps.workspaceApiUrl });
  const start = async (checked: boolean) => {
    const said: { answer: StartedTurn | null; stale: boolean; stderr: string } = { answer: null, stale: false, stderr: '' };
    const { exitCode } = await deps.runtime.exec(turn.key, {
      argv: checked ? turn.filesCheck.argv(command.files, argv) : argv,
      // A warm-pool container was created before the replica: its per-replica variables come
      // with the exec, and the agent inherits them.
      env: { ...replicaEnvironment(deps, turn.row), ...command.env },
      stdin: command.stdin,
      cwd: SANDBOX_HOME,
      onStdoutLine: (line) => {
        if (line === turn.filesCheck.staleMarker) said.stale = true;
        else said.answer ??= parseStarted(line);
      },
      onStderr: (text) => (said.stderr = (said.stderr + text).slice(-4000)),
    });
    return { ...said, exitCode };
  };
  let started = await start(true);
  // The shell's "not found": the container predates the supervisor.
  if (started.exitCode === 127 && started.stderr.includes(TURN_SUPERVISOR)) {
    await deps.runtime.copyFromImage(turn.key, TURN_SUPERVISOR_PATH);
    started = await start(true);
  }
  if (started.stale) {
    await deps.runtime.writeFiles(turn.key, command.files);
    started = await start(false);
  }
  if (started.exitCode !== 0 || !started.answer) {
    throw new Error(`the turn could not be started in the workspace (hangar-turn start exited ${started.exitCode}): ${started.stderr.trim() || 'no answer'}`);
  }
  return started.answer;
}

type Followed = { end: FollowEnd } | { error: unknown };

/** Follows the turn's output from its start until it ends, or `signal` stops the following. */
async function follow(deps: AgentCliDeps, key: string, dir: string, output: TurnOutput, signal: AbortSignal): Promise<Followed> {
  let stderr = '';
  try {
    const { exitCode } = await deps.runtime.exec(key, {
      argv: followArgv(dir, 0),
      signal,
      onStdout: (chunk) => output.push(chunk),
      onStderr: (text) => (stderr = (stderr + text).slice(-8000)),
    });
    const end = parseFollowEnd(stderr);
    return end ? { end } : { error: new Error(`following the turn failed (hangar-turn follow exited ${exitCode}): ${stderr.trim() || 'no answer'}`) };
  } catch (error) {
    return { error };
  }
}

/** How the turn ended, from how its following ended. */
async function turnEnd(deps: AgentCliDeps, turn: ClaimedTurn, output: TurnOutput, cancelled: boolean, followed: Followed): Promise<TurnEnd> {
  const { key, agent, command } = turn;
  const { stopReason, result } = output;
  if (cancelled) return { status: 'interrupted', error: 'interrupted', sessionId: output.sessionId };
  // A CLI stopped on a refused credential did nothing the conversation needs, and was killed
  // perhaps before it wrote its new session: the chat keeps the one it had.
  if (stopReason) return { status: 'failed', error: stopReason.error, sessionId: stopReason.code === 'provider_refused' ? undefined : output.sessionId };
  if ('error' in followed) {
    // The container went away under the agent; anything else (its engine not answering) is
    // thrown, and the next attempt follows the turn again.
    if (await stoppedSince(deps, key, turn.startedAt)) return cut(agent, output, CONTAINER_STOPPED_ERROR);
    throw followed.error;
  }
  const { end } = followed;
  if (end.state === 'missing') return { status: 'interrupted', error: TURN_FILES_GONE_ERROR };
  // Killed with its runner: by the container stopping (an engine restart), or from inside it.
  if (end.state === 'lost') return cut(agent, output, (await stoppedSince(deps, key, turn.startedAt)) ? CONTAINER_STOPPED_ERROR : RUNNER_KILLED_ERROR);
  const ok = end.code === 0 && result?.ok !== false;
  if (ok) return { status: 'completed', error: null, sessionId: output.sessionId };
  return { status: 'failed', error: result?.error ?? exitError(agent, command.argv[0]!, end.code), sessionId: output.sessionId };
}

/**
 * A turn whose agent was killed mid-turn ends interrupted. A CLI that saves its session as it
 * goes and resumes one cut short (`resumesCutSessions`) leaves it to the chat, whose next message
 * continues where the agent stopped; any other CLI may not have saved it, so the chat keeps the
 * session it had.
 */
function cut(agent: AgentId, output: TurnOutput, why: string): TurnEnd {
  if (!AGENTS[agent].resumesCutSessions || !output.sessionId) return { status: 'interrupted', error: `${why}; send the message again to retry it` };
  return { status: 'interrupted', error: `${why}; its session is kept: the chat's next message continues where it stopped`, sessionId: output.sessionId, resumable: true };
}

/** Why a CLI that reported nothing failed; 127 is the shell's "command not found". */
function exitError(agent: AgentId, executable: string, exitCode: number): string {
  if (exitCode !== 127) return `the agent exited with code ${exitCode}`;
  const hint = agent === 'agent_3' ? ' (the Cursor CLI is in the image only when the operator supplies it: HANGAR_AGENT_3_BINARY, see docs/operations.md)' : '';
  return `the ${agent} CLI (${executable}) is not installed in this workspace's image${hint}`;
}
