/**
 * Presence: who of the organization is online, where (an environment or a workspace) and
 * whether they are typing. Heartbeats write the short-lived store (src/presence), never the
 * database; changes go out on the event bus to the organization's stream and the workspace's.
 * Each API process sweeps the store for members whose heartbeats stopped; the store hands each
 * expired member to one sweeper only, which announces `presence.left` (docs/decisions/clients.md,
 * "Presence").
 */
import type { Repositories } from '../db';
import type { Actor } from '../domain/actor';
import { forbidden, invalid, isDomainError, notFound, unavailable } from '../domain/errors';
import { checkEnvironmentAccess } from '../domain/environments';
import {
  departure,
  heartbeatBroadcasts,
  presenceView,
  type PresenceBroadcast,
  type PresenceLocation,
  type PresenceView,
} from '../domain/presence';
import type { EventBus } from '../events/bus';
import { publishPresence, subscribePresence, type LivePresenceEvent } from '../events/presence';
import type { Logger } from '../logger';
import type { PresenceStore } from '../presence';
import type { HeartbeatInput, PresenceFilter } from '../schemas/presence';

export interface PresenceServiceDeps {
  repos: Pick<Repositories, 'replicas' | 'environments' | 'identity'>;
  store: PresenceStore;
  bus: EventBus;
  ttlMs: number;
  logger: Logger;
  clock?: () => number;
}

/** The body's and the query's own types, derived from their schemas (src/schemas/presence.ts). */
export type { HeartbeatInput, PresenceFilter };

/** Claims per store round trip while sweeping. */
const SWEEP_BATCH = 100;

export function createPresenceService(deps: PresenceServiceDeps) {
  const { repos, store, bus, logger } = deps;
  const clock = deps.clock ?? Date.now;
  // A member disappears from reads at the deadline; the departure is announced within one sweep.
  const sweepEveryMs = Math.min(1000, Math.max(100, Math.floor(deps.ttlMs / 4)));
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  let lastSweepWarning = 0;

  /** Presence is a person's: an organization key acts for nobody. */
  function memberOf(actor: Actor): string {
    if (actor.keyKind === 'org' || !actor.userId) {
      throw forbidden('Presence belongs to a member', 'Organization API keys act for no person: send heartbeats with a personal API key');
    }
    return actor.userId;
  }

  /** The location must be one the member may see: anything else is the same 404. */
  async function checkLocation(actor: Actor, location: PresenceLocation): Promise<void> {
    if (location.type === 'workspace') {
      if (!(await repos.replicas.findVisible(actor, location.id))) throw notFound('Workspace');
      return;
    }
    checkEnvironmentAccess(actor, await repos.environments.find(actor.organizationId, location.id));
  }

  /** The store is a network service: its failures are 503, not 500. */
  async function reach<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isDomainError(err)) throw err;
      logger.warn('presence store failed', { err: err as Error });
      throw unavailable('Presence is unavailable', 'The presence store does not answer; try again shortly');
    }
  }

  async function announce(broadcasts: PresenceBroadcast[], now: number): Promise<void> {
    for (const { audience, event } of broadcasts) {
      await publishPresence(bus, audience, event, now).catch((err: Error) => logger.warn('could not announce a presence change', { err, type: event.type }));
    }
  }

  async function sweepOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = clock();
      const expired = await store.claimExpired(now, SWEEP_BATCH);
      for (const entry of expired) await announce(departure(entry, 'expired'), now);
      total += expired.length;
      if (expired.length < SWEEP_BATCH) return total;
    }
  }

  return {
    async heartbeat(actor: Actor, input: HeartbeatInput): Promise<PresenceView> {
      const userId = memberOf(actor);
      await checkLocation(actor, input.location);
      const user = await repos.identity.findUser(actor.organizationId, userId);
      if (!user) throw notFound('User');
      const now = clock();
      const { entry, previous } = await reach(() =>
        store.heartbeat(
          {
            organizationId: actor.organizationId,
            userId,
            displayName: user.display_name,
            avatarUrl: user.avatar_url,
            location: { type: input.location.type, id: input.location.id },
            typing: input.typing ?? false,
          },
          now,
        ),
      );
      await announce(heartbeatBroadcasts(previous, entry, now), now);
      return presenceView(entry);
    },

    /** Leaving is idempotent: a member who is not there has nothing to announce. */
    async leave(actor: Actor): Promise<void> {
      const userId = memberOf(actor);
      const now = clock();
      const previous = await reach(() => store.leave(actor.organizationId, userId));
      if (previous) await announce(departure(previous, previous.expiresAt > now ? 'left' : 'expired'), now);
    },

    async list(actor: Actor, filter: PresenceFilter = {}): Promise<PresenceView[]> {
      if ((filter.location_type === undefined) !== (filter.location_id === undefined)) {
        throw invalid('Invalid query', 'query: location_type and location_id go together');
      }
      const entries = await reach(() => store.list(actor.organizationId, clock()));
      return entries
        .filter((e) => !filter.location_type || (e.location.type === filter.location_type && e.location.id === filter.location_id))
        .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.userId.localeCompare(b.userId))
        .map(presenceView);
    },

    /** The organization's presence news, for its events stream (any key of the organization). */
    followOrganization(actor: Actor, deliver: (event: LivePresenceEvent) => void): Promise<() => Promise<void>> {
      return subscribePresence(bus, { kind: 'organization', organizationId: actor.organizationId }, deliver);
    },

    /** Presence news of one workspace the actor may see, for its replica events stream. */
    async followWorkspace(actor: Actor, replicaId: string, deliver: (event: LivePresenceEvent) => void): Promise<() => Promise<void>> {
      if (!(await repos.replicas.findVisible(actor, replicaId))) throw notFound('Replica');
      return subscribePresence(bus, { kind: 'workspace', replicaId }, deliver);
    },

    /** Announces every member whose deadline passed; runs on a timer in each API process. */
    sweep(): Promise<number> {
      return sweepOnce();
    },

    startSweeping(): void {
      if (timer) return;
      timer = setInterval(() => {
        if (sweeping) return;
        sweeping = sweepOnce()
          .catch((err: Error) => {
            // Once per half minute while the store is down, not once per sweep.
            if (Date.now() - lastSweepWarning < 30_000) return;
            lastSweepWarning = Date.now();
            logger.warn('presence sweep failed', { err });
          })
          .finally(() => (sweeping = null));
      }, sweepEveryMs);
      timer.unref();
    },

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping;
      await store.close();
    },
  };
}

export type PresenceService = ReturnType<typeof createPresenceService>;
