/**
 * Agent turns: claim a chat's next queued message, run the agent's CLI on it in the workspace
 * container, stream its events, and end the turn in the record. Also the ends of turns that
 * went wrong outside the agent: a worker lost mid-turn (the retried activity finds the message
 * its first attempt had claimed, and the agent session recorded on it) and a turn activity that
 * failed for good (`failRunningTurn`).
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
import type { CredentialResolver, WorkspaceActivityDeps } from '../workspace';
import { containerStartedAt, runAgentCli } from './cli';
import { agentTurnRecords } from './records';

export type AgentTurnDeps = Pick<WorkspaceActivityDeps, 'repos' | 'secretBox' | 'runtime' | 'events' | 'credentials' | 'logger' | 'agentExecutable' | 'agentIdleTimeoutMs' | 'workspaceApiUrl'>;

const HEARTBEAT_MS = 5000;

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

  return {
    async runNextTurn({ replicaId, chatId }: { replicaId: string; chatId: string }): Promise<TurnResult> {
      const ctx = Context.current();
      // Each heartbeat carries the claimed message's id, so a retry knows which turn it continues.
      const claimedBefore = (ctx.info.heartbeatDetails as { messageId?: string } | undefined)?.messageId;
      const resumed = ctx.info.attempt > 1 ? await records.resumeLost(replicaId, chatId, claimedBefore) : null;
      if (resumed && 'ended' in resumed) return resumed.ended;
      // A container that is not running (its engine restarted, see workspace/reconciler.ts)
      // takes no turn: the message stays queued for when the workflow has started it again.
      const before = await replicas.find(replicaId);
      const startedAt = before ? await containerStartedAt(deps, workspaceKey(before)) : null;
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
      const [refused, settings] = await Promise.all([records.turnRefusal(row, agent), settingsOf(row), announceStart()]);
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
      const filesCheck = { argv: checkedArgv, staleMarker: STALE_FILES_MARKER };
      const turn = { replicaId, chatId, messageId: claimed.id, agent, adapter, command, row, key: workspaceKey(row), cwd, startedAt, filesCheck, heartbeat };
      const end = await runAgentCli(deps, ctx, turn, records);
      return { ran: true, messageId: claimed.id, ok: end.status === 'completed', error: end.error?.slice(0, 2000) ?? null, ...(end.status === 'interrupted' ? { interrupted: true } : {}) };
    },

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
      if (running) await endTurn(replicaId, chatId, running.id, { status: 'failed', error });
      else await replicaChats.clearProcessing(replicaId, chatId);
      await events.emit(replicaId, 'error', { code: 'turn_failed', message: error, chatId, messageId: running?.id ?? null });
      return { messageId: running?.id ?? null };
    },
  };
}

export type AgentTurnActivities = ReturnType<typeof createAgentTurnActivities>;
export type { CredentialResolver };
