/**
 * Which client a request comes from, for per-address limits. `X-Forwarded-For` is read only as
 * far as the operator says proxies of theirs append to it (`proxyHops`): anything further left
 * was written by the client and proves nothing. IPv6 clients are limited per /64, the block one
 * host usually holds, so that walking through its addresses does not buy fresh buckets.
 */
import { isIP } from 'node:net';

export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, proxyHops: number): string {
  let address = socketAddress ?? '';
  if (proxyHops > 0 && forwardedFor) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    // The last `proxyHops` entries were written by the operator's proxies; the one they saw is
    // the `proxyHops`-th from the right (or the leftmost, when the chain is shorter).
    const seen = hops[Math.max(0, hops.length - proxyHops)];
    if (seen && isIP(seen)) address = seen;
  }
  return addressBucket(address);
}

/** IPv4 as is (also when IPv4-mapped); IPv6 as its /64 prefix, e.g. `2001:db8:0:1::/64`. */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const groups = expandIpv6(address.replace(/%.*$/, ''));
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part counts as two). */
function expandIpv6(address: string): string[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  let text = address;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = address.slice(0, dotted.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => g.toLowerCase());
}
