/**
 * Agent turns: claim a chat's next queued message, run the agent's CLI on it in the workspace
 * container, stream its events, and end the turn in the record. Also the ends of turns that
 * went wrong outside the agent: a worker lost mid-turn (the retried activity finds the message
 * its first attempt had claimed, and the agent session recorded on it) and a turn activity that
 * failed for good (`failRunningTurn`).
 */
import { Context } from '@temporalio/activity';
import { adapterFor } from '../src/agents/adapters';
import type { AgentId } from '../src/agents/catalog';
import { missingCredentialMessage } from '../src/agents/credentials';
import { sealedField } from '../src/crypto/sealedFields';
import type { MessageRow } from '../src/db/replicaMessagesRepository';
import type { ReplicaRow } from '../src/db/replicasRepository';
import { gatewayKey } from '../src/domain/gatewayKey';
import { checkedArgv, STALE_FILES_MARKER } from '../src/worker/agentFiles';
import { agentSettings } from '../src/worker/environmentSetup';
import { pluginMcpServers } from '../src/worker/plugins';
import type { TurnResult } from '../workflows/shared';
import { chatSummary, workspaceKey } from '../src/domain/replicas';
import { replicaEnvironment, type CredentialResolver, type WorkspaceActivityDeps } from './workspace';

export type AgentTurnDeps = Pick<WorkspaceActivityDeps, 'repos' | 'secretBox' | 'runtime' | 'events' | 'credentials' | 'logger' | 'agentExecutable' | 'agentIdleTimeoutMs' | 'workspaceApiUrl'>;

const HEARTBEAT_MS = 5000;
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
const LOST_WORKER_ERROR = 'the worker running this turn was lost after the agent started; send the message again to retry it';

type TurnEnd = { status: 'completed' | 'failed' | 'interrupted'; error: string | null; sessionId?: string };

export function createAgentTurnActivities(deps: AgentTurnDeps) {
  const { events } = deps;
  const { replicas, replicaChats, replicaMessages, replicaLogs } = deps.repos;

  /** Marks a claimed message ended, frees its chat and tells the events stream. */
  async function endTurn(replicaId: string, chatId: string, messageId: string, end: TurnEnd): Promise<void> {
    await replicaMessages.finish(replicaId, messageId, end.status, end.error?.slice(0, 2000) ?? null);
    await replicaChats.release(replicaId, chatId, end.sessionId);
    await replicas.touch(replicaId);
    const chat = await replicaChats.findById(replicaId, chatId);
    await events.emit(replicaId, 'chat.turn.completed', { chatId, isComplete: end.status === 'completed' });
    await events.emit(replicaId, 'chat.updated', { chat: chat ? { ...chatSummary(chat), processing: false } : { id: chatId, processing: false } });
  }

  /**
   * Why a turn cannot start, or null. A real CLI needs a credential behind the gateway: without
   * one the turn fails at once and says how to add it (the test agent needs none).
   */
  async function turnRefusal(row: ReplicaRow, agent: AgentId): Promise<{ code: string; error: string } | null> {
    if (!row.engine_secret_sealed) return { code: 'workspace_unusable', error: 'this workspace has no engine secret to reach the AI gateway with' };
    if (deps.agentExecutable) return null;
    const owner = { organizationId: row.organization_id, userId: row.user_id, agent };
    return (await deps.credentials.hasCredential(owner)) ? null : { code: 'missing_credential', error: missingCredentialMessage(agent) };
  }

  /** The agent settings of the workspace's environment (the Global one when it has none). */
  async function settingsOf(row: ReplicaRow) {
    let environmentId = row.environment_id;
    if (!environmentId) {
      const global = await deps.repos.environments.findGlobal(row.organization_id);
      if (!global) throw new Error('the organization has no Global environment');
      environmentId = global.id;
    }
    // The environment's servers and the workspace's plugins (`hangar-…`, a name no environment server may take).
    const [settings, plugins] = await Promise.all([agentSettings(deps, row.organization_id, environmentId), pluginMcpServers(deps, row)]);
    return { ...settings, mcpServers: { ...settings.mcpServers, ...plugins } };
  }

  /**
   * A retry after the worker running this turn was lost: the message its first attempt had
   * claimed (a chat runs one turn at a time, so it is the chat's running message). When no
   * agent session was recorded on it, the agent never started and the message simply runs
   * here; when one was, that session is stopped and the turn ends interrupted, since running a
   * prompt twice could repeat what the agent already did.
   */
  async function resumeLost(replicaId: string, chatId: string, claimedBefore: string | undefined): Promise<{ message: MessageRow } | { ended: TurnResult } | null> {
    const message = await replicaMessages.running(replicaId, chatId);
    if (!message) {
      // The earlier attempt ended its turn but its result never reached Temporal (its worker
      // stopped or died right after): that ending is this attempt's result. Claiming the next
      // message instead would report nothing for this one, and the run waiting on it would hang.
      const earlier = claimedBefore ? await replicaMessages.findById(replicaId, claimedBefore) : null;
      if (!earlier || earlier.status === 'queued' || earlier.status === 'running') return null;
      const ok = earlier.status === 'completed';
      return { ended: { ran: true, messageId: earlier.id, ok, error: ok ? null : (earlier.error ?? earlier.status).slice(0, 2000), ...(earlier.status === 'interrupted' ? { interrupted: true } : {}) } };
    }
    if (message.agent_session === null || message.agent_session === undefined) return { message };
    const row = await replicas.find(replicaId);
    if (row) await deps.runtime.killSession(workspaceKey(row), message.agent_session).catch((err: unknown) => deps.logger.warn('could not stop a lost turn', { replicaId, err }));
    await endTurn(replicaId, chatId, message.id, { status: 'interrupted', error: LOST_WORKER_ERROR });
    deps.logger.warn('a turn lost with its worker ended interrupted', { replicaId, messageId: message.id });
    return { ended: { ran: true, messageId: message.id, ok: false, error: LOST_WORKER_ERROR, interrupted: true } };
  }

  /** When the workspace's container started, null when it is not running or its engine does not answer. */
  const containerStartedAt = (key: string) => deps.runtime.runningSince(key).catch(() => null);
  /**
   * Whether the container that was running since `startedAt` has stopped (or restarted) since.
   * The agent's exec can end a moment before the engine marks its killed container stopped, so
   * a container still running is asked again for a short while.
   */
  const stoppedSince = async (key: string, startedAt: string | null) => {
    for (let attempt = 0; ; attempt++) {
      if ((await containerStartedAt(key)) !== startedAt) return true;
      if (attempt >= STOP_SETTLE_CHECKS) return false;
      await new Promise((resolve) => setTimeout(resolve, STOP_SETTLE_MS));
    }
  };

  return {
    async runNextTurn({ replicaId, chatId }: { replicaId: string; chatId: string }): Promise<TurnResult> {
      const ctx = Context.current();
      // Each heartbeat carries the claimed message's id, so a retry knows which turn it continues.
      const claimedBefore = (ctx.info.heartbeatDetails as { messageId?: string } | undefined)?.messageId;
      const resumed = ctx.info.attempt > 1 ? await resumeLost(replicaId, chatId, claimedBefore) : null;
      if (resumed && 'ended' in resumed) return resumed.ended;
      // A container that is not running (its engine restarted, see workspace/reconciler.ts)
      // takes no turn: the message stays queued for when the workflow has started it again.
      const before = await replicas.find(replicaId);
      const startedAt = before ? await containerStartedAt(workspaceKey(before)) : null;
      if (before && startedAt === null) {
        deps.logger.warn('a turn waits: the workspace container is not running', { replicaId, chatId });
        return { ran: false, containerDown: true };
      }
      const claimed = resumed?.message ?? (await replicaMessages.claimNext(replicaId, chatId));
      if (!claimed) {
        await replicaChats.clearProcessing(replicaId, chatId);
        return { ran: false };
      }
      ctx.heartbeat({ messageId: claimed.id });
      const heartbeat = setInterval(() => ctx.heartbeat({ messageId: claimed.id }), HEARTBEAT_MS);
      // Written before anything else may fail, and awaited before the turn ends.
      let sessionSaved: Promise<unknown> = Promise.resolve();

      const [found, foundChat] = await Promise.all([replicas.find(replicaId), replicaChats.findById(replicaId, chatId)]);
      const row = found!;
      const chat = foundChat!;
      const agent = claimed.coding_agent as AgentId;
      const adapter = adapterFor(agent, { executableOverride: deps.agentExecutable });
      const announceStart = async () => {
        await events.emit(replicaId, 'chat.updated', { chat: { ...chatSummary(chat), processing: true } });
        await events.emit(replicaId, 'chat.turn.started', { chatId, messageId: claimed.id });
      };
      // What the turn needs is read while its start is announced: each is a round trip.
      const [refused, settings] = await Promise.all([turnRefusal(row, agent), settingsOf(row), announceStart()]);
      if (refused) {
        clearInterval(heartbeat);
        await events.emit(replicaId, 'error', { code: refused.code, message: refused.error, agent, chatId, messageId: claimed.id });
        await endTurn(replicaId, chatId, claimed.id, { status: 'failed', error: refused.error });
        return { ran: true, messageId: claimed.id, ok: false, error: refused.error };
      }
      const options = claimed.options ?? {};
      const cwd = row.repositories[0] ? `/home/hangar/workspaces/${row.repositories[0].name}` : '/home/hangar';
      const command = adapter.command({
        prompt: claimed.content,
        model: claimed.model,
        thinkingLevel: options.thinking_level ?? row.thinking_level,
        planMode: !!options.plan_mode,
        goalMode: !!options.goal_mode,
        fastMode: !!options.fast_mode,
        chatId,
        resumeSessionId: chat.agent_session_id ?? null,
        cwd,
        // The CLI reaches its provider through the gateway with this workspace's placeholder key.
        gateway: { baseUrl: `${deps.workspaceApiUrl}/v1/ai-gateway/${agent}`, key: gatewayKey(row.id, deps.secretBox.open(row.engine_secret_sealed!, sealedField('replicas', 'engine_secret_sealed', row.id))) },
        settings,
      });
      const key = workspaceKey(row);

      let result: { ok: boolean; sessionId?: string; text?: string; error?: string } | undefined;
      // Saved as soon as any line names it, so an interrupted turn can still be resumed.
      let sessionId: string | undefined;
      let pending = Promise.resolve();
      let exit: { exitCode: number; timedOut: boolean } = { exitCode: -1, timedOut: false };
      let end: TurnEnd = { status: 'failed', error: null };
      // Aborted when the agent's output shows the turn cannot succeed (a refused credential
      // the CLI would otherwise retry for minutes), or when it has printed nothing for the
      // idle limit (a provider stalled mid-answer: CLIs wait for minutes, then retry).
      const stopper = new AbortController();
      let stopReason: { code: string; error: string } | undefined;
      const stop = (reason: { code: string; error: string }) => {
        if (stopper.signal.aborted) return;
        result = { ok: false, sessionId, error: reason.error };
        stopReason = reason;
        stopper.abort(new Error(reason.error));
      };
      const idleSeconds = Math.round(deps.agentIdleTimeoutMs / 1000);
      const watchdog = new IdleTimer(deps.agentIdleTimeoutMs, () =>
        stop({ code: 'agent_stalled', error: `the agent printed nothing for ${idleSeconds} s (its model provider may have stalled); the turn was stopped` }),
      );
      // Set when the exec's check found the configuration files missing or different.
      let staleFiles = false;
      // Set when the container stopped (or its engine went away) while the agent ran.
      let containerStopped = false;
      // The CLI's exec session, to make sure a stopped CLI is gone before the turn ends.
      let execSession: number | undefined;
      const runCli = (argv: string[]) =>
        deps.runtime.exec(key, {
          argv,
          // A warm-pool container was created before the replica: its per-replica
          // variables come with each exec.
          env: { ...replicaEnvironment(deps, row), ...command.env },
          stdin: command.stdin,
          cwd,
          signal: AbortSignal.any([ctx.cancellationSignal, stopper.signal]),
          onSession: (id) => {
            execSession = id;
            // Sent now (awaiting a knex builder runs it) and handled now: nothing awaits it until
            // the turn ends, and a rejection nobody handles yet would end the worker process.
            sessionSaved = persistently(() => replicaMessages.setAgentSession(replicaId, claimed.id, id)).catch((err: unknown) =>
              deps.logger.warn('could not record a turn\'s agent session', { replicaId, err }),
            );
          },
          onStdoutLine: (line) => {
            watchdog.reset();
            if (line === STALE_FILES_MARKER) return void (staleFiles = true);
            const parsed = adapter.parse(line);
            if (parsed.result) result = parsed.result;
            if (parsed.stop) stop({ code: 'provider_refused', error: parsed.stop.error ?? 'the agent was stopped' });
            sessionId = parsed.sessionId ?? parsed.result?.sessionId ?? sessionId;
            // Keep the events in order: each line's writes wait for the previous line's.
            // Nothing awaits the chain until the agent exits, so a write that fails for good is
            // logged here: an unhandled rejection would end the worker process.
            pending = pending
              .then(async () => {
                for (const event of parsed.events) {
                  // History and the stream are separate tables: both writes go out together.
                  await Promise.all([
                    persistently(() => replicaLogs.appendAgentEvent({ replicaId, chatId, messageId: claimed.id, timestamp: event.timestamp, type: event.type, payload: event.payload })),
                    persistently(() => events.emit(replicaId, 'chat.turn.delta', { chatId, event })),
                  ]);
                }
              })
              .catch((err: unknown) => deps.logger.warn('could not record an agent event', { replicaId, err }));
          },
        });
      try {
        exit = await runCli(checkedArgv(command.files, command.argv));
        if (staleFiles) {
          await deps.runtime.writeFiles(key, command.files);
          exit = await runCli(command.argv);
        }
      } catch (err) {
        // The container went away under the agent: the turn ends interrupted below.
        if (!stopper.signal.aborted && !ctx.cancellationSignal.aborted && (containerStopped = await stoppedSince(key, startedAt))) {
          deps.logger.warn('the workspace container stopped while the agent ran', { replicaId, err });
        } else if (!stopper.signal.aborted || ctx.cancellationSignal.aborted) throw err;
        // Stopped on purpose: the turn ends failed below with the agent's reason.
        // The exec gives up waiting after a grace period; the next turn must not meet the old CLI
        // (still retrying, holding its session) in the same workspace.
        else if (execSession !== undefined) await deps.runtime.killSession(key, execSession).catch((e: unknown) => deps.logger.warn('could not stop an agent', { replicaId, err: e }));
      } finally {
        watchdog.clear();
        clearInterval(heartbeat);
        await pending;
        await sessionSaved;
        // An agent that failed as its container stopped was cut by the platform, not by its work.
        if (!containerStopped && exit.exitCode !== 0 && !stopper.signal.aborted && !ctx.cancellationSignal.aborted) containerStopped = await stoppedSince(key, startedAt);
        const interrupted = ctx.cancellationSignal.aborted || containerStopped;
        // The SDK cancels running activities with this reason once the shutdown grace period is over.
        const shutdown = interrupted && (ctx.cancellationSignal.reason as Error | undefined)?.message === 'WORKER_SHUTDOWN';
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
          sessionId: stopReason?.code === 'provider_refused' || shutdown || containerStopped ? undefined : sessionId,
        };
        // Every failed turn says why on the events stream, as well as on its message.
        if (end.status === 'failed') {
          const failure = stopReason ?? { code: 'agent_failed', error: end.error ?? 'the agent failed' };
          await events.emit(replicaId, 'error', { code: failure.code, message: failure.error, agent, chatId, messageId: claimed.id });
        }
        // The answer a thread gets back (threads read it after the turn).
        if (result?.text) await replicaMessages.setReply(replicaId, claimed.id, result.text.slice(0, 100_000));
        await endTurn(replicaId, chatId, claimed.id, end);
      }
      return { ran: true, messageId: claimed.id, ok: end.status === 'completed', error: end.error?.slice(0, 2000) ?? null, ...(end.status === 'interrupted' ? { interrupted: true } : {}) };
    },

    /**
     * Ends the chat's running turn as failed when its activity failed for good (timed out, or
     * its worker lost on every attempt), so the chat takes its next message. The message id, or
     * null when no turn was running.
     */
    /**
     * Every turn of the replica still marked running ends interrupted: their host was lost with
     * them (the workspace moves on, so no attempt will end them). Answers what was ended.
     */
    async interruptRunningTurns({ replicaId, error }: { replicaId: string; error: string }): Promise<Array<{ chatId: string; messageId: string }>> {
      const running: Array<{ id: string; chat_id: string }> = await replicaMessages.allRunning(replicaId);
      for (const message of running) {
        await endTurn(replicaId, message.chat_id, message.id, { status: 'interrupted', error });
        await events.emit(replicaId, 'error', { code: 'turn_interrupted', message: error, chatId: message.chat_id, messageId: message.id });
      }
      return running.map((m) => ({ chatId: m.chat_id, messageId: m.id }));
    },

    async failRunningTurn({ replicaId, chatId, error }: { replicaId: string; chatId: string; error: string }): Promise<{ messageId: string | null }> {
      const running = await replicaMessages.running(replicaId, chatId);
      if (running) await endTurn(replicaId, chatId, running.id, { status: 'failed', error });
      else await replicaChats.clearProcessing(replicaId, chatId);
      await events.emit(replicaId, 'error', { code: 'turn_failed', message: error, chatId, messageId: running?.id ?? null });
      return { messageId: running?.id ?? null };
    },
  };
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

export type AgentTurnActivities = ReturnType<typeof createAgentTurnActivities>;
export type { CredentialResolver };
