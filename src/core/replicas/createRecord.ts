/**
 * A new workspace record, whoever asks for it: `POST /v1/replicas` (the API), an automation's
 * run and a thread's first message (the worker). One set of rules: the agent and model from
 * the request or the organization's defaults, the modes the agent has, a model the
 * organization enabled, an environment the actor may use; then the record with its first chat
 * and queued message, a sealed engine secret, the repositories bound at this moment, and the
 * events its stream starts with. Starting the workspace workflow is the caller's part.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { AGENTS, type AgentId, type ThinkingLevel } from '../../agents/catalog';
import { sealedField } from '../../crypto/sealedFields';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories, Transaction } from '../../db';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { isModelAllowed, resolveAgentAndModel } from '../../domain/agentPolicy';
import { invalid } from '../../domain/errors';
import { checkModes, hashEngineSecret, messageAndModes, newReplicaEvents, newReplicaRecord, type ModeFlags } from '../../domain/replicas';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { LifecyclePolicy, WorkspaceInput } from '../../../workflows/shared';
import { accessEnvironment, GLOBAL_ALIAS } from '../environments/access';

export interface ReplicaRecordDeps {
  repos: Pick<Repositories, 'replicas' | 'environments' | 'codeRepositories' | 'organizationSettings' | 'modelCatalog'>;
  secretBox: SecretBox;
  events: ReplicaEventEmitter;
}

export interface NewReplicaRequest {
  actor: Actor;
  /** Chosen by a caller that must find the record again on a retry; a new id otherwise. */
  replicaId?: string;
  /** Where the workspace came from: `api`, `automation`, `slack`, ... */
  source: string;
  /** Null: the organization's default environment, else its Global one. */
  environmentId: string | null;
  name: string;
  /** The first message, mode prefixes included (they are read off it). */
  message: string;
  modes?: Partial<ModeFlags>;
  agent?: AgentId | null;
  model?: string | null;
  thinkingLevel?: ThinkingLevel | null;
  images?: unknown[];
  size?: 'small' | 'large';
  lifecyclePolicy?: string;
  config?: Record<string, unknown>;
  /** Already checked against the outbound policy by the caller. */
  webhook?: { url: string; secret?: string } | null;
}

/** Refuses a model the organization has not enabled for the agent (a 400 on the request's `model`). */
export async function checkModelEnabled(
  models: Repositories['modelCatalog'],
  organizationId: string,
  agent: AgentId,
  model: string | null | undefined,
  trx?: Transaction,
): Promise<void> {
  if (!model) return;
  const source = AGENTS[agent].modelSource;
  if (!isModelAllowed(agent, model, source ? await models.isEnabled(organizationId, source, model, trx) : null)) {
    throw invalid('Invalid body', `body.model: ${model} is not enabled for ${agent} in this organization`);
  }
}

/** Writes the record (in `trx` when given) and answers it with its first chat's id. */
export async function createReplicaRecord(deps: ReplicaRecordDeps, request: NewReplicaRequest, trx?: Transaction): Promise<{ row: ReplicaRow; chatId: string }> {
  const { repos, secretBox } = deps;
  const { actor } = request;
  const { message, flags } = messageAndModes({ message: request.message, ...request.modes });
  const settings = await repos.organizationSettings.find(actor.organizationId, trx);
  const { agent, model } = resolveAgentAndModel(settings, { agent: request.agent ?? null, model: request.model ?? null });
  const thinkingLevel = request.thinkingLevel ?? undefined;
  checkModes(agent, { ...flags, thinking_level: thinkingLevel });
  await checkModelEnabled(repos.modelCatalog, actor.organizationId, agent, request.model, trx);

  const env = await accessEnvironment(repos.environments, actor, request.environmentId ?? settings?.default_environment_id ?? GLOBAL_ALIAS, trx);
  const replicaId = request.replicaId ?? randomUUID();
  const engineSecret = randomBytes(32).toString('base64url');
  const { webhook } = request;
  const fresh = {
    ids: { replicaId, chatId: randomUUID(), messageId: randomUUID() },
    actor,
    source: request.source,
    environmentId: env.id,
    name: request.name,
    message,
    flags,
    agent,
    model,
    thinkingLevel,
    images: request.images,
    size: request.size,
    lifecyclePolicy: request.lifecyclePolicy,
    config: request.config,
    webhook: webhook
      ? { url: webhook.url, sealedSecret: webhook.secret ? secretBox.seal(webhook.secret, sealedField('replicas', 'webhook_secret_sealed', replicaId)) : null }
      : null,
    engineSecret: { sealed: secretBox.seal(engineSecret, sealedField('replicas', 'engine_secret_sealed', replicaId)), hash: hashEngineSecret(engineSecret) },
    repositories: await repos.codeRepositories.boundTo(actor.organizationId, env, trx),
  };
  const row = await repos.replicas.insertWithFirstMessage(newReplicaRecord(fresh), trx);
  for (const [type, payload] of newReplicaEvents(fresh)) await deps.events.emit(row.id, type, payload, trx);
  return { row, chatId: fresh.ids.chatId };
}

/** What the workspace workflow of a record is started with. */
export function workspaceInputOf(
  row: ReplicaRow,
  timings: { idleMs: number; archiveAfterMs: number; historyLimit: number },
  idleMs?: number | null,
): WorkspaceInput {
  return {
    replicaId: row.id,
    organizationId: row.organization_id,
    lifecyclePolicy: row.lifecycle_policy as LifecyclePolicy,
    idleMs: idleMs ?? timings.idleMs,
    archiveAfterMs: timings.archiveAfterMs,
    historyLimit: timings.historyLimit,
    hasWebhook: !!row.webhook_url,
  };
}
