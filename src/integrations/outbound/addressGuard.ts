/**
 * Where Hangar may send a request whose URL a user chose (a replica's `webhook_url`, a plugin's
 * MCP server): never to cloud metadata (link-local) or unspecified addresses, and not to
 * loopback, private, shared (CGNAT) or multicast networks — the deployment's own services live
 * there — unless the operator allowlists them (`HANGAR_OUTBOUND_ALLOW`: CIDRs and host names).
 *
 * The check runs twice: on the URL (an IP literal, or a name resolved up front for a clear
 * 400) and again at connect time, through the DNS lookup the HTTP client connects with, so a
 * name that resolves elsewhere the second time (DNS rebinding) is refused too. Callers follow
 * no redirects.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';

/** Never reachable, whatever the allowlist says: cloud metadata and "this host" addresses. */
const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addAddress('::', 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6');

/** Internal networks: reachable only when allowlisted. */
const INTERNAL = new BlockList();
INTERNAL.addSubnet('127.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('10.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('172.16.0.0', 12, 'ipv4');
INTERNAL.addSubnet('192.168.0.0', 16, 'ipv4');
INTERNAL.addSubnet('100.64.0.0', 10, 'ipv4');
INTERNAL.addSubnet('224.0.0.0', 4, 'ipv4');
INTERNAL.addSubnet('240.0.0.0', 4, 'ipv4');
INTERNAL.addAddress('::1', 'ipv6');
INTERNAL.addSubnet('fc00::', 7, 'ipv6');
INTERNAL.addSubnet('ff00::', 8, 'ipv6');

/** Whether an IP literal is one no outbound request may ever reach (cloud metadata, unspecified). */
export function isNeverReachable(raw: string): boolean {
  const address = unmapped(raw);
  return isIP(address) !== 0 && NEVER.check(address, family(address));
}

export interface OutboundPolicy {
  /** Why `address` may not be reached (for `host`, when given), or null. */
  refusal(address: string, host?: string): string | null;
  /** Checks a URL's host (an IP literal, or every address its name resolves to now). */
  checkUrl(url: string): Promise<string | null>;
  /** A new undici dispatcher whose connections go only where the policy allows. */
  dispatcher(options?: Agent.Options): Agent;
  /** One shared dispatcher with the defaults (webhook deliveries). */
  readonly agent: Agent;
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const unmapped = (address: string) => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;

/** `allow`: CIDRs (`10.0.0.0/8`, `fd00::/8`), single addresses and host names (exact, no case). */
export function createOutboundPolicy(allow: readonly string[]): OutboundPolicy {
  const allowed = new BlockList();
  const hosts = new Set<string>();
  for (const entry of allow) {
    const [base, bits] = entry.split('/');
    if (base && isIP(base)) {
      if (bits === undefined) allowed.addAddress(base, family(base));
      else allowed.addSubnet(base, Number(bits), family(base));
    } else if (entry.trim()) hosts.add(entry.trim().toLowerCase());
  }

  const refusal = (raw: string, host?: string): string | null => {
    const address = unmapped(raw);
    if (!isIP(address)) return null;
    if (NEVER.check(address, family(address))) return `${address} is a link-local or unspecified address (cloud metadata lives there)`;
    if (!INTERNAL.check(address, family(address))) return null;
    if (allowed.check(address, family(address)) || (host !== undefined && hosts.has(host.toLowerCase()))) return null;
    return `${address} is on an internal network (loopback, private, shared or multicast); an operator can allow it with HANGAR_OUTBOUND_ALLOW`;
  };

  let shared: Agent | null = null;
  const lookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.map((a) => refusal(a.address, hostname)).find((r) => r !== null);
      // One forbidden address refuses the name: a client picking another would be luck, not policy.
      if (refused) return callback(Object.assign(new Error(`${hostname}: ${refused}`), { code: 'EADDRNOTALLOWED' }), '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  return {
    refusal,
    async checkUrl(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return 'not a URL';
      }
      const host = parsed.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) return refusal(host);
      if (hosts.has(host.toLowerCase())) return null;
      const addresses = await dnsLookupAsync(host, { all: true }).catch(() => null);
      // A name that does not resolve now may later: the connect-time check still applies.
      if (!addresses) return null;
      return addresses.map((a) => refusal(a.address, host)).find((r) => r !== null) ?? null;
    },
    dispatcher: (options = {}) => new Agent({ ...options, connect: { ...(options.connect as object), lookup } }),
    get agent() {
      shared ??= new Agent({ connect: { lookup } });
      return shared;
    },
  };
}
