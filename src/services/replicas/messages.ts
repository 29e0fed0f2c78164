/**
 * Sending a message to a replica: it joins its chat's queue (a new chat when the replica has
 * none), the events stream says whether it runs now or waits, and the workspace workflow is
 * told that the chat has work (which also wakes a sleeping workspace).
 */
import { randomUUID } from 'node:crypto';
import type { AgentId, ThinkingLevel } from '../../agents/catalog';
import type { Repositories } from '../../db';
import type { Actor } from '../../domain/actor';
import { conflict, invalid } from '../../domain/errors';
import { checkModes, messageAndModes } from '../../domain/replicas';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { TemporalGateway } from '../../temporal/gateway';
import { accessReplica } from './access';
import { engineChatSummary } from './serialize';

export interface SendMessageInput {
  message: string;
  coding_agent?: AgentId;
  chat_id?: string;
  model?: string;
  images?: unknown[];
  plan_mode?: boolean;
  goal_mode?: boolean;
  fast_mode?: boolean;
  thinking_level?: ThinkingLevel;
  senderUserId?: string;
  senderEmail?: string;
}

export function createMessagesService(deps: {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats' | 'replicaMessages'>;
  events: ReplicaEventEmitter;
  temporal: Pick<TemporalGateway, 'requestWork'>;
  checkModel: (organizationId: string, agent: AgentId, model: string | null) => Promise<void>;
}) {
  const { repos, events } = deps;
  const { replicas, replicaChats, replicaMessages } = repos;

  return {
    async send(actor: Actor, id: string, input: SendMessageInput) {
      const row = await accessReplica(replicas, actor, id);
      if (row.status === 'error') throw conflict('The workspace is in error', (row.config.provisioning_error as { message?: string } | undefined)?.message ?? null);
      const { message, flags } = messageAndModes(input);
      const agent = (input.coding_agent ?? row.coding_agent) as AgentId;
      checkModes(agent, { ...flags, thinking_level: input.thinking_level });
      await deps.checkModel(row.organization_id, agent, input.model ?? null);
      const model = input.model ?? row.agent_models[agent] ?? null;

      const result = await repos.transact(async (trx) => {
        await replicas.lock(row.id, trx);
        let chat = input.chat_id ? await replicaChats.find(row.id, input.chat_id, {}, trx) : await replicaChats.latest(row.id, trx);
        if (input.chat_id && !chat) throw invalid('Invalid body', 'body.chat_id: no such chat in this replica');
        let created = false;
        if (!chat) {
          chat = await replicaChats.insert({ id: randomUUID(), replica_id: row.id, provider: agent, title: message.slice(0, 80) }, trx);
          created = true;
        }
        const messageId = randomUUID();
        const { ahead } = await replicaMessages.enqueue(
          {
            id: messageId,
            replica_id: row.id,
            chat_id: chat.id,
            content: message,
            coding_agent: agent,
            model,
            options: { ...flags, thinking_level: input.thinking_level ?? null, images: input.images ?? [] },
            sender_user_id: input.senderUserId ?? actor.userId,
            sender_email: input.senderEmail ?? null,
          },
          trx,
        );
        await replicas.touch(row.id, input.model ? { agentModels: { ...row.agent_models, [agent]: input.model } } : {}, trx);
        return { chat, created, messageId, position: ahead };
      });
      if (result.created) await events.emit(row.id, 'chat.created', { chat: engineChatSummary(result.chat) });
      const queued = result.position > 0 || row.status !== 'active';
      await events.emit(row.id, 'chat.turn.accepted', { chatId: result.chat.id, messageId: result.messageId, queued, position: result.position });
      await deps.temporal.requestWork(row.id, result.chat.id);
      const status = row.status === 'sleeping' || row.status === 'archived' ? 'waking' : queued ? 'queued' : 'sent';
      return { status, message_id: result.messageId, position: queued ? result.position : null, chat_id: result.chat.id };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
