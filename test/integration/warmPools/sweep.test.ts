/**
 * The sweep a worker runs at start over the engine's warm-pool containers (removing those of
 * entries retired while it was away) on an engine that other hosts' workers and another
 * deployment share: it removes only its own host's containers of entries its database knows
 * to be retired, and never another deployment's warm workspace (whose pool it does not know),
 * even though that entry is missing from its database.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { sweepRetiredWarmContainers } from '../../../src/processes/warmPoolSweep';
import { WARM_POOL_LABEL } from '../../../activities/warmPool';
import { createDocker } from '../../../src/sandbox';
import { LABEL_ROLE } from '../../../src/sandbox/docker';
import { HOST_LABEL } from '../../../src/sandbox/workspace/movedAway';
import { LABEL_REPLICA, WORKSPACE_ROLE, workspaceName } from '../../../src/sandbox/workspace';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { TTY_TEST_IMAGE } from '../../support/ttyDocker';

describe('warm pools: the start-up sweep on a shared engine', function () {
  this.timeout(120_000);
  const docker = createDocker();
  const made: string[] = [];

  /** A warm workspace's container as a worker makes it (created, not started: the sweep lists all). */
  const warmContainer = async (entryId: string, configId: string, hostId: string) => {
    const name = workspaceName(entryId);
    await docker.createContainer({
      name,
      Image: TTY_TEST_IMAGE,
      Cmd: ['sleep', 'infinity'],
      Labels: { [LABEL_ROLE]: WORKSPACE_ROLE, [LABEL_REPLICA]: entryId, [WARM_POOL_LABEL]: configId, [HOST_LABEL]: hostId },
    });
    made.push(name);
  };
  const exists = (entryId: string) => docker.getContainer(workspaceName(entryId)).inspect().then(() => true, () => false);

  after(async () => {
    await Promise.all(made.map((name) => docker.getContainer(name).remove({ force: true }).catch(() => undefined)));
  });

  it("removes its own host's containers of retired entries only, never another deployment's or another host's", async () => {
    const org = await newOrg('warm-sweep');
    const env = (await as(org.org_api_key).post('/v1/environments', { name: 'swept-pool' })).body.environment;
    const db = harness().database.db;
    const configId = randomUUID();
    await db('warm_pool_configs').insert({ id: configId, organization_id: org.organization_id, environment_id: env.id, enabled: false, target_size: 1 });
    const entry = (status: string) => ({ id: randomUUID(), organization_id: org.organization_id, warm_pool_config_id: configId, environment_id: env.id, status, generation: 1, env_hash: 'x' });
    const [retired, ready, otherHostsRetired] = [entry('expired'), entry('ready'), entry('expired')];
    await db('warm_pool_workspaces').insert([retired, ready, otherHostsRetired]);
    const goneRow = randomUUID();
    const hostId = `sweep-host-${randomUUID().slice(0, 8)}`;

    await warmContainer(retired.id, configId, hostId);
    await warmContainer(ready.id, configId, hostId);
    await warmContainer(goneRow, configId, hostId);
    await warmContainer(otherHostsRetired.id, configId, `${hostId}-b`);
    // Another deployment's warm workspace on this host's engine: neither its pool nor its entry is here.
    const theirs = randomUUID();
    await warmContainer(theirs, randomUUID(), hostId);

    const removed = await sweepRetiredWarmContainers({
      docker,
      hostId,
      warmPools: harness().database.repos.warmPools,
      remove: (id) => docker.getContainer(workspaceName(id)).remove({ force: true }),
      logger: createLogger({ level: 'error' }),
    });

    expect(removed).to.equal(2);
    expect(await exists(retired.id), 'a retired entry of its own pool').to.equal(false);
    expect(await exists(goneRow), 'an entry of its own pool whose row is gone').to.equal(false);
    expect(await exists(ready.id), 'a ready entry').to.equal(true);
    expect(await exists(otherHostsRetired.id), "another host's container, left to that host").to.equal(true);
    expect(await exists(theirs), "another deployment's warm workspace").to.equal(true);
  });
});
