/**
 * Workspace records written by the worker, for workspaces nobody created through the API: an
 * automation run's, and a thread's (Slack, Linear, GitHub/GitLab). A new record follows the
 * API's rules for a new workspace (agent and model policy, modes, environment access); a
 * follow-up joins a chat's queue as `POST /v1/replica/{id}/messages` does. The caller starts
 * or signals the workspace workflow afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { AGENTS, type AgentId, type ThinkingLevel } from '../src/agents/catalog';
import { sealedField } from '../src/crypto/sealedFields';
import type { SecretBox } from '../src/crypto/secretBox';
import type { Repositories, Transaction } from '../src/db';
import type { ReplicaRow } from '../src/db/replicasRepository';
import type { Actor } from '../src/domain/actor';
import { isModelAllowed, resolveAgentAndModel } from '../src/domain/agentPolicy';
import { checkEnvironmentAccess } from '../src/domain/environments';
import { DomainError, invalid } from '../src/domain/errors';
import { checkModes, chatSummary, hashEngineSecret, messageAndModes, newReplicaEvents, newReplicaRecord } from '../src/domain/replicas';
import type { ReplicaEventEmitter } from '../src/events/replicaEvents';
import type { LifecyclePolicy, WorkspaceInput } from '../workflows/shared';

export interface WorkspaceRecordDeps {
  repos: Pick<Repositories, 'transact' | 'replicas' | 'replicaChats' | 'replicaMessages' | 'environments' | 'codeRepositories' | 'organizationSettings' | 'modelCatalog'>;
  secretBox: SecretBox;
  events: ReplicaEventEmitter;
  timings: { idleMs: number; archiveAfterMs: number; historyLimit: number };
}

export interface NewWorkspaceRequest {
  replicaId: string;
  actor: Actor;
  source: string;
  environmentId: string;
  name: string;
  prompt: string;
  agent?: AgentId | null;
  model?: string | null;
  thinkingLevel?: ThinkingLevel | null;
  modes?: { plan_mode?: boolean; goal_mode?: boolean; fast_mode?: boolean };
  size?: 'small' | 'large';
  lifecyclePolicy?: string;
  config?: Record<string, unknown>;
}

/** A rule the request breaks will not heal on retry: the activity fails for good. */
function nonRetryable(err: unknown): never {
  if (err instanceof DomainError && err.kind !== 'unavailable' && err.kind !== 'internal') {
    throw ApplicationFailure.nonRetryable(err.details ? `${err.message}: ${err.details}` : err.message, 'InvalidInput');
  }
  throw err;
}

export function createWorkspaceRecords(deps: WorkspaceRecordDeps) {
  const { replicas, replicaChats, replicaMessages, environments, codeRepositories, organizationSettings: settings, modelCatalog: models } = deps.repos;

  return {
    /** Writes a new workspace with its first chat and queued message (the API's rules apply), in `trx` when given. */
    async create(request: NewWorkspaceRequest, trx?: Transaction): Promise<ReplicaRow> {
      try {
        const { actor } = request;
        const { message, flags } = messageAndModes({ message: request.prompt, ...request.modes });
        const requested = { agent: request.agent ?? null, model: request.model ?? null };
        const { agent, model } = resolveAgentAndModel(await settings.find(actor.organizationId, trx), requested);
        const thinkingLevel = request.thinkingLevel ?? undefined;
        checkModes(agent, { ...flags, thinking_level: thinkingLevel });
        const source = AGENTS[agent].modelSource;
        if (requested.model && !isModelAllowed(agent, requested.model, source ? await models.isEnabled(actor.organizationId, source, requested.model, trx) : null)) {
          throw invalid('Invalid body', `body.model: ${requested.model} is not enabled for ${agent} in this organization`);
        }
        const env = checkEnvironmentAccess(actor, await environments.find(actor.organizationId, request.environmentId, trx));
        const engineSecret = randomBytes(32).toString('base64url');
        const fresh = {
          ids: { replicaId: request.replicaId, chatId: randomUUID(), messageId: randomUUID() },
          actor,
          source: request.source,
          environmentId: env.id,
          name: request.name,
          message,
          flags,
          agent,
          model,
          thinkingLevel,
          size: request.size ?? 'small',
          lifecyclePolicy: request.lifecyclePolicy ?? 'default',
          config: request.config ?? {},
          engineSecret: { sealed: deps.secretBox.seal(engineSecret, sealedField('replicas', 'engine_secret_sealed', request.replicaId)), hash: hashEngineSecret(engineSecret) },
          repositories: await codeRepositories.boundTo(actor.organizationId, env, trx),
        };
        const row = await replicas.insertWithFirstMessage(newReplicaRecord(fresh), trx);
        for (const [type, payload] of newReplicaEvents(fresh)) await deps.events.emit(row.id, type, payload, trx);
        return row;
      } catch (err) {
        return nonRetryable(err);
      }
    },

    /** What the workspace workflow of a record is started with. */
    workflowInput(row: ReplicaRow, idleMs?: number | null): WorkspaceInput {
      return {
        replicaId: row.id,
        organizationId: row.organization_id,
        lifecyclePolicy: row.lifecycle_policy as LifecyclePolicy,
        idleMs: idleMs ?? deps.timings.idleMs,
        archiveAfterMs: deps.timings.archiveAfterMs,
        historyLimit: deps.timings.historyLimit,
        hasWebhook: !!row.webhook_url,
      };
    },

    /**
     * Queues a follow-up in `chatId` (or, when that chat is gone or null, the workspace's newest
     * chat, or a new one), with the chat's agent and the workspace's model for it. Idempotent by
     * `messageId`: a retried activity finds the message it queued. In `outer` when given.
     */
    async followUp(
      row: ReplicaRow,
      input: { chatId: string | null; messageId: string; text: string; senderUserId: string | null },
      outer?: Transaction,
    ): Promise<{ chatId: string; messageId: string }> {
      const queue = async (trx: Transaction) => {
        await replicas.lock(row.id, trx);
        const existing = await replicaMessages.findById(row.id, input.messageId, trx);
        if (existing) return { chatId: existing.chat_id as string, created: null, position: 0, fresh: false };
        let chat = input.chatId ? await replicaChats.find(row.id, input.chatId, {}, trx) : null;
        chat ??= await replicaChats.latest(row.id, trx);
        let created = null;
        if (!chat) {
          chat = await replicaChats.insert({ id: randomUUID(), replica_id: row.id, provider: row.coding_agent, title: input.text.slice(0, 80) }, trx);
          created = chat;
        }
        const agent = chat.provider as AgentId;
        const { ahead } = await replicaMessages.enqueue(
          {
            id: input.messageId,
            replica_id: row.id,
            chat_id: chat.id,
            content: input.text,
            coding_agent: agent,
            model: row.agent_models[agent] ?? null,
            options: { thinking_level: null, images: [] },
            sender_user_id: input.senderUserId,
            sender_email: null,
          },
          trx,
        );
        await replicas.touch(row.id, {}, trx);
        const fresh = { chatId: chat.id, created, position: ahead, fresh: true };
        if (created) await deps.events.emit(row.id, 'chat.created', { chat: chatSummary({ ...created, processing: false }) }, trx);
        await deps.events.emit(row.id, 'chat.turn.accepted', { chatId: chat.id, messageId: input.messageId, queued: ahead > 0 || row.status !== 'active', position: ahead }, trx);
        return fresh;
      };
      const queued = outer ? await queue(outer) : await deps.repos.transact(queue);
      return { chatId: queued.chatId, messageId: input.messageId };
    },
  };
}

export type WorkspaceRecords = ReturnType<typeof createWorkspaceRecords>;
