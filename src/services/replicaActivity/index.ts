/**
 * What a client follows of a replica: its events stream, chats, per-chat queues, agent
 * history and hook logs. Visibility is the replica API's (`replicas/access`): the replica must
 * be in the caller's organization, and a personal replica is seen by its owner and by org
 * keys; anything else is 404.
 */
import type { Knex } from 'knex';
import type { EventBus } from '../../events/bus';
import type { ReplicaEventEmitter } from '../../events/replicaEvents';
import type { Actor } from '../../domain/actor';
import { accessReplica } from '../replicas/access';
import { createChatsService } from './chats';
import { createReplicaEventFeed, type FollowHandle, type FollowOptions } from './eventFeed';
import { createEventWatermark, type WatermarkOptions } from './eventWatermark';
import { createHistoryService } from './history';
import { createQueueService } from './queue';

export interface ReplicaActivityDeps {
  db: Knex;
  events: ReplicaEventEmitter;
  bus: EventBus;
  /** Asks the workspace workflow to wake a sleeping or archived replica; reads call it. */
  wake?: (replicaId: string) => Promise<void>;
  watermark?: WatermarkOptions;
}

export function createReplicaActivityService(deps: ReplicaActivityDeps) {
  const { db, events, bus } = deps;
  const watermark = createEventWatermark(db, deps.watermark);
  const feed = createReplicaEventFeed({ db, bus, watermark });
  const chats = createChatsService({ db, events, wake: deps.wake ?? (async () => {}) });
  const queue = createQueueService({ db, events });
  const history = createHistoryService({ db, wakeIfAsleep: chats.wakeIfAsleep });

  return {
    chats,
    queue,
    history,

    /**
     * Checks access, then follows the replica's events from `after` (null: from now). Access
     * is checked first so a foreign id is a JSON 404, not an empty stream.
     */
    async followEvents(actor: Actor, replicaId: string, options: FollowOptions): Promise<FollowHandle> {
      const replica = await accessReplica(db, actor, replicaId);
      return feed.follow(replica.id, options);
    },

    /** Whether the replica still exists (streams end when it is deleted). */
    async exists(replicaId: string): Promise<boolean> {
      return !!(await db('replicas').where({ id: replicaId }).whereNull('deleted_at').first('id'));
    },

    close() {
      watermark.close();
    },
  };
}

export type ReplicaActivityService = ReturnType<typeof createReplicaActivityService>;
export { engineChatSummary, serializeReplicaChat, serializeWorkspaceChat, type ChatRow } from './chatRows';
export { serializeHookLog } from './history';
export type { CreateChatInput } from './chats';
export type { QueueView } from './queue';
