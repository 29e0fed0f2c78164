/**
 * Organization networks created at once by several processes sharing one engine and one subnet
 * pool (workers of a deployment, or the suite's parallel test processes): each gets a subnet of
 * its own, however many race, and one network created by several at once is made once. A real
 * Docker engine decides which creation wins each subnet. And none gets a subnet the host already
 * routes to another interface, which Docker would accept.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { createDocker } from '../../../src/sandbox';
import { createWorkspaceNetworks, organizationNetworkName } from '../../../src/sandbox/network/networks';

const run = promisify(execFile);
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

  it('makes one network when four processes create the same one at once, and each gets it', async () => {
    // The bridge name derives from the network's: the engine refuses the losers either as a
    // duplicate name (409) or as a duplicate bridge (403), depending on how far each got.
    for (let round = 0; round < 6; round++) {
      const organization = randomUUID();
      organizations.push(organization);
      const managers = Array.from({ length: 4 }, () => createWorkspaceNetworks(docker, POOL, silent));
      const names = await Promise.all(managers.map((m) => m.forOrganization(organization)));
      expect(names).to.deep.equal(managers.map(() => organizationNetworkName(organization)));
      expect(await docker.listNetworks({ filters: { name: [organizationNetworkName(organization)] } })).to.have.length(1);
      await docker.getNetwork(organizationNetworkName(organization)).remove();
    }
  });

  it('never takes a subnet the host routes to another interface (a bridge Docker left behind)', async () => {
    // A bridge Docker no longer lists, up with an address, as a failed network removal leaves one.
    const stale = `hgzt${randomBytes(4).toString('hex')}`;
    const pool = { pool: '10.215.16.0/25', prefixLength: 26 };
    const orgs = [randomUUID(), randomUUID()];
    await run('ip', ['link', 'add', stale, 'type', 'bridge']);
    try {
      await run('ip', ['addr', 'add', '10.215.16.1/26', 'dev', stale]);
      await run('ip', ['link', 'set', stale, 'up']);
      const networks = createWorkspaceNetworks(docker, pool, silent);
      const name = await networks.forOrganization(orgs[0]!);
      const info = (await docker.getNetwork(name).inspect()) as { IPAM: { Config: Array<{ Subnet: string }> } };
      expect(info.IPAM.Config[0]!.Subnet, 'the one subnet of the pool nothing routes').to.equal('10.215.16.64/26');
      // The rest of the pool is the routed one: refused, not shared with the stale bridge.
      const refusal = await networks.forOrganization(orgs[1]!).then(() => null, (err: Error) => err.message);
      expect(refusal).to.match(/no free \/26 subnet is left in the workspace pool 10\.215\.16\.0\/25/);
    } finally {
      await Promise.all(orgs.map((id) => docker.getNetwork(organizationNetworkName(id)).remove().catch(() => undefined)));
      await run('ip', ['link', 'del', stale]);
    }
  });
});
