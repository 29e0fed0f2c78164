/**
 * A chat's agent history, paged backwards from the newest event (interop §4.11), and the
 * workspace's hook logs (interop §4.12).
 */
import type { Repositories } from '../../db';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import type { HistoryQuery } from '../../schemas/replicaChats';
import { accessChat, accessReplica } from './access';
import { serializeHookLog } from './serialize';

/** System events looked at for the newest session start (a turn writes a few: init, retries, hooks). */
const INIT_LOOKBACK = 50;

/** The query's own type, derived from its schema (src/schemas/replicaChats.ts). */
export type { HistoryQuery };

export function createHistoryService(deps: {
  repos: Pick<Repositories, 'replicas' | 'replicaChats' | 'replicaMessages' | 'replicaLogs'>;
  wakeIfAsleep: (row: ReplicaRow) => Promise<boolean>;
}) {
  const { replicas, replicaChats, replicaMessages, replicaLogs } = deps.repos;

  return {
    async history(actor: Actor, replicaId: string, query: HistoryQuery) {
      const replica = await accessReplica(replicas, actor, replicaId);
      const chat = query.chat_id ? await accessChat(replicaChats, replica.id, query.chat_id) : await replicaChats.latest(replica.id);
      const waking = await deps.wakeIfAsleep(replica);
      const base = { coding_agent: chat?.provider ?? replica.coding_agent, waking };
      if (!chat) return { thread_id: null, events: [], total: 0, has_more: false, ...base, senders: [] };

      const total = await replicaLogs.countAgentEvents(replica.id, chat.id);
      const page = await replicaLogs.agentEventsFromNewest(replica.id, chat.id, query);

      // Who sent the messages this page shows: those its events belong to, and any sent
      // while it was being recorded (events need not carry a message id).
      let senders: Array<{ senderUserId: string | null; senderEmail: string | null; recordedAt: string }> = [];
      if (page.length > 0) {
        const messageIds = [...new Set(page.map((e) => e.message_id).filter((id): id is string => !!id))];
        const rows = await replicaMessages.senders(replica.id, chat.id, { from: page[0]!.timestamp, to: page[page.length - 1]!.timestamp, messageIds });
        senders = rows.map((r) => ({ senderUserId: r.sender_user_id, senderEmail: r.sender_email, recordedAt: r.created_at.toISOString() }));
      }
      return {
        thread_id: chat.id,
        events: page.map((e) => ({ timestamp: e.timestamp.toISOString(), type: e.type, payload: e.payload })),
        total,
        has_more: query.offset + page.length < total,
        ...base,
        senders,
      };
    },

    /**
     * The slash commands of a chat: those its agent's CLI reported when its session started
     * (Claude Code's `init` lists them). The other CLIs report none in their JSON output,
     * and Hangar adds no commands of its own, so their list is empty.
     */
    async slashCommands(actor: Actor, replicaId: string, chatId: string) {
      const replica = await accessReplica(replicas, actor, replicaId);
      const chat = await accessChat(replicaChats, replica.id, chatId);
      if (chat.provider !== 'agent_1') return { commands: [] };
      const rows = await replicaLogs.newestAgentEvents(replica.id, chat.id, 'agent_1-system', INIT_LOOKBACK);
      const init = rows.map((r) => r.payload as { subtype?: unknown; slash_commands?: unknown }).find((p) => p.subtype === 'init' && Array.isArray(p.slash_commands));
      const names = ((init?.slash_commands ?? []) as unknown[]).filter((n): n is string => typeof n === 'string' && n !== '');
      // The CLI names them without descriptions.
      return { commands: names.map((name) => ({ command: `/${name}`, description: '', providers: ['agent_1'] })) };
    },

    async hookLogs(actor: Actor, replicaId: string) {
      const replica = await accessReplica(replicas, actor, replicaId);
      const rows = await replicaLogs.hookLogs(replica.id);
      return {
        warm_hooks: { logs: rows.filter((r) => r.kind === 'warm').map(serializeHookLog) },
        start_hooks: { logs: rows.filter((r) => r.kind === 'start').map(serializeHookLog) },
      };
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
