/**
 * What a workspace's work leaves to read later: the agent's events per chat
 * (`replica_agent_events`, the history) and the hook runs (`replica_hook_logs`).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

export interface AgentEventRow {
  id: string;
  message_id: string | null;
  timestamp: Date;
  type: string;
  payload: unknown;
}

export interface HookLogRow {
  kind: 'warm' | 'start';
  hook_type: string;
  hook_name: string;
  script: string;
  output: string;
  output_total_chars: number;
  exit_code: number | null;
  timed_out: boolean;
  executed_at: Date;
}

/** A hook run to record; `executed_at` defaults to now. */
export type NewHookLog = Omit<HookLogRow, 'executed_at'> & { executed_at?: string | Date };

export function createReplicaLogsRepository(db: Knex) {
  const events = (replicaId: string, chatId: string, trx: Knex) => trx('replica_agent_events').where({ replica_id: replicaId, chat_id: chatId });

  return {
    async appendAgentEvent(event: { replicaId: string; chatId: string; messageId: string; timestamp: string; type: string; payload: unknown }, trx: Knex = db): Promise<void> {
      await trx('replica_agent_events').insert({
        replica_id: event.replicaId,
        chat_id: event.chatId,
        message_id: event.messageId,
        timestamp: event.timestamp,
        type: event.type,
        payload: JSON.stringify(event.payload),
      });
    },

    async countAgentEvents(replicaId: string, chatId: string, trx: Knex = db): Promise<number> {
      const [{ total }] = (await events(replicaId, chatId, trx).count({ total: '*' })) as [{ total: string | number }];
      return Number(total);
    },

    /** A page counted back from the newest event, oldest first. */
    async agentEventsFromNewest(replicaId: string, chatId: string, page: { offset: number; limit: number }, trx: Knex = db): Promise<AgentEventRow[]> {
      const newestFirst = (await events(replicaId, chatId, trx)
        .orderBy('id', 'desc')
        .offset(page.offset)
        .limit(page.limit)
        .select('id', 'message_id', 'timestamp', 'type', 'payload')) as AgentEventRow[];
      return newestFirst.reverse();
    },

    /** The chat's newest events of one type, newest first. */
    async newestAgentEvents(replicaId: string, chatId: string, type: string, limit: number, trx: Knex = db): Promise<AgentEventRow[]> {
      return (await events(replicaId, chatId, trx).where({ type }).orderBy('id', 'desc').limit(limit).select('id', 'message_id', 'timestamp', 'type', 'payload')) as AgentEventRow[];
    },

    async insertHookLogs(replicaId: string, logs: NewHookLog[], trx: Knex = db): Promise<void> {
      if (logs.length === 0) return;
      await trx('replica_hook_logs').insert(logs.map((log) => ({ ...log, id: randomUUID(), replica_id: replicaId })));
    },

    async hookLogs(replicaId: string, kind?: HookLogRow['kind'], trx: Knex = db): Promise<HookLogRow[]> {
      return (await trx('replica_hook_logs')
        .where({ replica_id: replicaId, ...(kind ? { kind } : {}) })
        .orderBy([{ column: 'executed_at' }, { column: 'id' }])) as HookLogRow[];
    },
  };
}

export type ReplicaLogsRepository = ReturnType<typeof createReplicaLogsRepository>;
