/**
 * What GitHub and GitLab deliveries have in common once mapped: the trigger event they become,
 * the repository URL matching and actor exclusion, and the readers both mappings use on an
 * untrusted JSON body. Each provider's authentication and mapping live in `../github` and
 * `../gitlab`. Nothing here performs I/O.
 */

export type CodeHostingProvider = 'github' | 'gitlab';

export type TriggerEventName =
  | 'pull_request.opened'
  | 'pull_request.synchronize'
  | 'pull_request.closed'
  | 'pull_request.merged'
  | 'pull_request.command'
  | 'merge_request.opened'
  | 'merge_request.updated'
  | 'merge_request.closed'
  | 'merge_request.merged'
  | 'merge_request.command';

/** One delivery mapped to a trigger event. */
export interface CodeHostingEvent {
  provider: CodeHostingProvider;
  event: TriggerEventName;
  /** Every URL form of the repository in the payload (html/web, clone https, ssh, git), for matching a connected repository's url. */
  repositoryUrls: string[];
  /** "owner/name" (GitHub full_name; GitLab path_with_namespace). */
  repositoryFullName: string;
  /** Pull request number (GitHub `number`) or merge request iid (GitLab `object_attributes.iid`). */
  number: number;
  /** Login/username of who caused the event (GitHub sender.login; GitLab user.username), or null. */
  actor: string | null;
  /** The head commit sha (GitHub pull_request.head.sha; GitLab object_attributes.last_commit.id), or null. */
  headSha: string | null;
  /** GitHub App installation id (installation.id), null when absent or for GitLab. */
  installationId: number | null;
  /** GitLab project id (project.id), null for GitHub. */
  projectId: number | null;
  /** The run's trigger payload: a compact, stable JSON object (each provider's mapping says what it holds). */
  payload: Record<string, unknown>;
}


/**
 * The text of a bot command: a comment whose first line starts with `/{botName}` followed by
 * white space and some text (`/hangar fix the tests` → `fix the tests`, later lines included).
 * The name matches case-insensitively, as logins do; anything else (a mention, `/hangar`
 * alone, `/hangarbot …`, the command further down the comment) is not a command: null.
 */
export function botCommand(body: string | null, botName: string): string | null {
  if (typeof body !== 'string' || !botName) return null;
  const text = body.replace(/^\s+/, '');
  const prefix = `/${botName.toLowerCase()}`;
  if (text.slice(0, prefix.length).toLowerCase() !== prefix) return null;
  const rest = text.slice(prefix.length);
  if (!/^\s/.test(rest)) return null;
  const command = truncate(rest.trim());
  return command ? command : null;
}

/**
 * Whether a comment's author is the bot itself (its replies must never fire it again): the
 * bot's login, or the `{name}[bot]` login GitHub gives an App's own comments.
 */
export function isBotAuthor(login: string | null, botName: string): boolean {
  if (typeof login !== 'string') return false;
  const who = actorKey(login).replace(/\[bot\]$/, '');
  return who === botName.toLowerCase();
}

/** Longest body/description kept in a trigger payload, in UTF-16 code units. */
const MAX_TEXT_LENGTH = 10_000;

/** Whether `actor` is in `excluded` — case-insensitive, a leading "@" ignored on both sides (e.g. "@Dependabot[bot]" excludes "dependabot[bot]"). Null actor is never excluded. */
export function isExcludedActor(actor: string | null, excluded: readonly string[]): boolean {
  if (typeof actor !== 'string') return false;
  const who = actorKey(actor);
  if (who === '') return false;
  return excluded.some((entry) => typeof entry === 'string' && actorKey(entry) === who);
}

const actorKey = (name: string): string => name.trim().replace(/^@/, '').toLowerCase();

/** "user@host:path" (scp-like git syntax); the lookahead keeps "scheme://" URLs out. */
const SCP_LIKE = /^[^@\s/:]+@([^@\s/:]+):(?!\/\/)(\S+)$/;
const ACCEPTED_PROTOCOLS = new Set(['http:', 'https:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:']);

/** Normalises a repository URL for matching: lower-cased host, no trailing slash, no trailing ".git", "git@host:owner/name" and "ssh://git@host/owner/name" forms → "https://host/owner/name"; credentials stripped. Returns null for something that is not a URL. */
export function normaliseRepositoryUrl(url: string): string | null {
  if (typeof url !== 'string') return null;
  const input = url.trim();
  if (input === '') return null;

  const scp = SCP_LIKE.exec(input);
  if (scp) return assemble(scp[1]!, '', scp[2]!);

  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    return null;
  }
  if (!ACCEPTED_PROTOCOLS.has(parsed.protocol) || parsed.hostname === '') return null;
  // A port only identifies the web server for http(s); an ssh/git port says nothing about https.
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return assemble(parsed.hostname, web && parsed.port ? `:${parsed.port}` : '', parsed.pathname);
}

/** "owner/name" of a repository URL of any form (`https://github.com/acme/app.git` → `acme/app`); null unless exactly two path segments remain. */
export function repositoryFullNameOf(url: string): string | null {
  const normalised = normaliseRepositoryUrl(url);
  if (normalised === null) return null;
  const path = new URL(normalised).pathname.replace(/^\//, '');
  return path.split('/').length === 2 ? decodeURIComponent(path) : null;
}

/** The path of a repository URL of any form (`git@gitlab.com:group/sub/app.git` → `group/sub/app`), or null. */
export function repositoryPathOf(url: string): string | null {
  const normalised = normaliseRepositoryUrl(url);
  if (normalised === null) return null;
  try {
    return decodeURIComponent(new URL(normalised).pathname.replace(/^\//, ''));
  } catch {
    return null;
  }
}

/** Builds the canonical https form; null when no repository path is left. */
function assemble(host: string, port: string, path: string): string | null {
  let trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed.toLowerCase().endsWith('.git')) trimmed = trimmed.slice(0, -4).replace(/\/+$/, '');
  if (trimmed === '') return null;
  return `https://${host.toLowerCase()}${port}/${trimmed}`;
}

export function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export const int = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);

/** Non-empty strings from the list, in order, without duplicates. */
export function presentStrings(values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (typeof value === 'string' && value.trim() !== '' && !out.includes(value)) out.push(value);
  }
  return out;
}

/** Caps text at MAX_TEXT_LENGTH without splitting a surrogate pair. */
export function truncate(text: string | null): string | null {
  if (text === null || text.length <= MAX_TEXT_LENGTH) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT_LENGTH - 1]!) ? MAX_TEXT_LENGTH - 1 : MAX_TEXT_LENGTH;
  return text.slice(0, end);
}
