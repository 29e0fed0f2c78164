/**
 * The run's end takes back the host-port holes of Hangar processes that are gone: tests spawn
 * workers beside APIs of their own, and their ports would otherwise stay open to every
 * workspace on the host for as long as the machine lives, whatever later listens there.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { HOST_PORTS_CHAIN, hostPortRule } from '../../../src/sandbox/network/egress';
import { harness } from '../../support/harness';
import { closeHostPort, closeUnheardHostPorts, hostPortsOf, unheardPorts } from '../../support/testRun';

const execFileAsync = promisify(execFile);

const openedPorts = async () => hostPortsOf((await execFileAsync('iptables', ['-w', '-S', HOST_PORTS_CHAIN])).stdout);

const listen = () =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject).listen(0, '0.0.0.0', () => resolve(server));
  });

const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('test run: host-port holes of processes that are gone', function () {
  this.timeout(60_000);
  let live: Server;
  let livePort: number;
  let gonePort: number;

  before(async () => {
    // The harness's worker has made the chain and opened its API's port.
    expect(await openedPorts()).to.include(harness().config.port);
    const [served, gone] = await Promise.all([listen(), listen()]);
    [live, livePort, gonePort] = [served, portOf(served), portOf(gone)];
    for (const port of [livePort, gonePort]) await execFileAsync('iptables', ['-w', '-A', ...hostPortRule(port)]);
    await new Promise((resolve) => gone.close(resolve));
  });

  after(async () => {
    await Promise.all([closeHostPort(livePort), closeHostPort(gonePort)]);
    await new Promise((resolve) => live.close(resolve));
  });

  it('reads the ports a HANGAR-HOSTPORTS listing opens', () => {
    const listing = [`-N ${HOST_PORTS_CHAIN}`, `-A ${HOST_PORTS_CHAIN} -p tcp -m tcp --dport 4100 -j ACCEPT`, `-A ${HOST_PORTS_CHAIN} -p tcp -m tcp --dport 51234 -j ACCEPT`, ''].join('\n');
    expect(hostPortsOf(listing)).to.deep.equal([4100, 51234]);
    expect(unheardPorts([4100, 51234, 4100], new Set([51234]))).to.deep.equal([4100]);
  });

  it('closes the port nothing listens on and keeps those still served', async () => {
    const closed = await closeUnheardHostPorts();
    expect(closed).to.include(gonePort);
    const opened = await openedPorts();
    expect(opened, 'the port of a process that is gone').not.to.include(gonePort);
    expect(opened, 'a port still listened on').to.include(livePort);
    expect(opened, "the harness's API").to.include(harness().config.port);
  });
});
