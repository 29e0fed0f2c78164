/**
 * Installs and verifies the egress rules (egress.ts) on the engine's host with the host's own
 * `iptables`, the binary the Docker engine itself uses there. The worker does this at start
 * when it runs on the engine's host as root; elsewhere (a remote engine, a worker in a
 * container) the operator installs what `hangar admin firewall` prints on the engine's host.
 */
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { promisify } from 'node:util';
import type { Logger } from '../../logger';
import { EGRESS_CHAIN, egressRuleset, HOST_PORTS_CHAIN, hostPortRule, INPUT_CHAIN, allowEntry, JUMPS, type EgressMode, type EgressPolicy } from './egress';

const run = promisify(execFile);

export interface FirewallSettings {
  mode: EgressMode;
  /** IPv4 CIDRs, addresses and host names (resolved to their IPv4 addresses on each apply). */
  allow: string[];
  /** Host ports containers may reach (Hangar's API). */
  hostPorts: number[];
}

export class FirewallError extends Error {}

/** The host's resolvers (`nameserver` lines of /etc/resolv.conf), which containers' DNS goes through. */
export async function hostResolvers(path = '/etc/resolv.conf'): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return [...text.matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!).filter((a) => isIP(a) === 4);
}

/** The allowlist with host names replaced by the IPv4 addresses they resolve to now (a `:port` kept). */
export async function resolveAllowlist(allow: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const entry of allow) {
    if (allowEntry(entry)) {
      out.push(entry);
      continue;
    }
    // IPv6: workspace networks have no IPv6.
    if (isIP(entry.trim()) === 6 || entry.includes('[')) continue;
    const [, name, port] = /^(.*?)(?::(\d{1,5}))?$/.exec(entry.trim())!;
    if (name!.includes('/') || name!.includes(':')) continue;
    try {
      const addresses = await lookup(name!, { all: true, family: 4 });
      out.push(...addresses.map((a) => (port ? `${a.address}:${port}` : a.address)));
    } catch (err) {
      throw new FirewallError(`egress allowlist host ${JSON.stringify(name)} does not resolve: ${(err as Error).message}`);
    }
  }
  return [...new Set(out)];
}

export async function egressPolicy(settings: FirewallSettings): Promise<EgressPolicy> {
  return { mode: settings.mode, allow: await resolveAllowlist(settings.allow), resolvers: await hostResolvers() };
}

/** The commands an operator runs on the engine's host (what `apply` does), as shell text. */
export function firewallScript(policy: EgressPolicy, hostPorts: number[]): string {
  const q = (args: string[]) => args.join(' ');
  const lines = [
    '#!/bin/sh',
    '# Hangar workspace egress rules: run as root on the Docker engine host, after dockerd has started.',
    'set -e',
    `iptables -w -N ${HOST_PORTS_CHAIN} 2>/dev/null || true`,
    "iptables-restore -w --noflush <<'EOF'",
    egressRuleset(policy, hostPorts).trimEnd(),
    'EOF',
    ...hostPorts.map((port) => `iptables -w -C ${q(hostPortRule(port))} 2>/dev/null || iptables -w -A ${q(hostPortRule(port))}`),
    ...JUMPS.map(({ chain, rule }) => `iptables -w -C ${chain} ${q(rule)} 2>/dev/null || iptables -w -I ${chain} 1 ${q(rule)}`),
  ];
  return lines.join('\n') + '\n';
}

async function iptables(args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('iptables', ['-w', ...args]);
    return { ok: true, stdout, stderr };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT') throw new FirewallError('iptables is not installed on this host (Debian: apt-get install iptables)');
    return { ok: false, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}

function restore(ruleset: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('iptables-restore', ['-w', '--noflush'], (err, _stdout, stderr) => {
      if (!err) return resolve();
      reject(new FirewallError(`iptables-restore refused Hangar's egress rules: ${String(stderr || err.message).trim()}`));
    });
    child.stdin?.end(ruleset);
  });
}

/** Installs the rules (idempotently) and checks that every piece is in place. */
export async function applyFirewall(settings: FirewallSettings, logger: Logger): Promise<EgressPolicy> {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new FirewallError('installing the workspace egress rules needs root on the Docker engine host');
  }
  const policy = await egressPolicy(settings);
  const docker = await iptables(['-S', 'DOCKER-USER']);
  if (!docker.ok) throw new FirewallError(`the Docker engine's DOCKER-USER chain is missing on this host (is dockerd running here with its iptables rules?): ${docker.stderr.trim()}`);
  await iptables(['-N', HOST_PORTS_CHAIN]); // exists already: fine
  await restore(egressRuleset(policy, settings.hostPorts));
  for (const port of settings.hostPorts) {
    if (!(await iptables(['-C', ...hostPortRule(port)])).ok) await iptables(['-A', ...hostPortRule(port)]);
  }
  for (const { chain, rule } of JUMPS) {
    if (!(await iptables(['-C', chain, ...rule])).ok) {
      const added = await iptables(['-I', chain, '1', ...rule]);
      if (!added.ok) throw new FirewallError(`could not add the jump from ${chain}: ${added.stderr.trim()}`);
    }
  }
  await verifyFirewall(settings.hostPorts);
  logger.info('workspace egress rules installed', { mode: policy.mode, allow: policy.allow, resolvers: policy.resolvers, hostPorts: settings.hostPorts });
  return policy;
}

/** Throws unless the jumps, both chains and every host port rule are installed. */
export async function verifyFirewall(hostPorts: number[]): Promise<void> {
  const missing: string[] = [];
  for (const { chain, rule } of JUMPS) if (!(await iptables(['-C', chain, ...rule])).ok) missing.push(`${chain} ${rule.join(' ')}`);
  for (const chain of [INPUT_CHAIN, EGRESS_CHAIN]) {
    const listed = await iptables(['-S', chain]);
    if (!listed.ok || !/ -j (REJECT|RETURN)/.test(listed.stdout)) missing.push(`chain ${chain}`);
  }
  for (const port of hostPorts) if (!(await iptables(['-C', ...hostPortRule(port)])).ok) missing.push(`host port ${port}`);
  if (missing.length) throw new FirewallError(`workspace egress rules are incomplete: missing ${missing.join('; ')}`);
}
