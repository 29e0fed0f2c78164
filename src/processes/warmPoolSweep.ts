/**
 * A worker starting on its host removes the containers of warm-pool entries that were retired
 * while it was away: the pool's workflow sends such removals to the entry's own host, and a host
 * that was not running then could not take them (docs/decisions/hosts.md, "Warm pools across hosts").
 */
import type Docker from 'dockerode';
import { WARM_POOL_LABEL } from '../../activities/warmPool';
import type { WarmPoolsRepository } from '../db/warmPoolsRepository';
import type { Logger } from '../logger';
import { LABEL_REPLICA } from '../sandbox/workspace/container';

export async function sweepRetiredWarmContainers(deps: { docker: Docker; warmPools: WarmPoolsRepository; remove: (entryId: string) => Promise<void>; logger: Logger }): Promise<number> {
  const found = await deps.docker.listContainers({ all: true, filters: { label: [WARM_POOL_LABEL] } });
  const entryIds = found.map((c) => c.Labels[LABEL_REPLICA]).filter((id): id is string => !!id);
  const retired = await deps.warmPools.retiredAmong(entryIds);
  for (const id of retired) await deps.remove(id).catch((err) => deps.logger.warn('removing a retired warm workspace failed', { entryId: id, err }));
  if (retired.length) deps.logger.info('removed containers of retired warm-pool entries', { count: retired.length });
  return retired.length;
}
