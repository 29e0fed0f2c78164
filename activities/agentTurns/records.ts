/**
 * The records of an agent turn (activities/agentTurns/index.ts): how a claimed turn ends in the
 * database and on the events stream, why a turn may not start, and what an attempt finds of
 * an earlier one (a worker lost or stopped mid-turn).
 */
import type { AgentId } from '../../src/agents/catalog';
import { missingCredentialMessage } from '../../src/agents/credentials';
import type { MessageRow } from '../../src/db/replicaMessagesRepository';
import type { ReplicaRow } from '../../src/db/replicasRepository';
import { chatSummary, workspaceKey } from '../../src/domain/replicas';
import type { TurnResult } from '../../workflows/shared';
import type { WorkspaceActivityDeps } from '../workspace';

export type AgentTurnRecordDeps = Pick<WorkspaceActivityDeps, 'repos' | 'runtime' | 'events' | 'credentials' | 'logger' | 'agentExecutable'>;

export type TurnEnd = {
  status: 'completed' | 'failed' | 'interrupted';
  error: string | null;
  sessionId?: string;
  /** Cut short with `sessionId`, the agent's own, kept: the chat's next message continues it. */
  resumable?: boolean;
};

/** Only for a turn started before the supervisor: its agent ran in the lost worker's exec. */
const LOST_WORKER_ERROR = 'the worker running this turn was lost after the agent started; send the message again to retry it';

export function agentTurnRecords(deps: AgentTurnRecordDeps) {
  const { events } = deps;
  const { replicas, replicaChats, replicaMessages } = deps.repos;

  /**
   * Marks a claimed message ended, frees its chat and tells the events stream; false when the
   * message had ended already. The message and its chat change in one transaction: a reader in
   * between would see a turn ended in a chat that is still busy.
   */
  async function endTurn(replicaId: string, chatId: string, messageId: string, end: TurnEnd): Promise<boolean> {
    const ended = await deps.repos.transact(async (trx) => {
      if (!(await replicaMessages.finish(replicaId, messageId, end.status, end.error?.slice(0, 2000) ?? null, trx))) return false;
      await replicaChats.release(replicaId, chatId, end.sessionId, trx);
      await replicas.touch(replicaId, {}, trx);
      return true;
    });
    // Ended already (by another attempt of the turn): it was told then.
    if (!ended) return false;
    const chat = await replicaChats.findById(replicaId, chatId);
    await events.emit(replicaId, 'chat.turn.completed', { chatId, isComplete: end.status === 'completed' });
    await events.emit(replicaId, 'chat.updated', { chat: chat ? { ...chatSummary(chat), processing: false } : { id: chatId, processing: false } });
    return true;
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

  /**
   * What a turn's attempt finds of an earlier one (a worker lost or stopped mid-turn, or an
   * activity retried): the chat's running message, which it takes over (a chat runs one turn at
   * a time, so it is that attempt's message). Its agent, started under the supervisor, is followed
   * on where the records stop; one that had not started yet starts now. A message whose agent
   * ran in the lost worker's own exec (a turn from before the supervisor) cannot be followed:
   * that session is stopped and the turn ends interrupted, since running a prompt twice could
   * repeat what the agent already did.
   */
  async function takeOver(replicaId: string, chatId: string, claimedBefore: string | undefined): Promise<{ message: MessageRow } | { ended: TurnResult } | null> {
    const message = await replicaMessages.running(replicaId, chatId);
    if (!message) {
      // The earlier attempt ended its turn but its result never reached Temporal (its worker
      // stopped or died right after): that ending is this attempt's result. Claiming the next
      // message instead would report nothing for this one, and the run waiting on it would hang.
      const earlier = claimedBefore ? await replicaMessages.findById(replicaId, claimedBefore) : null;
      return earlier ? endingOf(earlier) : null;
    }
    if (message.output_offset !== null && message.output_offset !== undefined) return { message };
    if (message.agent_session === null || message.agent_session === undefined) return { message };
    const row = await replicas.find(replicaId);
    if (row) await deps.runtime.killSession(workspaceKey(row), message.agent_session).catch((err: unknown) => deps.logger.warn('could not stop a lost turn', { replicaId, err }));
    await endTurn(replicaId, chatId, message.id, { status: 'interrupted', error: LOST_WORKER_ERROR });
    deps.logger.warn('a turn lost with its worker ended interrupted', { replicaId, messageId: message.id });
    return { ended: { ran: true, messageId: message.id, ok: false, error: LOST_WORKER_ERROR, interrupted: true } };
  }

  /** An ended message as its turn's result; null while it is queued or running. */
  function endingOf(message: MessageRow): { ended: TurnResult } | null {
    if (message.status === 'queued' || message.status === 'running') return null;
    const ok = message.status === 'completed';
    return { ended: { ran: true, messageId: message.id, ok, error: ok ? null : (message.error ?? message.status).slice(0, 2000), ...(message.status === 'interrupted' ? { interrupted: true } : {}) } };
  }

  return { endTurn, turnRefusal, takeOver, endingOf };
}

export type AgentTurnRecords = ReturnType<typeof agentTurnRecords>;
