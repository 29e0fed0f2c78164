/**
 * Installs and verifies the egress rules (egress.ts) on the engine's host with the host's own
 * `iptables`, the binary the Docker engine itself uses there. The worker does this at start,
 * and again before it starts workspaces after an engine restart: on its own host as root
 * (`enforce`), or through the engine (`engine`, engineHost.ts: a short-lived container in the
 * host's network namespace running the host's binary, for a worker in a container). Elsewhere
 * the operator installs what `hangar admin firewall` prints on the engine's host.
 */
import { execFile } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import type { Logger } from '../../logger';
import { EGRESS_CHAIN, egressRuleset, HOST_PORTS_CHAIN, hostPortRule, INPUT_CHAIN, allowEntry, JUMPS, type EgressMode, type EgressPolicy } from './egress';

/** What runs the commands on the engine's host: this process's own host, or the engine's (engineHost.ts). */
export interface HostCommands {
  /** Where the commands run, for messages: "this host", "the Docker engine's host". */
  where: string;
  /** Runs `argv`; its exit code (127: not found) and output. */
  run(argv: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Root there, or why the rules cannot be installed. */
  ready?(): Promise<void>;
}

/** The commands on this process's own host (it runs as root on the engine's host). */
export const localHost: HostCommands = {
  where: 'this host',
  run: (argv, stdin) =>
    new Promise((resolve) => {
      const child = execFile(argv[0]!, argv.slice(1), (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        resolve({ code: !e ? 0 : e.code === 'ENOENT' ? 127 : typeof e.code === 'number' ? e.code : 1, stdout, stderr: stderr || (e?.message ?? '') });
      });
      // A command that exits before reading its input is answered by its exit code, not EPIPE.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(stdin);
    }),
  async ready() {
    if (typeof process.getuid === 'function' && process.getuid() !== 0) {
      throw new FirewallError('installing the workspace egress rules needs root on the Docker engine host');
    }
  },
};

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

async function iptables(host: HostCommands, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await host.run(['iptables', '-w', ...args]);
  if (code === 127) throw new FirewallError(`iptables is not installed on ${host.where} (Debian: apt-get install iptables)`);
  return { ok: code === 0, stdout, stderr };
}

async function restore(host: HostCommands, ruleset: string): Promise<void> {
  const { code, stderr } = await host.run(['iptables-restore', '-w', '--noflush'], ruleset);
  if (code !== 0) throw new FirewallError(`iptables-restore refused Hangar's egress rules: ${stderr.trim()}`);
}

/** Installs the rules (idempotently) on `host` and checks that every piece is in place. */
export async function applyFirewall(settings: FirewallSettings, logger: Logger, host: HostCommands = localHost): Promise<EgressPolicy> {
  await host.ready?.();
  const policy = await egressPolicy(settings);
  const docker = await iptables(host, ['-S', 'DOCKER-USER']);
  if (!docker.ok) throw new FirewallError(`the Docker engine's DOCKER-USER chain is missing on ${host.where} (is dockerd running there with its iptables rules?): ${docker.stderr.trim()}`);
  await iptables(host, ['-N', HOST_PORTS_CHAIN]); // exists already: fine
  await restore(host, egressRuleset(policy, settings.hostPorts));
  for (const port of settings.hostPorts) {
    if (!(await iptables(host, ['-C', ...hostPortRule(port)])).ok) await iptables(host, ['-A', ...hostPortRule(port)]);
  }
  for (const { chain, rule } of JUMPS) {
    if (!(await iptables(host, ['-C', chain, ...rule])).ok) {
      const added = await iptables(host, ['-I', chain, '1', ...rule]);
      if (!added.ok) throw new FirewallError(`could not add the jump from ${chain}: ${added.stderr.trim()}`);
    }
  }
  await verifyFirewall(settings.hostPorts, host);
  logger.info('workspace egress rules installed', { on: host.where, mode: policy.mode, allow: policy.allow, resolvers: policy.resolvers, hostPorts: settings.hostPorts });
  return policy;
}

/** Throws unless the jumps, both chains and every host port rule are installed on `host`. */
export async function verifyFirewall(hostPorts: number[], host: HostCommands = localHost): Promise<void> {
  const missing: string[] = [];
  for (const { chain, rule } of JUMPS) if (!(await iptables(host, ['-C', chain, ...rule])).ok) missing.push(`${chain} ${rule.join(' ')}`);
  for (const chain of [INPUT_CHAIN, EGRESS_CHAIN]) {
    const listed = await iptables(host, ['-S', chain]);
    if (!listed.ok || !/ -j (REJECT|RETURN)/.test(listed.stdout)) missing.push(`chain ${chain}`);
  }
  for (const port of hostPorts) if (!(await iptables(host, ['-C', ...hostPortRule(port)])).ok) missing.push(`host port ${port}`);
  if (missing.length) throw new FirewallError(`workspace egress rules are incomplete on ${host.where}: missing ${missing.join('; ')}`);
}
