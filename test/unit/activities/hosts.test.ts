import { MockActivityEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { createHostActivities } from '../../../activities/hosts';
import { silentLogger } from '../../../src/logger';

/** The placement activity over repositories that answer as a deployment of `hosts` recent hosts would. */
function activities(hosts: number) {
  const placed = { id: 'host-a', taskQueue: 'hangar@host-a' };
  const repos = {
    workerHosts: { placeReplica: async () => placed, placeWarmEntry: async () => placed, countRecent: async () => hosts },
    replicas: { find: async () => ({ organization_id: 'org', environment_id: 'env' }) },
    environments: { findGlobal: async () => null },
  };
  return createHostActivities({ repos: repos as never, logger: silentLogger, hostTimeoutMs: 300_000 });
}

/** Runs as an activity does (the placement reads when its attempt was scheduled). */
const inActivity = <T>(fn: () => Promise<T>) => new MockActivityEnvironment().run(fn);

describe('placing workspaces on worker hosts', () => {
  it('gives work on the only host no schedule-to-start timeout: it waits for that host to come back', async () => {
    expect(await inActivity(() => activities(1).placeWorkspace({ replicaId: 'r' }))).to.deep.equal({ hostId: 'host-a', taskQueue: 'hangar@host-a', scheduleToStartMs: null });
    expect((await activities(1).placeWarmPoolEntry({ configId: 'c' })).scheduleToStartMs).to.equal(null);
  });

  it('gives work the host timeout once there are several hosts: a host that does not pick it up is lost', async () => {
    expect(await inActivity(() => activities(2).placeWorkspace({ replicaId: 'r' }))).to.deep.equal({ hostId: 'host-a', taskQueue: 'hangar@host-a', scheduleToStartMs: 300_000 });
    expect((await activities(3).placeWarmPoolEntry({ configId: 'c' })).scheduleToStartMs).to.equal(300_000);
  });
});
