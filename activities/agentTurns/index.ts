/**
 * Agent turns: claim a chat's next queued message, run the agent's CLI on it in the workspace
 * container under the in-workspace supervisor, stream its events, and end the turn in the
 * record. A turn outlives the worker that started it: the next attempt (Temporal's retry after a
 * lost heartbeat, or after a stopping worker handed it over) takes the running message over and
 * follows the same agent on. Also the ends of turns that went wrong outside the agent: a host
 * lost with its turns (`interruptRunningTurns`) and a turn activity that failed for good
 * (`failRunningTurn`).
 */
import { Context } from '@temporalio/activity';
import { adapterFor } from '../../src/agents/adapters';
import type { AgentId } from '../../src/agents/catalog';
import { sealedField } from '../../src/crypto/sealedFields';
import type { ReplicaRow } from '../../src/db/replicasRepository';
import { gatewayKey } from '../../src/domain/gatewayKey';
import { checkedArgv, STALE_FILES_MARKER } from '../../src/worker/agentFiles';
import { agentSettings } from '../../src/worker/environmentSetup';
import { pluginMcpServers } from '../../src/worker/plugins';
import type { TurnResult } from '../../workflows/shared';
import { chatSummary, workspaceKey } from '../../src/domain/replicas';
import type { MessageRow } from '../../src/db/replicaMessagesRepository';
import { relayedGatewayUrl } from '../../src/sandbox/workspace/turnSupervisor';
import type { CredentialResolver, WorkspaceActivityDeps } from '../workspace';
import { CONTAINER_STOPPED_ERROR, containerStartedAt, runAgentCli } from './cli';
import { agentTurnRecords, type TurnEnd } from './records';

export type AgentTurnDeps = Pick<WorkspaceActivityDeps, 'repos' | 'secretBox' | 'runtime' | 'events' | 'credentials' | 'logger' | 'agentExecutable' | 'agentIdleTimeoutMs' | 'workspaceApiUrl' | 'draining'>;

const HEARTBEAT_MS = 5000;

/** How long a turn may run, over all its attempts: the agent is stopped then. */
export const TURN_LIMIT_MS = 2 * 60 * 60 * 1000;

/** What a turn's heartbeats carry, for an attempt that takes the turn over. */
interface TurnHeartbeat {
  messageId: string;
  /** When the workspace's container started, as the turn's first attempt found it. */
  startedAt?: string | null;
}

export function createAgentTurnActivities(deps: AgentTurnDeps) {
  const { events } = deps;
  const { replicas, replicaChats, replicaMessages } = deps.repos;
  const records = agentTurnRecords(deps);
  const { endTurn } = records;

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
   * Runs the chat's turn: the one an earlier attempt was running (followed on from the records),
   * else the next queued message. Each heartbeat carries the message's id and when its container
   * started, for the attempt that may take the turn over.
   */
  async function runAgentTurn({ replicaId, chatId }: { replicaId: string; chatId: string }): Promise<TurnResult> {
    const ctx = Context.current();
    const earlier = ctx.info.heartbeatDetails as TurnHeartbeat | undefined;
    const taken = await records.takeOver(replicaId, chatId, earlier?.messageId);
    if (taken && 'ended' in taken) return taken.ended;
    // A container that is not running (its engine restarted, see workspace/reconciler.ts)
    // takes no new turn: the message stays queued for when the workflow has started it again.
    // A turn taken over follows its agent, or finds it gone with its container.
    const before = await replicas.find(replicaId);
    const runningSince = before ? await containerStartedAt(deps, workspaceKey(before)) : null;
    if (before && runningSince === null && !taken) {
      deps.logger.warn('a turn waits: the workspace container is not running', { replicaId, chatId });
      return { ran: false, containerDown: true };
    }
    // Taken over with its container stopped (a host rebooted under the worker): its agent went
    // with the container. Ended now, so the workflow starts the container again without waiting
    // on it; an engine that does not answer is asked again by the next attempt.
    if (taken && before && runningSince === null && (await deps.runtime.state(workspaceKey(before))) !== 'running') {
      const end: TurnEnd = { status: 'interrupted', error: `${CONTAINER_STOPPED_ERROR}; send the message again to retry it` };
      const ended = await endTurn(replicaId, chatId, taken.message.id, end);
      return ended ? { ran: true, messageId: taken.message.id, ok: false, error: end.error, interrupted: true } : endedElsewhere(replicaId, taken.message.id);
    }
    const claimed = taken?.message ?? (await replicaMessages.claimNext(replicaId, chatId));
    if (!claimed) {
      await replicaChats.clearProcessing(replicaId, chatId);
      return { ran: false };
    }
    const startedAt = taken && earlier?.messageId === claimed.id && earlier.startedAt !== undefined ? earlier.startedAt : runningSince;
    const beat: TurnHeartbeat = { messageId: claimed.id, startedAt };
    ctx.heartbeat(beat);
    const heartbeat = setInterval(() => ctx.heartbeat(beat), HEARTBEAT_MS);
    try {
      const end = await runClaimed(ctx, replicaId, chatId, claimed, { announce: !taken, startedAt });
      if (end === null) return endedElsewhere(replicaId, claimed.id);
      return {
        ran: true,
        messageId: claimed.id,
        ok: end.status === 'completed',
        error: end.error?.slice(0, 2000) ?? null,
        ...(end.status === 'interrupted' ? { interrupted: true } : {}),
        ...(end.resumable ? { resumable: true } : {}),
      };
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The result of a turn another attempt ended meanwhile, as that attempt recorded it. */
  async function endedElsewhere(replicaId: string, messageId: string): Promise<TurnResult> {
    const message = await replicaMessages.findById(replicaId, messageId);
    const ending = message ? records.endingOf(message) : null;
    if (!ending) throw new Error(`the turn of message ${messageId} was neither running nor ended`);
    return ending.ended;
  }

  /** The claimed (or taken over) message's turn, to its end; null when another attempt ended it. */
  async function runClaimed(ctx: Context, replicaId: string, chatId: string, claimed: MessageRow, attempt: { announce: boolean; startedAt: string | null }): Promise<TurnEnd | null> {
    const [found, foundChat] = await Promise.all([replicas.find(replicaId), replicaChats.findById(replicaId, chatId)]);
    const row = found!;
    const chat = foundChat!;
    const agent = claimed.coding_agent as AgentId;
    const adapter = adapterFor(agent, { executableOverride: deps.agentExecutable });
    const announceStart = async () => {
      if (!attempt.announce) return;
      await events.emit(replicaId, 'chat.updated', { chat: { ...chatSummary(chat), processing: true } });
      await events.emit(replicaId, 'chat.turn.started', { chatId, messageId: claimed.id });
    };
    // What the turn needs is read while its start is announced: each is a round trip. A turn
    // taken over was allowed when it started, and its agent runs.
    const [refused, settings] = await Promise.all([attempt.announce ? records.turnRefusal(row, agent) : null, settingsOf(row), announceStart()]);
    if (refused) {
      await events.emit(replicaId, 'error', { code: refused.code, message: refused.error, agent, chatId, messageId: claimed.id });
      const end: TurnEnd = { status: 'failed', error: refused.error };
      return (await endTurn(replicaId, chatId, claimed.id, end)) ? end : null;
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
      // The CLI reaches its provider through the gateway with this workspace's placeholder key,
      // by the supervisor's relay, which holds its calls while Hangar cannot be reached.
      gateway: { baseUrl: relayedGatewayUrl(agent), key: gatewayKey(row.id, deps.secretBox.open(row.engine_secret_sealed!, sealedField('replicas', 'engine_secret_sealed', row.id))) },
      settings,
    });
    const filesCheck = { argv: checkedArgv, staleMarker: STALE_FILES_MARKER };
    // The turn's time limit counts from when it first started, whichever attempt follows it.
    const deadline = (claimed.started_at ? new Date(claimed.started_at).getTime() : Date.now()) + TURN_LIMIT_MS;
    const turn = { replicaId, chatId, messageId: claimed.id, agent, adapter, command, row, key: workspaceKey(row), cwd, startedAt: attempt.startedAt, filesCheck, deadline };
    return runAgentCli(deps, ctx, turn, records);
  }

  return {
    runAgentTurn,
    /** The name histories from before the supervisor schedule (issue 32): the same turn. */
    runNextTurn: runAgentTurn,

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

    /**
     * Ends the chat's running turn as failed when its activity failed for good (timed out, or
     * its worker lost on every attempt), so the chat takes its next message. The message id, or
     * null when no turn was running.
     */
    async failRunningTurn({ replicaId, chatId, error }: { replicaId: string; chatId: string; error: string }): Promise<{ messageId: string | null }> {
      const running = await replicaMessages.running(replicaId, chatId);
      // Its agent may run on in the workspace: it is stopped, where this worker reaches it.
      const row = running?.agent_session ? await replicas.find(replicaId) : null;
      if (row) await deps.runtime.killSession(workspaceKey(row), running!.agent_session!).catch((err: unknown) => deps.logger.warn('could not stop the agent of a failed turn', { replicaId, err }));
      if (running) await endTurn(replicaId, chatId, running.id, { status: 'failed', error });
      else await replicaChats.clearProcessing(replicaId, chatId);
      await events.emit(replicaId, 'error', { code: 'turn_failed', message: error, chatId, messageId: running?.id ?? null });
      return { messageId: running?.id ?? null };
    },
  };
}

export type AgentTurnActivities = ReturnType<typeof createAgentTurnActivities>;
export type { CredentialResolver };
