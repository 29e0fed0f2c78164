/**
 * Sending a message to a replica: it joins its chat's queue (a new chat when the replica has
 * none), the events stream says whether it runs now or waits, and the workspace workflow is
 * told that the chat has work (which also wakes a sleeping workspace).
 */
import { randomUUID } from 'node:crypto';
import type { AgentId, ThinkingLevel } from '../../agents/catalog';
import type { Repositories } from '../../db';
import type { Actor } from '../../domain/actor';
import { isUniqueViolation } from '../../db/errors';
import type { ReplicaRow } from '../../db/replicasRepository';
import { conflict, invalid, notFound } from '../../domain/errors';
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

/** How the workspace-scoped operations pick the chat of a message. */
type ChatChoice =
  | { kind: 'latest_or_given'; chatId?: string }
  | { kind: 'existing'; chatId: string }
  | { kind: 'select_or_create'; chatId?: string; provider: AgentId; title: string };

export interface WorkspaceMessageInput {
  message: string;
  messageId?: string;
  model?: string;
  images?: unknown[];
  planMode?: boolean;
  goalMode?: boolean;
  fastMode?: boolean;
  thinkingLevel?: ThinkingLevel;
}

export interface DeferredMessageInput extends WorkspaceMessageInput {
  provider: AgentId;
  chatId?: string;
  generateName?: boolean;
}

const snakeCase = (input: WorkspaceMessageInput): SendMessageInput => ({
  message: input.message,
  ...(input.model === undefined ? {} : { model: input.model }),
  ...(input.images === undefined ? {} : { images: input.images }),
  ...(input.planMode === undefined ? {} : { plan_mode: input.planMode }),
  ...(input.goalMode === undefined ? {} : { goal_mode: input.goalMode }),
  ...(input.fastMode === undefined ? {} : { fast_mode: input.fastMode }),
  ...(input.thinkingLevel === undefined ? {} : { thinking_level: input.thinkingLevel }),
});

export function createMessagesService(deps: {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats' | 'replicaMessages'>;
  events: ReplicaEventEmitter;
  temporal: Pick<TemporalGateway, 'requestWork'>;
  checkModel: (organizationId: string, agent: AgentId, model: string | null) => Promise<void>;
}) {
  const { repos, events } = deps;
  const { replicas, replicaChats, replicaMessages } = repos;

  /** Queues a message in the chosen chat of a replica the actor may use; tells the events stream and the workflow. */
  async function accept(row: ReplicaRow, actor: Actor, input: SendMessageInput & { message_id?: string }, choice: ChatChoice) {
    if (row.status === 'error') throw conflict('The workspace is in error', (row.config.provisioning_error as { message?: string } | undefined)?.message ?? null);
    const { message, flags } = messageAndModes(input);
    // A message to a given chat runs that chat's agent (checked against its modes and models).
    const existing = choice.kind === 'existing' ? await replicaChats.find(row.id, choice.chatId) : null;
    if (choice.kind === 'existing' && !existing) throw notFound('Chat');
    const agent = (choice.kind === 'select_or_create' ? choice.provider : (existing?.provider ?? input.coding_agent ?? row.coding_agent)) as AgentId;
    checkModes(agent, { ...flags, thinking_level: input.thinking_level });
    await deps.checkModel(row.organization_id, agent, input.model ?? null);
    const model = input.model ?? row.agent_models[agent] ?? null;

    const result = await repos
      .transact(async (trx) => {
        await replicas.lock(row.id, trx);
        let chat = choice.chatId ? await replicaChats.find(row.id, choice.chatId, {}, trx) : choice.kind === 'latest_or_given' ? await replicaChats.latest(row.id, trx) : null;
        if (choice.chatId && !chat && choice.kind === 'latest_or_given') throw invalid('Invalid body', 'body.chat_id: no such chat in this replica');
        if (!chat && choice.kind === 'existing') throw notFound('Chat');
        let created = false;
        if (!chat) {
          const title = choice.kind === 'select_or_create' ? choice.title : message.slice(0, 80);
          chat = await replicaChats.insert({ id: choice.chatId ?? randomUUID(), replica_id: row.id, provider: agent, title }, trx);
          created = true;
        }
        const messageId = input.message_id ?? randomUUID();
        const { ahead } = await replicaMessages.enqueue(
          {
            id: messageId,
            replica_id: row.id,
            chat_id: chat.id,
            content: message,
            coding_agent: choice.kind === 'select_or_create' ? (chat.provider as AgentId) : agent,
            model,
            options: { ...flags, thinking_level: input.thinking_level ?? null, images: input.images ?? [] },
            sender_user_id: input.senderUserId ?? actor.userId,
            sender_email: input.senderEmail ?? null,
          },
          trx,
        );
        await replicas.touch(row.id, input.model ? { agentModels: { ...row.agent_models, [agent]: input.model } } : {}, trx);
        return { chat, created, messageId, position: ahead };
      })
      .catch((err: unknown) => {
        // A client-chosen id this workspace already has (a message id, or a new chat's id).
        if (isUniqueViolation(err)) throw conflict('A message or chat with this id already exists');
        throw err;
      });
    if (result.created) await events.emit(row.id, 'chat.created', { chat: engineChatSummary(result.chat) });
    const queued = result.position > 0 || row.status !== 'active';
    await events.emit(row.id, 'chat.turn.accepted', { chatId: result.chat.id, messageId: result.messageId, queued, position: result.position });
    await deps.temporal.requestWork(row.id, result.chat.id);
    return { row, chatId: result.chat.id, messageId: result.messageId, queued, position: result.position };
  }

  /** The workspace operations take no message for an archived or failed workspace (interop §4.10). */
  async function openWorkspace(actor: Actor, id: string): Promise<ReplicaRow> {
    const row = await accessReplica(replicas, actor, id);
    if (row.status === 'archived') throw conflict('The workspace is archived');
    return row;
  }

  return {
    async send(actor: Actor, id: string, input: SendMessageInput) {
      const row = await accessReplica(replicas, actor, id);
      const sent = await accept(row, actor, input, { kind: 'latest_or_given', ...(input.chat_id ? { chatId: input.chat_id } : {}) });
      const status = row.status === 'sleeping' || row.status === 'archived' ? 'waking' : sent.queued ? 'queued' : 'sent';
      return { status, message_id: sent.messageId, position: sent.queued ? sent.position : null, chat_id: sent.chatId };
    },

    /** `POST /v1/workspaces/{id}/chats/{chatId}/messages`: `accepted` is false while the workspace is not active (202). */
    async sendToChat(actor: Actor, id: string, chatId: string, input: WorkspaceMessageInput) {
      const row = await openWorkspace(actor, id);
      const sent = await accept(row, actor, { ...snakeCase(input), ...(input.messageId ? { message_id: input.messageId } : {}) }, { kind: 'existing', chatId });
      return { messageId: sent.messageId, queued: sent.queued, position: sent.position, accepted: row.status === 'active' };
    },

    /** `POST /v1/workspaces/{id}/messages/deferred`: the chat is selected or created, the workspace woken. */
    async sendDeferred(actor: Actor, id: string, input: DeferredMessageInput) {
      const row = await openWorkspace(actor, id);
      const title = input.generateName === false ? 'New chat' : messageAndModes({ message: input.message }).message.slice(0, 80);
      const sent = await accept(
        row,
        actor,
        { ...snakeCase(input), ...(input.messageId ? { message_id: input.messageId } : {}) },
        { kind: 'select_or_create', provider: input.provider, title, ...(input.chatId ? { chatId: input.chatId } : {}) },
      );
      return { status: 'waking' as const, chatId: sent.chatId, messageId: sent.messageId };
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
