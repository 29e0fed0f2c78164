/**
 * What a test prints when a workspace container and this host cannot reach each other, so that
 * a failure seen once in CI names its cause: the container's networks and routes as Docker and
 * the container see them, the host's route and neighbour entry towards it, the ports attached to
 * its bridge, Hangar's input rules, and a fresh TCP probe from the container to the API.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DOCKER_HOST_NAME } from '../../src/domain/dockerHost';
import { createDocker } from '../../src/sandbox';
import { bridgeName } from '../../src/sandbox/network/networks';
import { execInContainer } from './containerExec';

const run = promisify(execFile);

async function host(command: string, args: string[]): Promise<string> {
  const out = await run(command, args).then(
    (r) => r.stdout.trim(),
    (err: { stderr?: string; message: string }) => `failed: ${(err.stderr || err.message).trim()}`,
  );
  return `$ ${command} ${args.join(' ')}\n${out}`;
}

export async function networkDiagnosis(container: string, apiPort: number): Promise<string> {
  const sections: string[] = [];
  const info = await createDocker()
    .getContainer(container)
    .inspect()
    .catch((err: Error) => err);
  if (info instanceof Error) return `inspecting ${container} failed: ${info.message}`;
  const networks = Object.entries(info.NetworkSettings.Networks ?? {});
  sections.push(`${container}: ${info.State.Status}, networks ${JSON.stringify(networks.map(([name, n]) => ({ name, id: n.NetworkID, ip: n.IPAddress, gateway: n.Gateway, mac: n.MacAddress })))}`);
  for (const [name, n] of networks) {
    if (n.IPAddress) sections.push(await host('ip', ['-4', 'route', 'get', n.IPAddress]), await host('ip', ['-4', 'neigh', 'show', n.IPAddress]));
    if (name.startsWith('hangar-')) sections.push(await host('ip', ['-o', 'link', 'show', 'master', bridgeName(name)]));
  }
  sections.push(await host('ip', ['-4', 'route', 'show']));
  sections.push(await host('iptables', ['-w', '-S', 'HANGAR-INPUT']), await host('iptables', ['-w', '-S', 'HANGAR-HOSTPORTS']));
  const inside = await execInContainer(
    container,
    `grep ${DOCKER_HOST_NAME} /etc/hosts; cat /proc/net/route /proc/net/arp; ` +
      `if timeout 5 bash -c 'exec 3<>/dev/tcp/${DOCKER_HOST_NAME}/${apiPort}' 2>&1; then echo "probe: API port open"; else echo "probe: API port not reached"; fi`,
  ).catch((err: Error) => `exec failed: ${err.message}`);
  sections.push(`inside ${container}:\n${inside.trim()}`);
  return sections.join('\n');
}
