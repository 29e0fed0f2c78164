/**
 * Following one warm-pool workspace (`GET /v1/warm-pool-workspaces/{id}/stream`): who may,
 * and its current record. Another organization's entry is 404; an entry of a personal
 * environment follows that environment's access rules, and one the actor may not see is the
 * same 404 as an entry that does not exist.
 */
import type { Repositories } from '../db';
import type { WarmPoolWorkspaceRow } from '../db/warmPoolsRepository';
import type { Actor } from '../domain/actor';
import { notFound } from '../domain/errors';
import { accessThroughEnvironment, type EnvironmentsService } from './environments';

/** A warm workspace in one of these states changes no more: its stream ends. */
export const TERMINAL_WARM_STATUSES: ReadonlySet<string> = new Set(['ready', 'failed', 'expired', 'assigned']);

export function createWarmPoolStreamService(deps: { repos: Pick<Repositories, 'warmPools'>; environments: Pick<EnvironmentsService, 'access'> }) {
  const { warmPools } = deps.repos;
  return {
    /** The entry the actor may follow; 404 otherwise. */
    async entry(actor: Actor, id: string): Promise<WarmPoolWorkspaceRow> {
      const row = await warmPools.findEntry(id);
      const pool = row && row.organization_id === actor.organizationId ? await warmPools.findInOrganization(actor.organizationId, row.warm_pool_config_id) : null;
      if (!row || !pool) throw notFound('Warm pool workspace');
      await accessThroughEnvironment(deps.environments, actor, pool.environment_id, () => notFound('Warm pool workspace'));
      return row;
    },

    /** The entry's record now (after `entry` allowed it); null when it was deleted. */
    current: (id: string): Promise<WarmPoolWorkspaceRow | null> => warmPools.findEntry(id),
  };
}

export type WarmPoolStreamService = ReturnType<typeof createWarmPoolStreamService>;
