/**
 * Pure helpers that authenticate code-hosting webhook deliveries (GitHub, GitLab) and translate
 * the ones that matter into trigger events for automations. Nothing here performs I/O: the HTTP
 * layer hands in headers and bodies, and decides what to do with the result.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export type CodeHostingProvider = 'github' | 'gitlab';

export type TriggerEventName =
  | 'pull_request.opened'
  | 'pull_request.synchronize'
  | 'pull_request.closed'
  | 'pull_request.merged'
  | 'merge_request.opened'
  | 'merge_request.updated'
  | 'merge_request.closed'
  | 'merge_request.merged';

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
  /** The run's trigger payload: a compact, stable JSON object (see below). */
  payload: Record<string, unknown>;
}

/** Thrown when a delivery that should trigger something is missing a field the mapping needs. */
export class CodeHostingPayloadError extends Error {
  constructor(readonly field: string) {
    super(`Webhook payload is missing required field "${field}"`);
    this.name = 'CodeHostingPayloadError';
  }
}

/** Longest body/description kept in a trigger payload, in UTF-16 code units. */
const MAX_TEXT_LENGTH = 10_000;

const GITHUB_SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** HMAC-SHA256 of the raw body with the secret, compared in constant time against `X-Hub-Signature-256` ("sha256=<hex>"). False for a missing/malformed header or an empty secret. */
export function verifyGithubSignature(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (typeof secret !== 'string' || secret.length === 0) return false;
  if (typeof header !== 'string' || !Buffer.isBuffer(rawBody)) return false;
  const match = GITHUB_SIGNATURE.exec(header.trim());
  if (!match) return false;
  const claimed = Buffer.from(match[1]!, 'hex');
  const actual = createHmac('sha256', secret).update(rawBody).digest();
  // Both are 32 bytes here (the regex pins the hex length), so timingSafeEqual cannot throw.
  return claimed.length === actual.length && timingSafeEqual(claimed, actual);
}

/** Constant-time comparison of `X-Gitlab-Token` with the configured token (false when either is empty/missing; must not leak length through early return timing more than unavoidable — hash both sides first). */
export function verifyGitlabToken(expected: string, header: string | undefined): boolean {
  // Digest both sides so the comparison always runs over equal-length buffers whatever was sent.
  const want = createHash('sha256').update(typeof expected === 'string' ? expected : '').digest();
  const got = createHash('sha256').update(typeof header === 'string' ? header : '').digest();
  const same = timingSafeEqual(want, got);
  return same && typeof expected === 'string' && expected.length > 0 && typeof header === 'string' && header.length > 0;
}

/** Maps a GitHub delivery (X-GitHub-Event header value + parsed JSON body). Returns null for deliveries that trigger nothing (ping, other events, other pull_request actions like labeled/edited/reopened). Throws `CodeHostingPayloadError` (export it; has a message naming the missing field) when a pull_request payload lacks required fields (number, repository.full_name, pull_request). */
export function parseGithubEvent(eventName: string, body: unknown): CodeHostingEvent | null {
  if (typeof eventName !== 'string' || eventName.trim().toLowerCase() !== 'pull_request') return null;
  const root = asRecord(body);
  if (!root) throw new CodeHostingPayloadError('body');
  const action = str(root.action);
  if (action === null) throw new CodeHostingPayloadError('action');
  if (action !== 'opened' && action !== 'synchronize' && action !== 'closed') return null;

  const number = int(root.number);
  if (number === null) throw new CodeHostingPayloadError('number');
  const pr = asRecord(root.pull_request);
  if (!pr) throw new CodeHostingPayloadError('pull_request');
  const repo = asRecord(root.repository);
  const fullName = repo ? str(repo.full_name) : null;
  if (!repo || fullName === null) throw new CodeHostingPayloadError('repository.full_name');

  const merged = bool(pr.merged);
  const event: TriggerEventName =
    action === 'opened'
      ? 'pull_request.opened'
      : action === 'synchronize'
        ? 'pull_request.synchronize'
        : merged === true
          ? 'pull_request.merged'
          : 'pull_request.closed';

  const head = asRecord(pr.head);
  const base = asRecord(pr.base);
  const sender = str(asRecord(root.sender)?.login);
  const headSha = str(head?.sha);

  return {
    provider: 'github',
    event,
    repositoryUrls: presentStrings([repo.html_url, repo.clone_url, repo.ssh_url, repo.git_url]),
    repositoryFullName: fullName,
    number,
    actor: sender,
    headSha,
    installationId: int(asRecord(root.installation)?.id),
    projectId: null,
    payload: {
      provider: 'github',
      event,
      action,
      repository: { full_name: fullName, url: str(repo.html_url) },
      pull_request: {
        number,
        title: str(pr.title),
        url: str(pr.html_url),
        state: str(pr.state),
        draft: bool(pr.draft),
        merged,
        author: str(asRecord(pr.user)?.login),
        head: { ref: str(head?.ref), sha: headSha },
        base: { ref: str(base?.ref), sha: str(base?.sha) },
        body: truncate(str(pr.body)),
      },
      sender,
    },
  };
}

const GITLAB_ACTIONS: Readonly<Record<string, TriggerEventName>> = {
  open: 'merge_request.opened',
  update: 'merge_request.updated',
  close: 'merge_request.closed',
  merge: 'merge_request.merged',
};

/** Maps a GitLab delivery (X-Gitlab-Event header, e.g. "Merge Request Hook", + body with object_kind 'merge_request'). Same null/throw rules. */
export function parseGitlabEvent(eventName: string, body: unknown): CodeHostingEvent | null {
  if (typeof eventName !== 'string' || eventName.trim().toLowerCase() !== 'merge request hook') return null;
  const root = asRecord(body);
  if (!root) throw new CodeHostingPayloadError('body');
  // The header is authoritative; a body that says it is something else is not ours to map.
  if (root.object_kind !== undefined && root.object_kind !== 'merge_request') return null;
  const attrs = asRecord(root.object_attributes);
  if (!attrs) throw new CodeHostingPayloadError('object_attributes');
  const action = str(attrs.action);
  if (action === null) throw new CodeHostingPayloadError('object_attributes.action');
  const event = Object.prototype.hasOwnProperty.call(GITLAB_ACTIONS, action) ? GITLAB_ACTIONS[action]! : null;
  if (event === null) return null;

  const number = int(attrs.iid);
  if (number === null) throw new CodeHostingPayloadError('object_attributes.iid');
  const project = asRecord(root.project);
  const fullName = project ? str(project.path_with_namespace) : null;
  if (!project || fullName === null) throw new CodeHostingPayloadError('project.path_with_namespace');

  const projectId = int(project.id);
  const sender = str(asRecord(root.user)?.username);
  const headSha = str(asRecord(attrs.last_commit)?.id);

  return {
    provider: 'gitlab',
    event,
    repositoryUrls: presentStrings([project.web_url, project.git_http_url, project.git_ssh_url, project.http_url, project.ssh_url]),
    repositoryFullName: fullName,
    number,
    actor: sender,
    headSha,
    installationId: null,
    projectId,
    payload: {
      provider: 'gitlab',
      event,
      action,
      repository: { full_name: fullName, url: str(project.web_url), project_id: projectId },
      merge_request: {
        number,
        title: str(attrs.title),
        url: str(attrs.url),
        state: str(attrs.state),
        draft: bool(attrs.draft) ?? bool(attrs.work_in_progress) ?? false,
        // GitLab's hook body carries only author_id on the merge request; `user` is who acted.
        author: sender,
        head: { ref: str(attrs.source_branch), sha: headSha },
        base: { ref: str(attrs.target_branch) },
        description: truncate(str(attrs.description)),
      },
      sender,
    },
  };
}

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

/** Builds the canonical https form; null when no repository path is left. */
function assemble(host: string, port: string, path: string): string | null {
  let trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  if (trimmed.toLowerCase().endsWith('.git')) trimmed = trimmed.slice(0, -4).replace(/\/+$/, '');
  if (trimmed === '') return null;
  return `https://${host.toLowerCase()}${port}/${trimmed}`;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const bool = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

const int = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);

/** Non-empty strings from the list, in order, without duplicates. */
function presentStrings(values: unknown[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    if (typeof value === 'string' && value.trim() !== '' && !out.includes(value)) out.push(value);
  }
  return out;
}

/** Caps text at MAX_TEXT_LENGTH without splitting a surrogate pair. */
function truncate(text: string | null): string | null {
  if (text === null || text.length <= MAX_TEXT_LENGTH) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT_LENGTH - 1]!) ? MAX_TEXT_LENGTH - 1 : MAX_TEXT_LENGTH;
  return text.slice(0, end);
}
