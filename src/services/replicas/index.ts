/**
 * The replica (workspace) API core: create, list, read (waking on read), delete, sleep,
 * archive, wake and messages. The database is the record; the workspace workflow is told
 * about work and lifecycle requests and does the rest.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AGENTS, type AgentId, type ThinkingLevel } from '../../agents/catalog';
import { createReplicasRepository } from '../../db/replicasRepository';
import { checkModes, hashEngineSecret, messageAndModes, newReplicaEvents, newReplicaRecord } from '../../domain/replicas';
import type { SecretBox } from '../../crypto/secretBox';
import type { RepositoriesRepository } from '../../db/repositoriesRepository';
import { invalid, conflict, unauthenticated } from '../../domain/errors';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { TemporalGateway } from '../../temporal/gateway';
import type { LifecyclePolicy, WorkspaceInput } from '../../../workflows/shared';
import type { EnvironmentsService } from '../environments';
import type { Actor } from '../../domain/actor';
import { accessReplica, serializeReplicaListItem, visibleReplicas, type ReplicaRow } from './access';

export interface CreateReplicaInput {
  name: string;
  message: string;
  environment_id?: string;
  coding_agent?: AgentId;
  model?: string;
  images?: unknown[];
  lifecycle_policy?: LifecyclePolicy;
  thinking_level?: ThinkingLevel;
  plan_mode?: boolean;
  goal_mode?: boolean;
  fast_mode?: boolean;
  size?: 'small' | 'large';
  config?: Record<string, unknown>;
  webhook_url?: string | { url: string; secret?: string };
}

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

/** Organization defaults and model rules; the issue-5 services provide them. */
export interface AgentPolicy {
  resolveAgentAndModel(organizationId: string, requested: { agent: AgentId | null; model: string | null }): Promise<{ agent: AgentId; model: string | null }>;
  isModelAllowed(organizationId: string, agent: AgentId, model: string): Promise<boolean>;
  defaultEnvironmentId(organizationId: string): Promise<string | null>;
}

export interface ReplicaTimings {
  idleMs: number;
  archiveAfterMs: number;
  historyLimit: number;
}

export function createReplicasService(deps: {
  db: Knex;
  secretBox: SecretBox;
  temporal: TemporalGateway;
  events: ReplicaEventEmitter;
  environments: EnvironmentsService;
  repositories: RepositoriesRepository;
  policy: AgentPolicy;
  timings: ReplicaTimings;
}) {
  const { db, secretBox, temporal, events, environments, repositories, policy, timings } = deps;
  const replicasRepo = createReplicasRepository(db);

  function workspaceInput(row: ReplicaRow, organizationId: string, idleMs?: number): WorkspaceInput {
    return {
      replicaId: row.id,
      organizationId,
      lifecyclePolicy: row.lifecycle_policy as LifecyclePolicy,
      idleMs: idleMs ?? timings.idleMs,
      archiveAfterMs: timings.archiveAfterMs,
      historyLimit: timings.historyLimit,
      hasWebhook: !!row.webhook_url,
    };
  }

  async function checkModel(organizationId: string, agent: AgentId, model: string | null) {
    if (model && !(await policy.isModelAllowed(organizationId, agent, model))) {
      throw invalid('Invalid body', `body.model: ${model} is not enabled for ${agent} in this organization`);
    }
  }

  /** Wakes a sleeping or archived workspace; the answer says whether it is waking. */
  async function wakeIfAsleep(row: ReplicaRow): Promise<boolean> {
    if (row.status !== 'sleeping' && row.status !== 'archived') return false;
    await temporal.requestLifecycle(row.id, 'wake');
    return true;
  }

  return {
    /** The engine secret of a workspace authenticates calls made from inside it. */
    async authenticateEngine(workspaceId: string, authorization: string | undefined): Promise<Actor> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !/^[0-9a-f-]{36}$/i.test(workspaceId)) throw unauthenticated('invalid workspace engine credentials');
      const row = await db<ReplicaRow>('replicas').where({ id: workspaceId }).whereNull('deleted_at').first();
      if (!row || row.engine_secret_hash !== hashEngineSecret(match[1]!)) throw unauthenticated('invalid workspace engine credentials');
      return {
        organizationId: row.organization_id,
        userId: row.user_id,
        keyKind: row.user_id ? 'personal' : 'org',
        keyId: `engine:${row.id}`,
        isAdmin: false,
      };
    },

    /**
     * `options` are for internal callers: `replicaId` makes the create idempotent (an
     * automation run retried after a worker died gets the workspace it already created, whose
     * workflow is started again if it was not), `idleMs` overrides the inactivity timeout.
     */
    async create(actor: Actor, input: CreateReplicaInput, source = 'api', options: { replicaId?: string; idleMs?: number } = {}): Promise<ReplicaRow> {
      if (options.replicaId) {
        const existing = (await db('replicas').where({ id: options.replicaId, organization_id: actor.organizationId }).first()) as ReplicaRow | undefined;
        if (existing) {
          const chat = await db('replica_chats').where({ replica_id: existing.id }).orderBy('created_at').first('id');
          // Only a workspace still preparing may be missing its workflow.
          if (chat && !existing.deleted_at && existing.status === 'preparing') await temporal.startWorkspace(workspaceInput(existing, actor.organizationId, options.idleMs), chat.id);
          return existing;
        }
      }
      const { message, flags } = messageAndModes(input);
      const { agent, model } = await policy.resolveAgentAndModel(actor.organizationId, { agent: input.coding_agent ?? null, model: input.model ?? null });
      checkModes(agent, { ...flags, thinking_level: input.thinking_level });
      await checkModel(actor.organizationId, agent, input.model ?? null);

      const environmentId = input.environment_id ?? (await policy.defaultEnvironmentId(actor.organizationId)) ?? 'global';
      const env = await environments.access(actor, environmentId);
      const repos = await repositories.boundTo(actor.organizationId, env);
      const webhook = typeof input.webhook_url === 'string' ? { url: input.webhook_url } : input.webhook_url;
      const engineSecret = randomBytes(32).toString('base64url');
      const fresh = {
        ids: { replicaId: options.replicaId ?? randomUUID(), chatId: randomUUID(), messageId: randomUUID() },
        actor,
        source,
        environmentId: env.id,
        name: input.name,
        message,
        flags,
        agent,
        model,
        thinkingLevel: input.thinking_level,
        images: input.images,
        size: input.size,
        lifecyclePolicy: input.lifecycle_policy,
        config: input.config,
        webhook: webhook ? { url: webhook.url, sealedSecret: webhook.secret ? secretBox.seal(webhook.secret) : null } : null,
        engineSecret: { sealed: secretBox.seal(engineSecret), hash: hashEngineSecret(engineSecret) },
        repositories: repos,
      };
      const row = await replicasRepo.insertWithFirstMessage(newReplicaRecord(fresh));
      for (const [type, payload] of newReplicaEvents(fresh)) await events.emit(row.id, type, payload);
      const chatId = fresh.ids.chatId;
      await temporal.startWorkspace(workspaceInput(row, actor.organizationId, options.idleMs), chatId);
      return row;
    },

    async list(actor: Actor, q: { page: number; limit: number; user_id?: string; source?: string; status?: string }) {
      const base = () =>
        visibleReplicas(db, actor).modify((b) => {
          if (q.user_id) b.where('user_id', q.user_id);
          if (q.source) b.where('source', q.source);
          if (q.status) b.where('status', q.status);
        });
      const [{ count }] = await base().count({ count: '*' });
      // Archived ones: most recently active first; otherwise newest first.
      const orderBy = q.status === 'archived' ? 'coalesce(last_activity_at, created_at) desc, id' : 'created_at desc, id';
      const rows = (await base().orderByRaw(orderBy).limit(q.limit).offset((q.page - 1) * q.limit)) as ReplicaRow[];
      const total = Number(count);
      return { replicas: rows.map(serializeReplicaListItem), total, page: q.page, limit: q.limit, total_pages: Math.ceil(total / q.limit) };
    },

    async get(actor: Actor, id: string) {
      const row = await accessReplica(db, actor, id);
      const waking = await wakeIfAsleep(row);
      const chats = await db('replica_chats').where({ replica_id: id }).whereNull('deleted_at').orderBy('created_at');
      return { row, waking, chats };
    },

    /**
     * The `include=environment` block (interop §4.2): what the workspace was given, by name
     * only — never a value — and which agents it can run.
     */
    async environmentBlock(row: ReplicaRow) {
      const environmentIds: string[] = row.environment_id
        ? [row.environment_id, ...(await db('environments').where({ id: row.environment_id }).whereNotNull('source_environment_id').pluck('source_environment_id'))]
        : [];
      const globalId = (await db('environments').where({ organization_id: row.organization_id, is_global: true }).first())?.id;
      const ids = [...new Set([globalId, ...environmentIds].filter(Boolean))] as string[];
      const [files, variables, skills, credentials, hookLogs] = await Promise.all([
        db('environment_files').whereIn('environment_id', ids).distinct('path').orderBy('path').pluck('path'),
        db('environment_variables').whereIn('environment_id', ids).distinct('key').orderBy('key').pluck('key'),
        db('environment_skills').whereIn('environment_id', ids).distinct('slug').orderBy('slug').pluck('slug'),
        db('agent_credentials')
          .where({ organization_id: row.organization_id })
          .where((q) => {
            q.whereNull('user_id');
            if (row.user_id) q.orWhere('user_id', row.user_id);
          })
          .select('agent', 'kind', 'user_id'),
        db('replica_hook_logs').where({ replica_id: row.id, kind: 'start' }).orderBy('executed_at').select('hook_name', 'exit_code', 'timed_out'),
      ]);
      const codingAgents = Object.fromEntries(
        Object.keys(AGENTS).map((agent) => {
          // A personal credential wins over the organization's, as at run time.
          const found = credentials.filter((c: { agent: string }) => c.agent === agent).sort((a: { user_id: string | null }) => (a.user_id ? -1 : 1))[0];
          return [agent, { available: !!found, auth_method: found?.kind ?? null }];
        }),
      );
      const failed = hookLogs.some((h: { exit_code: number | null; timed_out: boolean }) => h.exit_code !== 0 || h.timed_out);
      return {
        environment_id: row.environment_id,
        engine_version: 'hangar-1',
        files_uploaded: files,
        env_vars_set: variables,
        skills_installed: skills,
        integrations: { github: false, gitlab: false, linear: false, slack: false, google: false },
        coding_agents: codingAgents,
        hooks: {
          global_warm_hook: null,
          repositories: row.repositories.map((r) => ({ repository_name: r.name, warm_hook: null, start_hook: null })),
          environment_start_hooks: { status: hookLogs.length === 0 ? 'none' : failed ? 'failed' : 'completed', count: hookLogs.length },
        },
        provisioning_error: (row.config.provisioning_error as { message?: string } | undefined) ?? null,
        last_updated_at: row.updated_at.toISOString(),
      };
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(db, actor, id);
      await db('replicas').where({ id: row.id }).update({ deleted_at: db.fn.now() });
      if (!(await temporal.requestLifecycle(row.id, 'delete'))) await db('replicas').where({ id: row.id }).delete();
    },

    async sleep(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(db, actor, id);
      if (row.status === 'preparing' || row.status === 'error') throw conflict(`A ${row.status} workspace cannot sleep`);
      if (row.status === 'active') await temporal.requestLifecycle(row.id, 'sleep');
    },

    async archive(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(db, actor, id);
      if (row.status === 'preparing' || row.status === 'error') throw conflict(`A ${row.status} workspace cannot be archived`);
      if (row.status !== 'archived') await temporal.requestLifecycle(row.id, 'archive');
    },

    async wake(actor: Actor, id: string) {
      const row = await accessReplica(db, actor, id);
      if (row.status === 'error') throw conflict('A workspace in error cannot be woken');
      return { row, waking: await wakeIfAsleep(row) };
    },

    async sendMessage(actor: Actor, id: string, input: SendMessageInput) {
      const row = await accessReplica(db, actor, id);
      if (row.status === 'error') throw conflict('The workspace is in error', (row.config.provisioning_error as { message?: string } | undefined)?.message ?? null);
      const { message, flags } = messageAndModes(input);
      const agent = (input.coding_agent ?? row.coding_agent) as AgentId;
      checkModes(agent, { ...flags, thinking_level: input.thinking_level });
      await checkModel(row.organization_id, agent, input.model ?? null);
      const model = input.model ?? row.agent_models[agent] ?? null;

      const result = await db.transaction(async (trx) => {
        await trx('replicas').where({ id: row.id }).forUpdate().first();
        let chat = input.chat_id
          ? await trx('replica_chats').where({ id: input.chat_id, replica_id: row.id }).whereNull('deleted_at').first()
          : await trx('replica_chats').where({ replica_id: row.id }).whereNull('deleted_at').orderBy('updated_at', 'desc').first();
        if (input.chat_id && !chat) throw invalid('Invalid body', 'body.chat_id: no such chat in this replica');
        let created = false;
        if (!chat) {
          [chat] = await trx('replica_chats').insert({ id: randomUUID(), replica_id: row.id, provider: agent, title: message.slice(0, 80) }).returning('*');
          created = true;
        }
        const ahead = await trx('replica_messages').where({ chat_id: chat.id }).whereIn('status', ['queued', 'running']).count({ count: '*' }).first();
        const max = await trx('replica_messages').where({ chat_id: chat.id }).max({ max: 'queue_position' }).first();
        const messageId = randomUUID();
        await trx('replica_messages').insert({
          id: messageId,
          replica_id: row.id,
          chat_id: chat.id,
          content: message,
          status: 'queued',
          queue_position: Number(max?.max ?? 0) + 1,
          coding_agent: agent,
          model,
          options: JSON.stringify({ ...flags, thinking_level: input.thinking_level ?? null, images: input.images ?? [] }),
          sender_user_id: input.senderUserId ?? actor.userId,
          sender_email: input.senderEmail ?? null,
        });
        await trx('replicas')
          .where({ id: row.id })
          .update({
            last_activity_at: trx.fn.now(),
            ...(input.model ? { agent_models: JSON.stringify({ ...row.agent_models, [agent]: input.model }) } : {}),
          });
        return { chat, created, messageId, position: Number(ahead?.count ?? 0) };
      });
      if (result.created) await events.emit(row.id, 'chat.created', { chat: { id: result.chat.id, provider: agent, title: result.chat.title, processing: false } });
      const queued = result.position > 0 || row.status !== 'active';
      await events.emit(row.id, 'chat.turn.accepted', { chatId: result.chat.id, messageId: result.messageId, queued, position: result.position });
      await temporal.requestWork(row.id, result.chat.id);
      const status = row.status === 'sleeping' || row.status === 'archived' ? 'waking' : queued ? 'queued' : 'sent';
      return { status, message_id: result.messageId, position: queued ? result.position : null, chat_id: result.chat.id };
    },
  };
}

export type ReplicasService = ReturnType<typeof createReplicasService>;
