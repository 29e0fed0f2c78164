/**
 * What a workspace or hook sandbox may reach, as iptables rules the worker installs on the
 * engine's host. Hangar's containers sit on bridges named `hgr…` (see networks.ts), so two
 * jumps cover them all:
 *
 * - `INPUT -i hgr+ → HANGAR-INPUT`: packets for the host itself (its published ports, the
 *   host-gateway address, any address the host holds). Only replies and the ports listed in
 *   HANGAR-HOSTPORTS (Hangar's API for the AI gateway and callbacks) pass.
 * - `DOCKER-USER -i hgr+ → HANGAR-EGRESS`: packets routed onward. Replies, DNS to the host's
 *   resolvers and the operator's allowlist pass; loopback, private, shared, link-local (cloud
 *   metadata), multicast and reserved ranges are refused — other organizations' networks and
 *   the deployment's internal services live there; the rest (the public internet) passes in
 *   `public` mode and is refused in `allowlist` mode.
 *
 * HANGAR-INPUT and HANGAR-EGRESS are rewritten whole on each apply (atomically, by
 * iptables-restore). HANGAR-HOSTPORTS only grows: several workers (or test harnesses) on one
 * host each add the port of their own API and none removes another's.
 */
import { isIP } from 'node:net';

export const BRIDGE_PREFIX = 'hgr';
export const INPUT_CHAIN = 'HANGAR-INPUT';
export const EGRESS_CHAIN = 'HANGAR-EGRESS';
export const HOST_PORTS_CHAIN = 'HANGAR-HOSTPORTS';

export type EgressMode = 'public' | 'allowlist';

export interface EgressPolicy {
  mode: EgressMode;
  /** IPv4 CIDRs or addresses the containers may reach even inside refused ranges. */
  allow: string[];
  /** The host's DNS resolvers (port 53 over UDP and TCP). */
  resolvers: string[];
}

/** Never routed to from a container unless allowlisted (RFC 6890 special-purpose IPv4 space). */
export const REFUSED_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

/** A canonical IPv4 `a.b.c.d/n`; null when `value` is not an IPv4 address or CIDR. */
export function ipv4Cidr(value: string): string | null {
  const [address, bits, extra] = value.trim().split('/');
  if (extra !== undefined || !address || isIP(address) !== 4) return null;
  if (bits === undefined) return `${address}/32`;
  if (!/^\d{1,2}$/.test(bits) || Number(bits) > 32) return null;
  return `${address}/${Number(bits)}`;
}

/**
 * An allowlist entry: an IPv4 address or CIDR, optionally with one TCP port (`10.0.0.5:8080`,
 * `10.0.0.0/24:443`); null when it is neither. A port keeps the rest of that address refused.
 */
export function allowEntry(value: string): { cidr: string; port: number | null } | null {
  const match = /^(.*):(\d{1,5})$/.exec(value.trim());
  if (match) {
    const port = Number(match[2]);
    const cidr = ipv4Cidr(match[1]!);
    return cidr && port >= 1 && port <= 65535 ? { cidr, port } : null;
  }
  const cidr = ipv4Cidr(value);
  return cidr ? { cidr, port: null } : null;
}

/**
 * The iptables-restore input (`--noflush`) that replaces Hangar's two rewritten chains.
 * `hostPorts`: the host ports workspaces may reach (Hangar's API). When the API runs in a
 * container with its port published (docker-compose.yml), a workspace's connection to that host
 * port is rewritten by Docker's DNAT to the API container's private address and is forwarded,
 * not delivered to the host: it passes when it was addressed to one of these ports on this host
 * (conntrack's original destination port on a DNAT'd connection, which only the host's own
 * published ports produce).
 */
export function egressRuleset(policy: EgressPolicy, hostPorts: number[] = []): string {
  const lines = ['*filter', `:${INPUT_CHAIN} - [0:0]`, `:${EGRESS_CHAIN} - [0:0]`];
  const reject = (chain: string, match = '') => [
    `-A ${chain}${match} -p tcp -j REJECT --reject-with tcp-reset`,
    `-A ${chain}${match} -j REJECT --reject-with icmp-port-unreachable`,
  ];
  lines.push(`-A ${INPUT_CHAIN} -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT`);
  lines.push(`-A ${INPUT_CHAIN} -j ${HOST_PORTS_CHAIN}`);
  lines.push(...reject(INPUT_CHAIN));

  lines.push(`-A ${EGRESS_CHAIN} -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN`);
  for (const resolver of policy.resolvers) {
    const cidr = ipv4Cidr(resolver);
    if (!cidr) continue;
    lines.push(`-A ${EGRESS_CHAIN} -d ${cidr} -p udp --dport 53 -j RETURN`, `-A ${EGRESS_CHAIN} -d ${cidr} -p tcp --dport 53 -j RETURN`);
  }
  for (const port of hostPorts) {
    lines.push(`-A ${EGRESS_CHAIN} -p tcp -m conntrack --ctstate DNAT --ctorigdstport ${port} -j RETURN`);
  }
  for (const entry of policy.allow) {
    const allowed = allowEntry(entry);
    if (!allowed) throw new Error(`egress allowlist entry ${JSON.stringify(entry)} is not an IPv4 address or CIDR, with or without a :port`);
    lines.push(`-A ${EGRESS_CHAIN} -d ${allowed.cidr}${allowed.port === null ? '' : ` -p tcp --dport ${allowed.port}`} -j RETURN`);
  }
  for (const range of REFUSED_RANGES) lines.push(...reject(EGRESS_CHAIN, ` -d ${range}`));
  if (policy.mode === 'allowlist') lines.push(...reject(EGRESS_CHAIN));
  lines.push(`-A ${EGRESS_CHAIN} -j RETURN`, 'COMMIT', '');
  return lines.join('\n');
}

/** The rule that lets containers reach one TCP port on the host (HANGAR-HOSTPORTS). */
export function hostPortRule(port: number): string[] {
  return [HOST_PORTS_CHAIN, '-p', 'tcp', '--dport', String(port), '-j', 'ACCEPT'];
}

/** The jumps from the built-in chains into Hangar's (each checked with -C before inserting). */
export const JUMPS: Array<{ chain: string; rule: string[] }> = [
  { chain: 'INPUT', rule: ['-i', `${BRIDGE_PREFIX}+`, '-j', INPUT_CHAIN] },
  { chain: 'DOCKER-USER', rule: ['-i', `${BRIDGE_PREFIX}+`, '-j', EGRESS_CHAIN] },
];
