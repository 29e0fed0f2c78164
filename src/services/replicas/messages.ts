/**
 * Sending a message to a replica: it joins its chat's queue (a new chat when the replica has
 * none), the events stream says whether it runs now or waits, and the workspace workflow is
 * told that the chat has work (which also wakes a sleeping workspace).
 */
import { queueMessage, type ChatChoice, type QueueMessageDeps } from '../../core/replicas/queueMessage';
import type { Actor } from '../../domain/actor';
import type { ReplicaRow } from '../../db/replicasRepository';
import { conflict } from '../../domain/errors';
import { messageAndModes } from '../../domain/replicas';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { DeferredMessageInput, SendMessageInput, WorkspaceMessageInput } from '../../schemas/replicas';
import type { WorkflowControl } from '../../temporal/workflowControl';
import { accessReplica } from './access';

/** The bodies' own types, derived from their schemas (src/schemas/replicas.ts). */
export type { DeferredMessageInput, SendMessageInput, WorkspaceMessageInput };

/** A message as queued: the replica body's fields, and the id a workspace-API client may choose for it. */
type QueuedMessageInput = SendMessageInput & { message_id?: string };

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
  repos: QueueMessageDeps['repos'];
  events: ReplicaEventEmitter;
  temporal: Pick<WorkflowControl, 'requestWork'>;
}) {
  const { replicas } = deps.repos;

  /** Queues a message in the chosen chat of a replica the actor may use, and tells the workflow. */
  async function accept(row: ReplicaRow, actor: Actor, input: QueuedMessageInput, choice: ChatChoice) {
    const sent = await queueMessage(deps, row, {
      choice,
      message: input.message,
      modes: { plan_mode: input.plan_mode, goal_mode: input.goal_mode, fast_mode: input.fast_mode },
      ...(input.coding_agent ? { agent: input.coding_agent } : {}),
      ...(input.model ? { model: input.model } : {}),
      ...(input.thinking_level ? { thinkingLevel: input.thinking_level } : {}),
      ...(input.images ? { images: input.images } : {}),
      ...(input.message_id ? { messageId: input.message_id } : {}),
      senderUserId: input.senderUserId ?? actor.userId,
      senderEmail: input.senderEmail ?? null,
    });
    await deps.temporal.requestWork(row.id, sent.chatId);
    return { row, ...sent };
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
