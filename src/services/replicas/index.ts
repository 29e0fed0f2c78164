/**
 * The replica (workspace) API: create, list, read (waking on read), delete, sleep, archive,
 * wake, messages, and what a client follows of a replica (chats, queues, history, hook logs,
 * the events stream). The database is the record; the workspace workflow is told about work
 * and lifecycle requests and does the rest.
 */
import type { OutboundPolicy } from '../../integrations/outbound/addressGuard';
import { CANONICAL_UUID } from '../../domain/inputHygiene';
import { createReplicaRecord, workspaceInputOf } from '../../core/replicas/createRecord';
import type { SecretBox } from '../../crypto/secretBox';
import type { Repositories } from '../../db';
import type { ReplicaListQuery, ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { conflict, invalid, notFound, unauthenticated } from '../../domain/errors';
import { hashEngineSecret } from '../../domain/replicas';
import type { EventBus } from '../../events/bus';
import { replicaChannel, type ReplicaEventEmitter } from '../../events/replicaEvents';
import type { WorkflowControl } from '../../temporal/workflowControl';
import type { CreateReplicaInput } from '../../schemas/replicas';
import { replicaBlobPrefix } from '../../../workflows/shared';
import type { BlobStore } from '../../storage';
import { accessReplica, isAsleep } from './access';
import { createChatsService } from './chats';
import { environmentBlock, type IntegrationsOf } from './environmentBlock';
import { createReplicaEventFeed, type FollowHandle, type FollowOptions } from './eventFeed';
import { createEventWatermark, type WatermarkOptions } from './eventWatermark';
import { createHistoryService } from './history';
import { createMessagesService } from './messages';
import { createQueueService } from './queue';
import { serializeReplicaListItem } from './serialize';

/** The create body's own type, derived from its schema (src/schemas/replicas.ts). */
export type { CreateReplicaInput };

export interface ReplicaTimings {
  idleMs: number;
  archiveAfterMs: number;
  historyLimit: number;
}

export interface ReplicasDeps {
  /** Where a webhook_url may point (the SSRF guard; the worker checks again when it delivers). */
  outbound: Pick<OutboundPolicy, 'checkUrl'>;
  repos: Pick<
    Repositories,
    | 'transact'
    | 'replicas'
    | 'replicaChats'
    | 'replicaMessages'
    | 'replicaLogs'
    | 'replicaEvents'
    | 'codeRepositories'
    | 'environments'
    | 'environmentResources'
    | 'credentials'
    | 'organizationSettings'
    | 'modelCatalog'
  >;
  secretBox: SecretBox;
  temporal: Pick<WorkflowControl, 'startWorkspace' | 'requestLifecycle' | 'requestWork'>;
  events: ReplicaEventEmitter;
  bus: EventBus;
  timings: ReplicaTimings;
  watermark?: WatermarkOptions;
  /** A replica deleted without its workflow takes its media here (the workflow's delete does it otherwise). */
  blobs?: Pick<BlobStore, 'deleteByPrefix'>;
  /** The environment block's `integrations` and `plugins` (the plugins service); all false and none without it. */
  integrations?: IntegrationsOf;
}

export function createReplicasService(deps: ReplicasDeps) {
  const { repos, temporal, events, timings } = deps;
  const { replicas } = repos;

  /** Wakes a sleeping or archived workspace; the answer says whether it is waking. */
  async function wakeIfAsleep(row: ReplicaRow): Promise<boolean> {
    if (!isAsleep(row)) return false;
    await temporal.requestLifecycle(row.id, 'wake');
    return true;
  }

  const watermark = createEventWatermark(repos.replicaEvents, deps.watermark);
  const feed = createReplicaEventFeed({ events: repos.replicaEvents, bus: deps.bus, watermark });
  const messages = createMessagesService({ repos, events, temporal });

  return {
    chats: createChatsService({ repos, events, wakeIfAsleep }),
    queue: createQueueService({ repos, events }),
    history: createHistoryService({ repos, wakeIfAsleep }),
    sendMessage: messages.send,
    sendToChat: messages.sendToChat,
    sendDeferred: messages.sendDeferred,
    environmentBlock: (row: ReplicaRow) => environmentBlock(repos, row, deps.integrations),

    /** The engine secret of a workspace authenticates calls made from inside it. */
    async authenticateEngine(workspaceId: string, authorization: string | undefined): Promise<Actor> {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !CANONICAL_UUID.test(workspaceId)) throw unauthenticated('invalid workspace engine credentials');
      const row = await replicas.findLive(workspaceId);
      if (!row || row.engine_secret_hash !== hashEngineSecret(match[1]!)) throw unauthenticated('invalid workspace engine credentials');
      return { organizationId: row.organization_id, userId: row.user_id, keyKind: row.user_id ? 'personal' : 'org', keyId: `engine:${row.id}`, isAdmin: false };
    },

    async create(actor: Actor, input: CreateReplicaInput, source = 'api'): Promise<ReplicaRow> {
      const webhook = typeof input.webhook_url === 'string' ? { url: input.webhook_url } : input.webhook_url;
      const refused = webhook ? await deps.outbound.checkUrl(webhook.url) : null;
      if (refused) throw invalid('Invalid body', `body.webhook_url: ${refused}`);
      const { row, chatId } = await createReplicaRecord(deps, {
        actor,
        source,
        environmentId: input.environment_id ?? null,
        name: input.name,
        message: input.message,
        modes: { plan_mode: input.plan_mode, goal_mode: input.goal_mode, fast_mode: input.fast_mode },
        agent: input.coding_agent ?? null,
        model: input.model ?? null,
        thinkingLevel: input.thinking_level ?? null,
        images: input.images,
        size: input.size,
        lifecyclePolicy: input.lifecycle_policy,
        config: input.config,
        webhook: webhook ?? null,
      });
      await temporal.startWorkspace(workspaceInputOf(row, timings), chatId, { names: { replicaName: row.name } });
      return row;
    },

    async list(actor: Actor, q: ReplicaListQuery) {
      const { rows, total } = await replicas.listVisible(actor, q);
      return { replicas: rows.map(serializeReplicaListItem), total, page: q.page, limit: q.limit, total_pages: Math.ceil(total / q.limit) };
    },

    async get(actor: Actor, id: string) {
      const row = await accessReplica(replicas, actor, id);
      const waking = await wakeIfAsleep(row);
      return { row, waking, chats: await repos.replicaChats.list(id) };
    },

    async remove(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(replicas, actor, id);
      await replicas.markDeleted(row.id);
      if (!(await temporal.requestLifecycle(row.id, 'delete'))) {
        await deps.blobs?.deleteByPrefix(replicaBlobPrefix(row.id));
        await replicas.delete(row.id);
      }
    },

    async sleep(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(replicas, actor, id);
      if (row.status === 'preparing' || row.status === 'error') throw conflict(`A ${row.status} workspace cannot sleep`);
      if (row.status === 'active') await temporal.requestLifecycle(row.id, 'sleep');
    },

    async archive(actor: Actor, id: string): Promise<void> {
      const row = await accessReplica(replicas, actor, id);
      if (row.status === 'preparing' || row.status === 'error') throw conflict(`A ${row.status} workspace cannot be archived`);
      if (row.status !== 'archived') await temporal.requestLifecycle(row.id, 'archive');
    },

    async wake(actor: Actor, id: string) {
      const row = await accessReplica(replicas, actor, id);
      if (row.status === 'error') throw conflict('A workspace in error cannot be woken');
      return { row, waking: await wakeIfAsleep(row) };
    },

    /**
     * Checks access, then follows the replica's events from `after` (null: from now). Access
     * is checked first so a foreign id is a JSON 404, not an empty stream.
     */
    async followEvents(actor: Actor, replicaId: string, options: FollowOptions): Promise<FollowHandle> {
      const replica = await accessReplica(replicas, actor, replicaId);
      return feed.follow(replica.id, options);
    },

    /** Whether the replica still exists (streams end when it is deleted). */
    async exists(replicaId: string): Promise<boolean> {
      return (await replicas.findLive(replicaId)) !== null;
    },

    /**
     * Resolves once the replica is past `preparing` (active or in error), or with the replica as
     * it is when `timeoutMs` runs out: the legacy create (no X-Api-Version) answers then.
     */
    async untilSettled(id: string, timeoutMs: number): Promise<ReplicaRow> {
      let wake: () => void = () => {};
      const unsubscribe = await deps.bus.subscribe(replicaChannel(id), () => wake());
      const deadline = Date.now() + timeoutMs;
      try {
        for (;;) {
          const row = await replicas.find(id);
          if (!row) throw notFound('Replica');
          if (row.status !== 'preparing' || Date.now() > deadline) return row;
          // Woken by the replica's next event, or read again after a second at most.
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 1000);
          });
        }
      } finally {
        await unsubscribe();
      }
    },

    close() {
      watermark.close();
    },
  };
}

export type ReplicasService = ReturnType<typeof createReplicasService>;
export type { CreateChatInput } from './chats';
export type { HistoryQuery } from './history';
export type { DeferredMessageInput, SendMessageInput, WorkspaceMessageInput } from './messages';
export type { QueueView } from './queue';
export { engineChatSummary, serializeHookLog, serializeReplicaChat, serializeReplicaListItem, serializeWorkspaceChat } from './serialize';
export type { ReplicaRow };
