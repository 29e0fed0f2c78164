/**
 * Organization networks created at once by several processes sharing one engine and one subnet
 * pool (workers of a deployment, or the suite's parallel test processes): each gets a subnet of
 * its own, however many race. A real Docker engine decides which creation wins each subnet.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { createWorkspaceNetworks, organizationNetworkName } from '../../../src/sandbox/network/networks';

const silent = createLogger({ level: 'error', write: () => undefined });
/** A pool of this file's own (16 /26s), apart from the harness's 10.213.0.0/16. */
const POOL = { pool: '10.215.0.0/22', prefixLength: 26 };

describe('workspace networks: subnets under concurrent creation', function () {
  this.timeout(180_000);
  const docker = createDocker();
  const organizations = Array.from({ length: 12 }, () => randomUUID());

  after(async () => {
    await Promise.all(organizations.map((id) => docker.getNetwork(organizationNetworkName(id)).remove().catch(() => undefined)));
  });

  it('gives twelve networks created at once by four processes a subnet each', async () => {
    // Four managers stand for four processes: none knows what the others are creating.
    const managers = Array.from({ length: 4 }, () => createWorkspaceNetworks(docker, POOL, silent));
    const names = await Promise.all(organizations.map((id, i) => managers[i % managers.length]!.forOrganization(id)));
    expect(names).to.deep.equal(organizations.map(organizationNetworkName));
    const subnets = await Promise.all(
      names.map(async (name) => ((await docker.getNetwork(name).inspect()) as { IPAM: { Config: Array<{ Subnet: string }> } }).IPAM.Config[0]!.Subnet),
    );
    expect(new Set(subnets).size, subnets.join(' ')).to.equal(organizations.length);
    for (const subnet of subnets) expect(subnet).to.match(/^10\.215\.[0-3]\.\d+\/26$/);
  });
});
