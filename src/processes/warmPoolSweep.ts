/**
 * A worker starting on its host removes the containers of warm-pool entries that were retired
 * while it was away: the pool's workflow sends such removals to the entry's own host, and a host
 * that was not running then could not take them (docs/decisions/hosts.md, "Warm pools across hosts").
 * Only its own host's containers, and only of pools its database knows: one Docker engine can
 * serve other hosts' workers and other deployments, whose entries it cannot judge.
 */
import type Docker from 'dockerode';
import { WARM_POOL_LABEL } from '../../activities/warmPool';
import type { WarmPoolsRepository } from '../db/warmPoolsRepository';
import type { Logger } from '../logger';
import { LABEL_REPLICA } from '../sandbox/workspace/container';
import { HOST_LABEL } from '../sandbox/workspace/movedAway';

export async function sweepRetiredWarmContainers(deps: {
  docker: Docker;
  hostId: string;
  warmPools: Pick<WarmPoolsRepository, 'retiredOfKnownPools'>;
  remove: (entryId: string) => Promise<void>;
  logger: Logger;
}): Promise<number> {
  const found = await deps.docker.listContainers({ all: true, filters: { label: [WARM_POOL_LABEL, `${HOST_LABEL}=${deps.hostId}`] } });
  const entries = found.flatMap((c) => {
    const id = c.Labels[LABEL_REPLICA];
    const configId = c.Labels[WARM_POOL_LABEL];
    return id && configId ? [{ id, configId }] : [];
  });
  const retired = await deps.warmPools.retiredOfKnownPools(entries);
  for (const id of retired) await deps.remove(id).catch((err) => deps.logger.warn('removing a retired warm workspace failed', { entryId: id, err }));
  if (retired.length) deps.logger.info('removed containers of retired warm-pool entries', { count: retired.length });
  return retired.length;
}
