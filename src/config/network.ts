/** What workspaces, hook sandboxes and user-chosen URLs may reach. */
import { DOCKER_HOST_NAME } from '../domain/dockerHost';
import { http } from './http';
import { choice, ConfigError, custom, integer, list, section, splitList, text } from './schema';
import { workspaces } from './workspaces';

/** Listed ports; undefined when unset (then derived from where workspaces reach the API). */
function portList(raw: string | undefined, name: string): number[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  return splitList(raw).map((p) => {
    if (!/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535) throw new ConfigError(`${name} must list ports 1-65535, got "${p}"`);
    return Number(p);
  });
}

export const network = section(
  'Network isolation and egress',
  {
    HANGAR_NETWORK_ISOLATION: choice({
      values: ['enforce', 'engine', 'networks', 'off'],
      default: 'enforce',
      description:
        "`enforce`: each organization's workspaces on a Docker network of their own (`hangar-org-<id>`, inter-container traffic off), hook sandboxes on `hangar-hooks`, and the worker installs and verifies the egress rules with the host's iptables at start and after an engine restart (it refuses to start when it cannot: run it as root on the engine's host); `engine`: the same, the rules installed through the engine by a short-lived container in the host's network namespace (a worker in a container, as in docker-compose.yml); `networks`: the networks only, the rules come from `hangar admin firewall` run on the engine's host; `off`: the default bridge (a single-user machine)",
    }),
    HANGAR_WORKSPACE_EGRESS: choice({
      values: ['public', 'allowlist'],
      default: 'public',
      description:
        'what workspaces and hook sandboxes may reach: `public` — the internet, never loopback, private, shared, link-local (cloud metadata), multicast or reserved ranges; `allowlist` — only `HANGAR_WORKSPACE_EGRESS_ALLOW` (and DNS)',
    }),
    HANGAR_WORKSPACE_EGRESS_ALLOW: list({
      accepts: 'comma-separated CIDRs, addresses, host names, each optionally `:port`',
      description:
        'IPv4 CIDRs, addresses and host names (resolved when the worker starts), each optionally with `:port` (that TCP port only), containers may reach even inside internal ranges: the API of another machine, an internal package mirror, a self-hosted code host',
    }),
    HANGAR_WORKSPACE_HOST_PORTS: custom({
      type: 'list',
      accepts: 'comma-separated ports 1–65535',
      shownDefault: "the port of `HANGAR_WORKSPACE_API_URL` when it is the host's",
      description: "the host ports containers may reach (Hangar's API for the AI gateway and the workspace CLI); every other host port is refused",
      parse: portList,
    }),
    HANGAR_WORKSPACE_SUBNETS: text({
      default: '10.213.0.0/16',
      type: 'IPv4 CIDR',
      description: "the pool the isolated networks' subnets are carved from; it must not overlap the host's own networks",
    }),
    HANGAR_WORKSPACE_SUBNET_PREFIX: integer({
      default: 26,
      min: 16,
      max: 29,
      description: "the prefix length of each isolated network's subnet (by default 1,024 networks of 61 containers per host)",
    }),
    HANGAR_OUTBOUND_ALLOW: list({
      accepts: 'comma-separated CIDRs, addresses, host names',
      description:
        "CIDRs, addresses and host names on internal networks (loopback, private, shared, multicast) that user-chosen URLs — a replica's `webhook_url`, a plugin's MCP server — may reach; link-local (cloud metadata) and unspecified addresses are refused whatever it says",
    }),
  },
  { PORT: http.variables.PORT, HANGAR_PUBLIC_URL: http.variables.HANGAR_PUBLIC_URL, HANGAR_WORKSPACE_API_URL: workspaces.variables.HANGAR_WORKSPACE_API_URL },
  (read) => ({
    /**
     * `HANGAR_NETWORK_ISOLATION`: `enforce` (default) puts each organization's workspaces, and the
     * hook sandboxes, on networks of their own and installs the egress rules on the engine's host
     * (the worker refuses to start when it cannot); `engine` the same, the rules installed through
     * the engine (a worker in a container); `networks` only the networks (the operator
     * installs `hangar admin firewall`'s rules on a remote engine's host); `off` the default bridge.
     */
    networkIsolation: read.get('HANGAR_NETWORK_ISOLATION'),
    /**
     * What containers may reach: `HANGAR_WORKSPACE_EGRESS` `public` (default: the internet, not
     * internal ranges) or `allowlist` (only `allow`); `HANGAR_WORKSPACE_EGRESS_ALLOW`: IPv4 CIDRs,
     * addresses and host names reachable even inside internal ranges, each optionally with `:port`
     * (that TCP port only); `HANGAR_WORKSPACE_HOST_PORTS`:
     * host ports containers may reach (default the port of HANGAR_WORKSPACE_API_URL when it is the host's).
     */
    workspaceEgress: {
      mode: read.get('HANGAR_WORKSPACE_EGRESS'),
      allow: read.get('HANGAR_WORKSPACE_EGRESS_ALLOW'),
      hostPorts: read.get('HANGAR_WORKSPACE_HOST_PORTS') ?? apiHostPorts(read.get('HANGAR_WORKSPACE_API_URL') ?? read.get('HANGAR_PUBLIC_URL'), read.get('PORT')),
    },
    /** `HANGAR_WORKSPACE_SUBNETS` (default 10.213.0.0/16) carved into `/HANGAR_WORKSPACE_SUBNET_PREFIX` (default 26). */
    workspaceSubnets: { pool: read.get('HANGAR_WORKSPACE_SUBNETS'), prefixLength: read.get('HANGAR_WORKSPACE_SUBNET_PREFIX') },
    /**
     * Internal networks and names a user-chosen URL (webhook_url, plugin servers) may reach
     * (`HANGAR_OUTBOUND_ALLOW`: comma-separated CIDRs, addresses and host names). Link-local and
     * unspecified addresses are never reachable.
     */
    outboundAllow: read.get('HANGAR_OUTBOUND_ALLOW'),
  }),
);

/** The API's own port when workspaces reach it on the Docker host (none when they reach it elsewhere). */
function apiHostPorts(apiUrl: string | undefined, port: number): number[] {
  if (!apiUrl) return [port].filter((p) => p > 0);
  const url = new URL(apiUrl);
  if (url.hostname !== DOCKER_HOST_NAME) return [];
  return [Number(url.port || (url.protocol === 'https:' ? 443 : 80))];
}
