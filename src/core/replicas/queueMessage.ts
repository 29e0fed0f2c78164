/**
 * A message joins a workspace chat's queue, whoever sends it: a client (`POST
 * /v1/replica/{id}/messages` and the workspace-scoped message operations) or the worker (a
 * thread's follow-up, an automation's next event). The chat is chosen, or made, under the
 * workspace's lock; the message is queued with the chat's agent and a model; the events stream
 * says whether it runs now or waits. Telling the workspace workflow is the caller's part.
 */
import { randomUUID } from 'node:crypto';
import type { AgentId, ThinkingLevel } from '../../agents/catalog';
import type { Repositories, Transaction } from '../../db';
import { isUniqueViolation } from '../../db/errors';
import type { ChatRow } from '../../db/replicaChatsRepository';
import type { ReplicaRow } from '../../db/replicasRepository';
import { conflict, invalid, notFound } from '../../domain/errors';
import { chatSummary, checkModes, messageAndModes, type ModeFlags } from '../../domain/replicas';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import { checkModelEnabled } from './createRecord';

/** Which chat a message goes to. */
export type ChatChoice =
  /** The given chat (400 when the workspace has no such chat), else the newest, else a new one. */
  | { kind: 'latest_or_given'; chatId?: string }
  /** Only the given chat (404 when it is gone). */
  | { kind: 'existing'; chatId: string }
  /** The given chat, else a new one for `provider` (with the given id when there is one). */
  | { kind: 'select_or_create'; chatId?: string; provider: AgentId; title: string }
  /** The worker's follow-up: the given chat while it lasts, else the newest, else a new one; never refused. */
  | { kind: 'follow_up'; chatId: string | null };

export interface QueueMessageRequest {
  choice: ChatChoice;
  /** A client's message has its mode prefixes read off; a follow-up is queued as it came. */
  message: string;
  modes?: Partial<ModeFlags>;
  /** The agent a client asked for (a chat's own agent wins when the message goes to that chat). */
  agent?: AgentId;
  model?: string;
  thinkingLevel?: ThinkingLevel;
  images?: unknown[];
  /** A client's id (a duplicate is 409), or a follow-up's (a retry finds the message it queued). */
  messageId?: string;
  senderUserId: string | null;
  senderEmail?: string | null;
}

export interface QueuedMessage {
  chatId: string;
  messageId: string;
  /** False when it runs now: the chat was idle and the workspace active. */
  queued: boolean;
  /** Messages ahead of it in the chat. */
  position: number;
}

export interface QueueMessageDeps {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats' | 'replicaMessages' | 'modelCatalog'>;
  events: ReplicaEventEmitter;
}

interface Plan {
  text: string;
  flags: ModeFlags | null;
  /** The agent of a new chat, and of the message unless the chat decides. */
  agent: AgentId;
  /** The message runs its chat's agent (a follow-up, or a chosen or created chat). */
  chatDecides: boolean;
  model: string | undefined;
}

/** A client's message: checked before anything is written (modes, model, the workspace's state). */
async function clientPlan(deps: QueueMessageDeps, row: ReplicaRow, request: QueueMessageRequest): Promise<Plan> {
  const { choice } = request;
  if (row.status === 'error') throw conflict('The workspace is in error', (row.config.provisioning_error as { message?: string } | undefined)?.message ?? null);
  const { message, flags } = messageAndModes({ message: request.message, ...request.modes });
  // A message to a given chat runs that chat's agent (checked against its modes and models).
  const existing = choice.kind === 'existing' ? await deps.repos.replicaChats.find(row.id, choice.chatId) : null;
  if (choice.kind === 'existing' && !existing) throw notFound('Chat');
  const agent = (choice.kind === 'select_or_create' ? choice.provider : (existing?.provider ?? request.agent ?? row.coding_agent)) as AgentId;
  checkModes(agent, { ...flags, thinking_level: request.thinkingLevel });
  await checkModelEnabled(deps.repos.modelCatalog, row.organization_id, agent, request.model);
  return { text: message, flags, agent, chatDecides: choice.kind === 'select_or_create', model: request.model };
}

async function chooseChat(deps: QueueMessageDeps, row: ReplicaRow, choice: ChatChoice, trx: Transaction): Promise<ChatRow | null> {
  const chats = deps.repos.replicaChats;
  switch (choice.kind) {
    case 'latest_or_given': {
      if (!choice.chatId) return chats.latest(row.id, trx);
      const chat = await chats.find(row.id, choice.chatId, {}, trx);
      if (!chat) throw invalid('Invalid body', 'body.chat_id: no such chat in this replica');
      return chat;
    }
    case 'existing': {
      const chat = await chats.find(row.id, choice.chatId, {}, trx);
      if (!chat) throw notFound('Chat');
      return chat;
    }
    case 'select_or_create':
      return choice.chatId ? chats.find(row.id, choice.chatId, {}, trx) : null;
    case 'follow_up':
      return (choice.chatId ? await chats.find(row.id, choice.chatId, {}, trx) : null) ?? chats.latest(row.id, trx);
  }
}

/** Queues the message, in `outer` when given; the events go out when it commits. */
export async function queueMessage(deps: QueueMessageDeps, row: ReplicaRow, request: QueueMessageRequest, outer?: Transaction): Promise<QueuedMessage> {
  const { repos, events } = deps;
  const { choice } = request;
  const followUp = choice.kind === 'follow_up';
  const plan: Plan = followUp
    ? { text: request.message, flags: null, agent: row.coding_agent as AgentId, chatDecides: true, model: undefined }
    : await clientPlan(deps, row, request);

  const queue = async (trx: Transaction): Promise<QueuedMessage> => {
    await repos.replicas.lock(row.id, trx);
    const messageId = request.messageId ?? randomUUID();
    if (request.messageId) {
      const earlier = await repos.replicaMessages.findById(row.id, request.messageId, trx);
      if (earlier && followUp) return { chatId: earlier.chat_id as string, messageId, queued: true, position: 0 };
      if (earlier) throw conflict('A message or chat with this id already exists');
    }
    let chat = await chooseChat(deps, row, choice, trx);
    let created = false;
    if (!chat) {
      const title = choice.kind === 'select_or_create' ? choice.title : plan.text.slice(0, 80);
      const id = (choice.kind === 'select_or_create' && choice.chatId) || randomUUID();
      chat = await repos.replicaChats.insert({ id, replica_id: row.id, provider: plan.agent, title }, trx);
      created = true;
    }
    const agent = plan.chatDecides ? (chat.provider as AgentId) : plan.agent;
    const { ahead } = await repos.replicaMessages.enqueue(
      {
        id: messageId,
        replica_id: row.id,
        chat_id: chat.id,
        content: plan.text,
        coding_agent: agent,
        model: plan.model ?? row.agent_models[agent] ?? null,
        options: { ...plan.flags, thinking_level: request.thinkingLevel ?? null, images: request.images ?? [] },
        sender_user_id: request.senderUserId,
        sender_email: request.senderEmail ?? null,
      },
      trx,
    );
    // A model a client chose becomes the workspace's model for that agent.
    await repos.replicas.touch(row.id, plan.model ? { agentModels: { ...row.agent_models, [plan.agent]: plan.model } } : {}, trx);
    if (created) await events.emit(row.id, 'chat.created', { chat: chatSummary({ ...chat, processing: false }) }, trx);
    const queued = ahead > 0 || row.status !== 'active';
    await events.emit(row.id, 'chat.turn.accepted', { chatId: chat.id, messageId, queued, position: ahead }, trx);
    return { chatId: chat.id, messageId, queued, position: ahead };
  };

  try {
    return outer ? await queue(outer) : await repos.transact(queue);
  } catch (err) {
    // A client-chosen id this workspace already has (a new chat's id, or a message id raced in).
    if (!followUp && isUniqueViolation(err)) throw conflict('A message or chat with this id already exists');
    throw err;
  }
}
