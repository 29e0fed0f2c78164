/**
 * Docker networks that keep tenants apart: each organization's workspaces on a bridge of their
 * own (`hangar-org-<organization id>`), hook sandboxes on `hangar-hooks`, every one with
 * inter-container traffic off (so not even two workspaces of one organization talk directly)
 * and a bridge interface named `hgr…`, which the egress rules (egress.ts) match. Docker itself
 * drops traffic between different bridges.
 *
 * Subnets come from an operator pool (default 10.213.0.0/16 in /26s: 1,024 networks of 61
 * containers per host): one of the first few free of every existing Docker network and of every
 * route of the host the worker runs on, at random, so that workers creating networks at once
 * rarely race for one. Docker takes a subnet the host already routes elsewhere (a VPN, or a bridge
 * an earlier network left behind), and the host then sends the workspace's traffic to that other
 * interface: it can reach nothing and nothing reaches it. An organization's network is removed
 * again once no container of it is left.
 */
import { createHash, randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import type Docker from 'dockerode';
import type { Logger } from '../../logger';
import { dockerStatus } from '../errors';
import { BRIDGE_PREFIX, ipv4Cidr } from './egress';

export const LABEL_NETWORK = 'dev.hangar.network';
export const HOOKS_NETWORK = 'hangar-hooks';
const ORG_PREFIX = 'hangar-org-';
const ICC = 'com.docker.network.bridge.enable_icc';
const BRIDGE_NAME = 'com.docker.network.bridge.name';
const ORG_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export interface NetworkSettings {
  /** The IPv4 pool networks are carved from, e.g. `10.213.0.0/16`. */
  pool: string;
  /** Each network's prefix length within the pool, e.g. 26. */
  prefixLength: number;
}

export interface WorkspaceNetworks {
  /** The organization's network, created when missing. */
  forOrganization(organizationId: string): Promise<string>;
  /** The hook sandboxes' network, created when missing. */
  forHooks(): Promise<string>;
  /** Whether `name` is a network this module manages per organization. */
  isOrganizationNetwork(name: string): boolean;
  /** Removes an organization network no container uses any more (a used one stays). */
  releaseIfUnused(name: string): Promise<void>;
  /** Forgets a network found missing, so the next call creates it again. */
  forget(name: string): void;
}

export function organizationNetworkName(organizationId: string): string {
  if (!ORG_ID.test(organizationId)) throw new Error(`organization id ${JSON.stringify(organizationId)} cannot name a network`);
  return `${ORG_PREFIX}${organizationId}`;
}

/** Linux limits interface names to 15 characters: `hgr` and 12 hex digits of the network name. */
export function bridgeName(network: string): string {
  return BRIDGE_PREFIX + createHash('sha256').update(network).digest('hex').slice(0, 12);
}

const toInt = (address: string) => address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const toAddress = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

function range(cidr: string): { start: number; size: number } | null {
  const canonical = ipv4Cidr(cidr);
  if (!canonical) return null;
  const [address, bits] = canonical.split('/') as [string, string];
  const size = 2 ** (32 - Number(bits));
  return { start: Math.floor(toInt(address) / size) * size, size };
}

/** The pool's subnets of the given prefix length, in order, skipping any that overlap `used`. */
export function* freeSubnets(settings: NetworkSettings, used: string[]): Generator<{ subnet: string; gateway: string }> {
  const pool = range(settings.pool);
  if (!pool) throw new Error(`workspace subnet pool ${JSON.stringify(settings.pool)} is not an IPv4 CIDR`);
  const size = 2 ** (32 - settings.prefixLength);
  if (!(settings.prefixLength >= 16 && settings.prefixLength <= 29) || size > pool.size) {
    throw new Error(`workspace subnet prefix /${settings.prefixLength} must be between /16 and /29 and fit in ${settings.pool}`);
  }
  const taken = used.map(range).filter((r): r is { start: number; size: number } => r !== null);
  for (let start = pool.start; start + size <= pool.start + pool.size; start += size) {
    if (taken.some((t) => t.start < start + size && start < t.start + t.size)) continue;
    yield { subnet: `${toAddress(start)}/${settings.prefixLength}`, gateway: toAddress(start + 1) };
  }
}

/**
 * The IPv4 prefixes a Linux routing table (`/proc/net/route`) sends somewhere, the default route
 * left out. The kernel prints each address as the hex of its 32 bits in the host's byte order.
 */
export function routedPrefixes(table: string, byteOrder: 'LE' | 'BE' = endianness()): string[] {
  const value = (hex: string) => (byteOrder === 'LE' ? Buffer.from(hex, 'hex').readUInt32LE() : parseInt(hex, 16));
  const prefixes = new Set<string>();
  for (const line of table.split('\n').slice(1)) {
    const [, destination, , , , , , mask] = line.trim().split(/\s+/);
    if (!/^[0-9A-Fa-f]{8}$/.test(destination ?? '') || !/^[0-9A-Fa-f]{8}$/.test(mask ?? '')) continue;
    const bits = value(mask!).toString(2).replace(/0/g, '').length;
    if (bits > 0) prefixes.add(`${toAddress(value(destination!))}/${bits}`);
  }
  return [...prefixes];
}

/** This host's routed prefixes; none where there is no such table (not Linux). */
async function hostRoutes(): Promise<string[]> {
  return routedPrefixes(await readFile('/proc/net/route', 'utf8').catch(() => ''));
}

/** Attempts at creating one network while other processes take subnets from the same pool. */
const CREATE_ATTEMPTS = 20;
/**
 * A new network takes one of the first this many free subnets, at random: workers (or test
 * processes) creating networks at once on one engine would otherwise all race for the first.
 */
const SUBNET_SPREAD = 8;

function firstOf<T>(items: Iterable<T>, count: number): T[] {
  const out: T[] = [];
  for (const item of items) {
    if (out.length === count) break;
    out.push(item);
  }
  return out;
}

export function createWorkspaceNetworks(docker: Docker, settings: NetworkSettings, logger: Logger): WorkspaceNetworks {
  const known = new Map<string, Promise<string>>();

  /**
   * Every Docker network's subnet, and the routes of this host that would win over a new
   * network's own (as specific or more): on the engine's own host that includes interfaces
   * Docker no longer lists (its `docker network ls` forgets a bridge it failed to remove) and the
   * operator's own networks. A broader route (a VPC's 10.0.0.0/8) loses to the bridge's, so it
   * leaves the pool usable. A worker in a container of its own reads its container's routes
   * instead: no help there, and no harm.
   */
  async function usedSubnets(): Promise<string[]> {
    const networks = await docker.listNetworks();
    const subnets = networks.flatMap((n) => (n.IPAM?.Config ?? []).map((c) => c.Subnet ?? '')).filter(Boolean);
    const shadowing = (await hostRoutes()).filter((prefix) => Number(prefix.split('/')[1]) >= settings.prefixLength);
    return [...subnets, ...shadowing];
  }

  /** An existing network of this name must be one of ours: isolated, with a bridge the rules match. */
  async function existing(name: string): Promise<boolean> {
    let info: { Options?: Record<string, string> };
    try {
      info = (await docker.getNetwork(name).inspect()) as { Options?: Record<string, string> };
    } catch (err) {
      if (dockerStatus(err) === 404) return false;
      throw err;
    }
    if (info.Options?.[ICC] !== 'false' || !info.Options?.[BRIDGE_NAME]?.startsWith(BRIDGE_PREFIX)) {
      throw new Error(`Docker network ${name} exists but was not made by Hangar (inter-container traffic on, or a bridge the egress rules do not cover); remove it`);
    }
    return true;
  }

  /** Whether another creator's network `name` shows up within a few seconds. */
  async function createdMeanwhile(name: string): Promise<boolean> {
    for (let check = 0; check < 50; check++) {
      if (await existing(name)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  async function create(name: string, kind: string): Promise<string> {
    if (await existing(name)) return name;
    // Subnets the engine refused in this call: taken meanwhile, or overlapping something that
    // is not a Docker network. Either way not tried again.
    const refused: string[] = [];
    let lastRefusal = '';
    for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
      const free = firstOf(freeSubnets(settings, [...(await usedSubnets()), ...refused]), SUBNET_SPREAD);
      if (free.length === 0) throw new Error(`no free /${settings.prefixLength} subnet is left in the workspace pool ${settings.pool} (HANGAR_WORKSPACE_SUBNETS)`);
      const { subnet, gateway } = free[randomInt(free.length)]!;
      try {
        await docker.createNetwork({
          Name: name,
          Driver: 'bridge',
          CheckDuplicate: true,
          EnableIPv6: false,
          IPAM: { Driver: 'default', Config: [{ Subnet: subnet, Gateway: gateway }] },
          Options: { [ICC]: 'false', [BRIDGE_NAME]: bridgeName(name), 'com.docker.network.bridge.enable_ip_masquerade': 'true' },
          Labels: { [LABEL_NETWORK]: kind },
        });
        logger.info('workspace network created', { network: name, subnet });
        return name;
      } catch (err) {
        // Another worker created it first (the engine says so as a duplicate name, 409, or as a
        // duplicate bridge, 403, which the name fixes, sometimes before that network can be
        // inspected), or took the subnet: look again.
        if ((dockerStatus(err) === 409 || /same bridge name/.test(String((err as Error).message))) && (await createdMeanwhile(name))) return name;
        lastRefusal = String((err as Error).message);
        if (!/overlap/i.test(lastRefusal)) throw err;
        refused.push(subnet);
      }
    }
    throw new Error(`could not find a free subnet for Docker network ${name} after ${CREATE_ATTEMPTS} attempts (the last refusal: ${lastRefusal})`);
  }

  function ensure(name: string, kind: string): Promise<string> {
    let pending = known.get(name);
    if (!pending) {
      pending = create(name, kind);
      known.set(name, pending);
      pending.catch(() => known.delete(name));
    }
    return pending;
  }

  return {
    forOrganization: (organizationId) => ensure(organizationNetworkName(organizationId), 'organization'),
    forHooks: () => ensure(HOOKS_NETWORK, 'hooks'),
    isOrganizationNetwork: (name) => name.startsWith(ORG_PREFIX),
    forget: (name) => void known.delete(name),
    async releaseIfUnused(name) {
      const users = await docker.listContainers({ all: true, filters: JSON.stringify({ network: [name] }) });
      if (users.length) return;
      known.delete(name);
      try {
        await docker.getNetwork(name).remove();
        logger.info('workspace network removed', { network: name });
      } catch (err) {
        // Gone already, or a container joined it meanwhile: either way it is right as it is.
        const status = dockerStatus(err);
        if (status !== 404 && status !== 403 && status !== 409) throw err;
      }
    },
  };
}

/**
 * Moves a container onto `network` and off every other: one made before isolation (on the
 * default bridge), or whose organization network was made anew since, before it starts again.
 */
export async function moveOnto(docker: Docker, info: Docker.ContainerInspectInfo, network: string, logger: Logger): Promise<void> {
  const current = Object.entries(info.NetworkSettings?.Networks ?? {});
  const { Id: networkId } = (await docker.getNetwork(network).inspect()) as { Id: string };
  const joined = current.some(([name, n]) => name === network && n?.NetworkID === networkId);
  if (joined && current.length === 1) return;
  for (const [name] of current) {
    if (name === network && joined) continue;
    await docker
      .getNetwork(name)
      .disconnect({ Container: info.Id, Force: true })
      .catch((err: unknown) => {
        if (dockerStatus(err) !== 404) throw err;
      });
  }
  if (!joined) await docker.getNetwork(network).connect({ Container: info.Id });
  logger.info('workspace moved onto its network', { container: info.Name, network, from: current.map(([name]) => name) });
}
