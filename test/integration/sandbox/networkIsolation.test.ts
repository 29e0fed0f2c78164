/**
 * Network isolation on the real engine: workspaces of two organizations, made through the
 * public API, on their own networks with the worker's egress rules installed. From A's
 * workspace, B's listening port, a host port that listens on every interface, the host's
 * PostgreSQL port and a cloud-metadata address (169.254.169.254, served from a network
 * namespace the host routes to, as a cloud VM's metadata service is) all refuse, while Hangar's
 * own API port answers; with the operator's allowlist in `allowlist` mode, only the listed
 * internal endpoint is reachable. The same rules installed through the engine (`engine` mode, a
 * worker in a container) hold alike, and a worker that cannot install them does not start.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, connect, type Server } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { applyFirewall, verifyFirewall } from '../../../src/sandbox/network/firewall';
import { ENGINE_HOST_ROLE, withEngineHost } from '../../../src/sandbox/network/engineHost';
import { isolateNetworks } from '../../../src/sandbox/network';
import { bridgeName, createWorkspaceNetworks, organizationNetworkName } from '../../../src/sandbox/network/networks';
import { createWorkspaceRuntime, workspaceName } from '../../../src/sandbox/workspace';
import { DOCKER_HOST_NAME } from '../../../src/domain/dockerHost';
import { silentLogger } from '../../../src/logger';
import { harness } from '../../support/harness';
import { execInContainer } from '../../support/containerExec';
import { newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

const run = promisify(execFile);
const V = { 'X-Api-Version': '2026-05-17' };
const TARGET_PORT = 8099;

/** One line from the workspace: `open` when a TCP connection to address:port succeeds within 5 s. */
async function probe(replicaId: string, address: string, port: number): Promise<'open' | 'refused'> {
  const out = await execInContainer(
    `hangar-ws-${replicaId}`,
    `if timeout 5 bash -c 'exec 3<>/dev/tcp/${address}/${port}' 2>/dev/null; then echo open; else echo refused; fi`,
  );
  return out.trim().split('\n').pop() === 'open' ? 'open' : 'refused';
}

async function activeWorkspace(): Promise<{ organizationId: string; replicaId: string }> {
  const org = await newOrg();
  // A turn that outlasts the file keeps the workspace from falling asleep (the harness's idle
  // timeout is 20 s) while the probes run, however slow the machine.
  const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'isolated', coding_agent: 'agent_1', message: '!sleep 600000' } });
  expect(created.status).to.equal(201);
  const replicaId: string = created.body.replica.id;
  await until(
    'the workspace to be active',
    async () => (await harness().database.db('replicas').where({ id: replicaId }).first('status'))?.status === 'active',
    120_000,
  );
  return { organizationId: org.organization_id, replicaId };
}

/** A namespace behind a veth pair, holding addresses the host routes to (as a LAN or a cloud's metadata service). */
class RoutedNamespace {
  readonly name = `hgrt${randomBytes(3).toString('hex')}`;
  private readonly hostSide = `${this.name}a`;
  private readonly inside = `${this.name}b`;
  private listener: ChildProcess | null = null;

  constructor(
    private readonly link: { host: string; peer: string },
    readonly addresses: string[],
  ) {}

  async start(): Promise<void> {
    const sh = (cmd: string) => run('sh', ['-ec', cmd]);
    const ns = `ip netns exec ${this.name}`;
    await sh(`ip netns add ${this.name}`);
    await sh(`ip link add ${this.hostSide} type veth peer name ${this.inside}`);
    await sh(`ip link set ${this.inside} netns ${this.name}`);
    await sh(`ip addr add ${this.link.host}/30 dev ${this.hostSide} && ip link set ${this.hostSide} up`);
    await sh(`${ns} ip link set lo up && ${ns} ip addr add ${this.link.peer}/30 dev ${this.inside} && ${ns} ip link set ${this.inside} up`);
    await sh(`${ns} ip route add default via ${this.link.host}`);
    for (const address of this.addresses) {
      await sh(`${ns} ip addr add ${address}/32 dev ${this.inside} && ip route add ${address}/32 via ${this.link.peer}`);
    }
    this.listener = spawn('ip', ['netns', 'exec', this.name, process.execPath, '-e', `require('net').createServer((s) => s.on('error', () => {}).end('hi\\n')).listen(${TARGET_PORT}, '0.0.0.0', () => console.log('listening'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      this.listener!.stdout!.once('data', () => resolve());
      this.listener!.once('exit', (code) => reject(new Error(`the namespace listener exited (${code})`)));
    });
  }

  async stop(): Promise<void> {
    this.listener?.kill('SIGKILL');
    for (const address of this.addresses) await run('ip', ['route', 'del', `${address}/32`]).catch(() => undefined);
    await run('ip', ['link', 'del', this.hostSide]).catch(() => undefined);
    await run('ip', ['netns', 'del', this.name]).catch(() => undefined);
  }
}

/** Whether the host itself reaches address:port (the control: the target does listen). */
function hostReaches(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 3000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

describe('network isolation: organizations cannot reach each other, the host or cloud metadata', function () {
  this.timeout(300_000);
  const lan = new RoutedNamespace({ host: '10.99.77.1', peer: '10.99.77.2' }, ['169.254.169.254', '198.51.100.7']);
  let hostService: Server;
  let hostPort: number;
  let a: { organizationId: string; replicaId: string };
  let b: { organizationId: string; replicaId: string };

  before(async () => {
    await lan.start();
    hostService = createServer((s) => s.on('error', () => {}).end('host\n'));
    await new Promise<void>((resolve) => hostService.listen(0, '0.0.0.0', resolve));
    hostPort = (hostService.address() as { port: number }).port;
    [a, b] = await Promise.all([activeWorkspace(), activeWorkspace()]);
  });

  after(async () => {
    await lan.stop();
    await new Promise((resolve) => hostService?.close(resolve));
    // Back to the shared harness's own rules.
    await applyFirewall(harness().config.workspaceEgress, silentLogger);
  });

  it('puts each organization on its own isolated network', async () => {
    const docker = createDocker();
    const infoA = await docker.getContainer(`hangar-ws-${a.replicaId}`).inspect();
    const infoB = await docker.getContainer(`hangar-ws-${b.replicaId}`).inspect();
    expect(Object.keys(infoA.NetworkSettings.Networks)).to.deep.equal([organizationNetworkName(a.organizationId)]);
    expect(Object.keys(infoB.NetworkSettings.Networks)).to.deep.equal([organizationNetworkName(b.organizationId)]);
    const network = (await docker.getNetwork(organizationNetworkName(a.organizationId)).inspect()) as { Options: Record<string, string> };
    expect(network.Options).to.include({
      'com.docker.network.bridge.enable_icc': 'false',
      'com.docker.network.bridge.name': bridgeName(organizationNetworkName(a.organizationId)),
    });
  });

  it('gives workspaces no IPv6, so no IPv6 path goes around the egress rules (IPv4 only)', async () => {
    const docker = createDocker();
    const network = (await docker.getNetwork(organizationNetworkName(a.organizationId)).inspect()) as { EnableIPv6: boolean };
    expect(network.EnableIPv6).to.equal(false);
    // Every interface's IPv6 is off (loopback's too), and no interface holds an IPv6 address, not even link-local.
    const seen = await execInContainer(
      `hangar-ws-${a.replicaId}`,
      '[ -d /proc/sys/net/ipv6 ] || echo "no IPv6 in this kernel"; for f in /proc/sys/net/ipv6/conf/*/disable_ipv6; do [ -e "$f" ] && echo "$f=$(cat $f)"; done; echo "addresses=$(cat /proc/net/if_inet6 2>/dev/null | grep -c . || true)"',
    );
    const lines = seen.trim().split('\n');
    // A kernel without IPv6 has no path to guard; otherwise the switches must be there, all off.
    if (!lines.includes('no IPv6 in this kernel')) expect(lines.filter((l) => l.startsWith('/proc/sys')).length, seen).to.be.greaterThan(0);
    expect(lines.filter((l) => l.startsWith('/proc/sys') && !l.endsWith('=1')), seen).to.deep.equal([]);
    expect(lines.at(-1), seen).to.equal('addresses=0');
  });

  it("refuses A's connections to B's workspace, the host's ports and cloud metadata, and lets it reach Hangar's API", async () => {
    const docker = createDocker();
    const addressB = Object.values((await docker.getContainer(`hangar-ws-${b.replicaId}`).inspect()).NetworkSettings.Networks)[0]!.IPAddress;
    // B listens on a port and reaches it itself.
    await execInContainer(`hangar-ws-${b.replicaId}`, `nohup node -e "require('net').createServer((s) => s.on('error', () => {}).end('b')).listen(${TARGET_PORT})" >/dev/null 2>&1 &`);
    await until('B to listen on its own port', async () => (await probe(b.replicaId, addressB, TARGET_PORT)) === 'open', 30_000);

    // The targets exist: the host reaches the metadata stand-in and its own service.
    expect(await hostReaches('169.254.169.254', TARGET_PORT)).to.equal(true);
    expect(await hostReaches('127.0.0.1', hostPort)).to.equal(true);

    expect(await probe(a.replicaId, addressB, TARGET_PORT), "B's workspace").to.equal('refused');
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, hostPort), 'a host port on every interface').to.equal('refused');
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, 5432), "the host's PostgreSQL port").to.equal('refused');
    expect(await probe(a.replicaId, '169.254.169.254', TARGET_PORT), 'cloud metadata').to.equal('refused');
    expect(await probe(a.replicaId, '10.99.77.2', TARGET_PORT), 'a private address').to.equal('refused');
    // Hangar's API (the AI gateway) is the host port workspaces need.
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, harness().config.port), "Hangar's API").to.equal('open');
    // Outside the internal ranges, `public` mode lets traffic through.
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'a public address').to.equal('open');
  });

  it("in allowlist mode reaches only what the operator lists", async () => {
    const { hostPorts } = harness().config.workspaceEgress;
    await applyFirewall({ mode: 'allowlist', allow: ['10.99.77.2'], hostPorts }, silentLogger);
    expect(await probe(a.replicaId, '10.99.77.2', TARGET_PORT), 'the allowlisted endpoint').to.equal('open');
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'an address not listed').to.equal('refused');
    expect(await probe(a.replicaId, '169.254.169.254', TARGET_PORT), 'cloud metadata').to.equal('refused');
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, harness().config.port), "Hangar's API").to.equal('open');
  });

  it('prints, for an engine the worker cannot reach, the script that installs the same rules', async () => {
    const { stdout } = await run('scripts/hangar', ['admin', 'firewall'], { env: { ...process.env, ...harness().env, HANGAR_WORKSPACE_EGRESS: 'allowlist', HANGAR_WORKSPACE_EGRESS_ALLOW: '10.99.77.2' } });
    expect(stdout).to.include(`HANGAR-HOSTPORTS -p tcp --dport ${harness().config.port} -j ACCEPT`);
    // Run as an operator would (`| sudo sh`): the rules are in place, and allowlist mode holds.
    await new Promise<void>((resolve, reject) => {
      const sh = spawn('sh', [], { stdio: ['pipe', 'inherit', 'inherit'] });
      sh.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the printed script exited ${code}`))));
      sh.stdin.end(stdout);
    });
    await verifyFirewall(harness().config.workspaceEgress.hostPorts);
    expect(await probe(a.replicaId, '10.99.77.2', TARGET_PORT), 'the allowlisted endpoint').to.equal('open');
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'an address not listed').to.equal('refused');
    await applyFirewall(harness().config.workspaceEgress, silentLogger);
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'a public address, back in public mode').to.equal('open');
  });

  it('installs the same rules through the engine, for a worker in a container, and verifies them there', async () => {
    const docker = createDocker();
    const { hostPorts } = harness().config.workspaceEgress;
    await withEngineHost(docker, harness().config.sandboxImage, async (host) => {
      await applyFirewall({ mode: 'allowlist', allow: ['10.99.77.2'], hostPorts }, silentLogger, host);
      await verifyFirewall(hostPorts, host);
    });
    // The host's own iptables holds them: what this process reads there is what the engine's container wrote.
    await verifyFirewall(hostPorts);
    expect(await probe(a.replicaId, '10.99.77.2', TARGET_PORT), 'the allowlisted endpoint').to.equal('open');
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'an address not listed').to.equal('refused');
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, hostPort), 'a host port').to.equal('refused');
    expect(await probe(a.replicaId, DOCKER_HOST_NAME, harness().config.port), "Hangar's API").to.equal('open');
    // The helper is gone afterwards.
    expect(await docker.listContainers({ all: true, filters: { label: [`dev.hangar.role=${ENGINE_HOST_ROLE}`] } })).to.deep.equal([]);
    await applyFirewall(harness().config.workspaceEgress, silentLogger);
    expect(await probe(a.replicaId, '198.51.100.7', TARGET_PORT), 'a public address, back in public mode').to.equal('open');
  });

  it('keeps a worker in engine mode from starting when it cannot install the rules, and says why', async () => {
    const config = { ...harness().config, networkIsolation: 'engine' as const, sandboxImage: `hangar-no-such-image:${randomBytes(4).toString('hex')}` };
    const refused = await isolateNetworks(config, createDocker(), silentLogger).then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).to.match(/^could not start a container on the Docker engine's host to install the egress rules there: .*Workspaces cannot be isolated, so the worker does not start/s);
  });

  it('moves a workspace made before isolation onto its organization network when it starts', async () => {
    const docker = createDocker();
    const replicaId = randomUUID();
    const organizationId = randomUUID();
    const options = { image: harness().config.sandboxImage, logger: silentLogger, memoryCapBytes: 512 * 1024 * 1024 };
    const before = createWorkspaceRuntime(docker, options);
    const isolated = createWorkspaceRuntime(docker, { ...options, networks: createWorkspaceNetworks(docker, harness().config.workspaceSubnets, silentLogger) });
    try {
      await before.ensure({ replicaId, size: 'small', env: {} });
      await before.stop(replicaId);
      expect(Object.keys((await docker.getContainer(workspaceName(replicaId)).inspect()).NetworkSettings.Networks)).to.deep.equal(['bridge']);
      await isolated.start(replicaId, organizationId);
      const info = await docker.getContainer(workspaceName(replicaId)).inspect();
      expect(info.State.Running).to.equal(true);
      expect(Object.keys(info.NetworkSettings.Networks)).to.deep.equal([organizationNetworkName(organizationId)]);
    } finally {
      await isolated.remove(replicaId);
    }
    await until('the network to go with its only workspace', async () => docker.getNetwork(organizationNetworkName(organizationId)).inspect().then(() => false, () => true), 30_000);
  });

  it('removes an organization network with its last workspace', async () => {
    const org = await newOrg();
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'short-lived', coding_agent: 'agent_1', message: 'Done' } });
    const replicaId: string = created.body.replica.id;
    const docker = createDocker();
    const network = docker.getNetwork(organizationNetworkName(org.organization_id));
    await until('the network to exist', async () => network.inspect().then(() => true, () => false), 120_000);
    await until(
      'the workspace to be active',
      async () => (await harness().database.db('replicas').where({ id: replicaId }).first('status'))?.status === 'active',
      120_000,
    );
    expect((await request('DELETE', `/v1/replica/${replicaId}`, { key: org.org_api_key, headers: V })).status).to.be.oneOf([200, 202, 204]);
    await until('the network to be removed', async () => network.inspect().then(() => false, () => true), 120_000);
  });
});
