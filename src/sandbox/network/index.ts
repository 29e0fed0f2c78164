/** Network isolation as the worker sets it up: the egress rules (enforce and engine modes), then the networks. */
import type Docker from 'dockerode';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { withEngineHost } from './engineHost';
import { applyFirewall, FirewallError } from './firewall';
import { createWorkspaceNetworks, type WorkspaceNetworks } from './networks';

/**
 * Network isolation (config.networkIsolation): the networks every workspace and hook sandbox
 * joins, and in `enforce` mode the egress rules, installed and verified before any container starts.
 */
export async function isolateNetworks(
  config: Pick<Config, 'networkIsolation' | 'sandboxNetworkMode' | 'workspaceEgress' | 'workspaceSubnets' | 'sandboxImage'>,
  docker: Docker,
  logger: Logger,
): Promise<{ networks: WorkspaceNetworks; hooksNetwork: string; recheck(): Promise<void> } | null> {
  if (config.networkIsolation === 'off' || config.sandboxNetworkMode === 'none') return null;
  const enforce = async () => {
    if (config.networkIsolation === 'enforce') await applyFirewall({ ...config.workspaceEgress }, logger);
    // Through the engine, on its host: the worker runs in a container (docker-compose.yml).
    if (config.networkIsolation === 'engine') await withEngineHost(docker, config.sandboxImage, (host) => applyFirewall({ ...config.workspaceEgress }, logger, host));
  };
  try {
    await enforce();
  } catch (err) {
    if (!(err instanceof FirewallError)) throw err;
    throw new Error(
      config.networkIsolation === 'engine'
        ? `${err.message}. Workspaces cannot be isolated, so the worker does not start: the engine's host needs iptables and dockerd's own rules, and the worker an engine that lets it start a container in the host's network namespace with NET_ADMIN (or install the rules \`hangar admin firewall\` prints on that host and set HANGAR_NETWORK_ISOLATION=networks)`
        : `${err.message}. Workspaces cannot be isolated, so the worker does not start: run it as root on the Docker engine's host, or install the rules \`hangar admin firewall\` prints on that host and set HANGAR_NETWORK_ISOLATION=networks (or off, for a single-user machine)`,
    );
  }
  const networks = createWorkspaceNetworks(docker, config.workspaceSubnets, logger);
  // A restarted engine (or a rebooted host) may have lost the rules: they are installed again
  // before any workspace container is started again.
  return { networks, hooksNetwork: await networks.forHooks(), recheck: enforce };
}
