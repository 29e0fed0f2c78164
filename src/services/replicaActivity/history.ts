/**
 * A chat's agent history, paged backwards from the newest event (interop §4.11), and the
 * workspace's hook logs (interop §4.12).
 */
import type { Knex } from 'knex';
import { notFound } from '../../domain/errors';
import type { Actor } from '../../domain/actor';
import { accessReplica, type ReplicaRow } from '../replicas/access';
import type { ChatRow } from './chatRows';

export interface HistoryQuery {
  chat_id?: string;
  limit: number;
  offset: number;
}

interface AgentEventRow {
  id: string;
  message_id: string | null;
  timestamp: Date;
  type: string;
  payload: unknown;
}

interface HookLogRow {
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

/** Warm entries carry the script; start entries its commands (and the deprecated `repoName`). */
export function serializeHookLog(row: HookLogRow) {
  const head =
    row.kind === 'warm'
      ? { hookType: row.hook_type, hookName: row.hook_name, hookScript: row.script }
      : {
          hookType: row.hook_type,
          hookName: row.hook_name,
          repoName: row.hook_type === 'repository' ? row.hook_name : null,
          hookCommands: row.script.split('\n').filter((line) => line.trim() !== ''),
        };
  return {
    ...head,
    output: row.output,
    outputTruncated: row.output_total_chars > row.output.length,
    outputTotalChars: row.output_total_chars,
    exitCode: row.exit_code,
    timedOut: row.timed_out,
    executedAt: row.executed_at.toISOString(),
  };
}

export function createHistoryService(deps: { db: Knex; wakeIfAsleep: (row: ReplicaRow) => Promise<boolean> }) {
  const { db, wakeIfAsleep } = deps;

  return {
    async history(actor: Actor, replicaId: string, query: HistoryQuery) {
      const replica = await accessReplica(db, actor, replicaId);
      const chats = db<ChatRow>('replica_chats').where({ replica_id: replica.id }).whereNull('deleted_at');
      const chat = (query.chat_id
        ? await chats.where({ id: query.chat_id }).first()
        : await chats.orderBy([{ column: 'updated_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first()) as ChatRow | undefined;
      if (query.chat_id && !chat) throw notFound('Chat');
      const waking = await wakeIfAsleep(replica);
      const base = { coding_agent: chat?.provider ?? replica.coding_agent, waking };
      if (!chat) return { thread_id: null, events: [], total: 0, has_more: false, ...base, senders: [] };

      const [{ total }] = (await db('replica_agent_events').where({ replica_id: replica.id, chat_id: chat.id }).count({ total: '*' })) as [{ total: string | number }];
      const newestFirst = (await db('replica_agent_events')
        .where({ replica_id: replica.id, chat_id: chat.id })
        .orderBy('id', 'desc')
        .offset(query.offset)
        .limit(query.limit)
        .select('id', 'message_id', 'timestamp', 'type', 'payload')) as AgentEventRow[];
      const page = newestFirst.reverse();

      // Who sent the messages this page shows: those its events belong to, and any sent
      // while it was being recorded (events need not carry a message id).
      let senders: Array<{ senderUserId: string | null; senderEmail: string | null; recordedAt: string }> = [];
      if (page.length > 0) {
        const messageIds = [...new Set(page.map((e) => e.message_id).filter((id): id is string => !!id))];
        const rows = await db('replica_messages')
          .where({ chat_id: chat.id })
          .where((q) => q.whereNotNull('sender_user_id').orWhereNotNull('sender_email'))
          .where((q) => {
            void q.whereBetween('created_at', [page[0]!.timestamp, page[page.length - 1]!.timestamp]);
            if (messageIds.length > 0) void q.orWhereIn('id', messageIds);
          })
          .orderBy([{ column: 'created_at' }, { column: 'id' }])
          .select('sender_user_id', 'sender_email', 'created_at');
        senders = rows.map((r: { sender_user_id: string | null; sender_email: string | null; created_at: Date }) => ({
          senderUserId: r.sender_user_id,
          senderEmail: r.sender_email,
          recordedAt: r.created_at.toISOString(),
        }));
      }
      const count = Number(total);
      return {
        thread_id: chat.id,
        events: page.map((e) => ({ timestamp: e.timestamp.toISOString(), type: e.type, payload: e.payload })),
        total: count,
        has_more: query.offset + page.length < count,
        ...base,
        senders,
      };
    },

    async hookLogs(actor: Actor, replicaId: string) {
      const replica = await accessReplica(db, actor, replicaId);
      const rows = (await db('replica_hook_logs')
        .where({ replica_id: replica.id })
        .orderBy([{ column: 'executed_at' }, { column: 'id' }])) as HookLogRow[];
      return {
        warm_hooks: { logs: rows.filter((r) => r.kind === 'warm').map(serializeHookLog) },
        start_hooks: { logs: rows.filter((r) => r.kind === 'start').map(serializeHookLog) },
      };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
