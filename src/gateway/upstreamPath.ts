/**
 * Where a gateway request goes: the agent's base URL with the client's path and query appended,
 * and never anywhere outside that base path. Two parsers must agree for that to hold: the
 * WHATWG URL parser undici sends with (it reads `\` as `/` and `%2e` as `.`, and resolves dot
 * segments), and whatever the provider (or a proxy in front of it) does with the path it
 * receives, which may decode `%2f`, `%5c` or `%25` once more, or read `..;` as `..`. So the
 * path is refused when any segment, decoded as often as it still changes, is a dot segment or
 * holds a slash or backslash, and the URL the WHATWG parser builds must still lie under the base
 * path. Provider APIs have no use for any of these in a path; the query string is not a path
 * and passes as sent.
 */

/** Why a target was refused, for the client; null when it may go upstream. */
export type UpstreamTarget = { url: URL; refusal: null } | { url: null; refusal: string };

/** Decoding rounds a segment gets (`%25` nested deeper than this is refused). */
const MAX_DECODES = 4;

const isDotSegment = (segment: string) => {
  // `..;x` is `..` to servers that strip path parameters (Tomcat, Jetty, some proxies).
  const name = segment.split(';', 1)[0]!;
  return name === '.' || name === '..';
};

/**
 * The segment as a server that decodes it (repeatedly) would see it; null when it is not valid
 * percent-encoded UTF-8 (overlong forms like `%c0%ae` were read as `.` by some servers) or is
 * nested deeper than any client encodes.
 */
function decoded(segment: string): string | null {
  let current = segment;
  for (let round = 0; round < MAX_DECODES; round++) {
    if (!current.includes('%')) return current;
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current.includes('%') ? null : current;
}

/**
 * The upstream URL for `target` (everything after `/v1/ai-gateway/<agent>`, as the client sent
 * it) under `base` (`HANGAR_AGENT_N_BASE_URL`, no query), or why it may not go.
 */
export function upstreamTarget(base: string, target: string): UpstreamTarget {
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (path.includes('\\')) return { url: null, refusal: 'the path may not contain a backslash' };
  // The first segment is empty (the path starts with `/`, or is empty).
  for (const segment of path.split('/').slice(1)) {
    const plain = decoded(segment);
    if (plain === null) return { url: null, refusal: 'the path holds percent-encoding that is not valid UTF-8 or is nested too deep' };
    if (plain.includes('/') || plain.includes('\\')) return { url: null, refusal: 'a path segment may not hold an encoded slash or backslash' };
    if (isDotSegment(plain)) return { url: null, refusal: 'the path may not contain "." or ".." segments, in any spelling' };
  }
  const baseUrl = new URL(base);
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(base + target);
  } catch {
    return { url: null, refusal: 'the path does not form a valid URL' };
  }
  // What undici will send: the same parser's reading must stay under the base path.
  if (url.origin !== baseUrl.origin || (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`))) {
    return { url: null, refusal: "the path leaves the agent's base path" };
  }
  return { url, refusal: null };
}
