/**
 * A small client for GitHub's REST Checks API: open a check run for a commit (idempotently,
 * keyed by our own external id) and later complete it with a conclusion and a summary.
 *
 * Authentication is either a GitHub App (an RS256 JWT traded for a short-lived installation
 * token, cached per installation) or one static token. Errors say what failed and whether
 * retrying could help; they never carry a token, a JWT or the private key. This module does
 * not retry and does not log: callers own both.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export interface GithubChecksConfig {
  /** API base, e.g. https://api.github.com (no trailing slash needed). */
  apiUrl: string;
  /** GitHub App id + PEM private key: installation tokens are minted per installation. */
  appId?: string;
  privateKeyPem?: string;
  /** Alternative to the App: a static token (fine-grained PAT) used for every call. */
  token?: string;
  /** Per-request timeout, default 10 s. */
  timeoutMs?: number;
}

/** The conclusions GitHub accepts for a completed check run. */
export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'timed_out' | 'action_required';

/**
 * A failed GitHub call. `status` is the HTTP status GitHub answered with, or 0 when there was
 * no answer (network error, timeout) or the call was refused before sending (bad arguments,
 * missing credentials). `retryable` says whether the same call may succeed later.
 */
export class GithubApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GithubApiError';
  }
}

/** Arguments of {@link GithubChecksClient.ensureCheckRun}. */
export interface EnsureCheckRunArgs {
  /** "owner/name". */
  repository: string;
  /** Required with App credentials; ignored with a static token. */
  installationId?: number | null;
  headSha: string;
  name: string;
  /** Our own id for the run; a run already carrying it is reused instead of creating another. */
  externalId: string;
  detailsUrl?: string;
  title?: string;
  summary?: string;
}

/** Arguments of {@link GithubChecksClient.completeCheckRun}. */
export interface CompleteCheckRunArgs {
  repository: string;
  installationId?: number | null;
  id: number;
  conclusion: CheckConclusion;
  title: string;
  summary: string;
}

/** What {@link createGithubChecksClient} returns. */
export interface GithubChecksClient {
  /** Whether credentials are configured (app id+key, or token). */
  readonly configured: boolean;
  /**
   * Idempotent by externalId: first lists the check runs of headSha filtered by check_name
   * (GET /repos/{owner}/{repo}/commits/{ref}/check-runs?check_name=NAME&filter=all&per_page=100)
   * and returns an existing run whose external_id equals externalId; otherwise creates one
   * (POST /repos/{owner}/{repo}/check-runs with {name, head_sha, external_id, status: 'in_progress', started_at, details_url?, output?: {title, summary}}).
   */
  ensureCheckRun(args: EnsureCheckRunArgs): Promise<{ id: number; created: boolean }>;
  /** PATCH /repos/{owner}/{repo}/check-runs/{id} with {status:'completed', conclusion, completed_at, output:{title, summary}} (summary truncated to GitHub's 65535-char limit). */
  completeCheckRun(args: CompleteCheckRunArgs): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const API_VERSION = '2022-11-28';
/** GitHub rejects an output summary longer than this. */
const SUMMARY_MAX_LENGTH = 65_535;
const TRUNCATION_NOTE = '\n\n… (truncated)';
/** An installation token is replaced this long before GitHub says it expires. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** A page of check runs is at most this long; ensureCheckRun reads at most MAX_PAGES of them. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
/** GitHub's owner and repository names: letters, digits, '-', '_' and '.'. */
const NAME_SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;

interface CachedToken {
  token: string;
  /** Epoch ms after which the token is minted anew. */
  refreshAt: number;
}

interface Answer {
  status: number;
  body: unknown;
}

/** Builds a Checks client; nothing is sent until a method is called. */
export function createGithubChecksClient(config: GithubChecksConfig): GithubChecksClient {
  const baseUrl = config.apiUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const useApp = Boolean(config.appId && config.privateKeyPem);
  const configured = useApp || Boolean(config.token);

  /** Installation tokens in use, and mints in flight (shared by concurrent callers). */
  const tokens = new Map<number, CachedToken>();
  const minting = new Map<number, Promise<CachedToken>>();
  let privateKey: KeyObject | null = null;

  /** Strips every secret this client knows of, and anything shaped like one, from a message. */
  const redact = (text: string): string => {
    let out = text;
    const known = [config.token, config.privateKeyPem, ...[...tokens.values()].map((t) => t.token)];
    for (const secret of known) if (secret) out = out.split(secret).join('[redacted]');
    return out
      .replace(/\b(?:gh[pousr]_|github_pat_)[A-Za-z0-9_]+/g, '[redacted]')
      .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]')
      .replace(/-----BEGIN [^-]+-----[\s\S]*?(?:-----END [^-]+-----|$)/g, '[redacted]');
  };

  /** One HTTP call; resolves on 2xx with the parsed body, throws GithubApiError otherwise. */
  async function call(method: string, path: string, bearer: string, body?: unknown): Promise<Answer> {
    const what = `GitHub ${method} ${path.split('?')[0]}`;
    let url: URL;
    try {
      url = new URL(baseUrl + path);
    } catch {
      throw new GithubApiError('GitHub apiUrl is not a valid URL', 0, false);
    }
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': API_VERSION,
      'user-agent': 'hangar',
      authorization: `Bearer ${bearer}`,
    };
    if (body !== undefined) headers['content-type'] = 'application/json';

    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: timeout });
      text = await response.text();
    } catch (err) {
      if (timeout.aborted) throw new GithubApiError(`${what} got no answer within ${timeoutMs} ms`, 0, true);
      throw new GithubApiError(redact(`${what} failed: ${describeNetworkError(err)}`), 0, true);
    }

    let parsed: unknown = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (response.ok) {
      if (text && parsed === null) throw new GithubApiError(`${what} answered ${response.status} with a body that is not JSON`, response.status, false);
      return { status: response.status, body: parsed };
    }
    const detail = describeGithubError(parsed);
    throw new GithubApiError(
      redact(`${what} answered ${response.status}${detail ? `: ${detail}` : ''}`),
      response.status,
      isRetryable(response.status, response.headers),
    );
  }

  /** The App's JWT: RS256 over {iat, exp, iss}, backdated a minute against clock drift. */
  function appJwt(): string {
    if (!privateKey) {
      try {
        privateKey = createPrivateKey(config.privateKeyPem as string);
      } catch {
        throw new GithubApiError('GitHub App private key could not be read (expected a PEM RSA key)', 0, false);
      }
    }
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
    const claims = base64url(JSON.stringify({ iat: now - 60, exp: now + 9 * 60, iss: config.appId }));
    const signature = base64url(sign('sha256', Buffer.from(`${header}.${claims}`), privateKey));
    return `${header}.${claims}.${signature}`;
  }

  async function mintInstallationToken(installationId: number): Promise<CachedToken> {
    const { body } = await call('POST', `/app/installations/${installationId}/access_tokens`, appJwt());
    const answer = body as { token?: unknown; expires_at?: unknown } | null;
    if (typeof answer?.token !== 'string' || !answer.token) {
      throw new GithubApiError('GitHub installation token answer has no token', 0, false);
    }
    const expiresAt = typeof answer.expires_at === 'string' ? Date.parse(answer.expires_at) : NaN;
    // Without a readable expiry the token serves this call only.
    return { token: answer.token, refreshAt: Number.isNaN(expiresAt) ? 0 : expiresAt - TOKEN_REFRESH_MARGIN_MS };
  }

  /** The installation's token: cached until shortly before it expires, one mint at a time. */
  async function installationToken(installationId: number): Promise<string> {
    const cached = tokens.get(installationId);
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    let pending = minting.get(installationId);
    if (!pending) {
      pending = mintInstallationToken(installationId).finally(() => minting.delete(installationId));
      minting.set(installationId, pending);
    }
    const fresh = await pending;
    tokens.set(installationId, fresh);
    return fresh.token;
  }

  /** Resolves the bearer for a Checks call and makes it; a 401 drops a cached installation token. */
  async function checksCall(installationId: number | null | undefined, method: string, path: string, body?: unknown): Promise<Answer> {
    if (!useApp) {
      if (!config.token) throw new GithubApiError('GitHub Checks credentials are not configured (need an App id and private key, or a token)', 0, false);
      return call(method, path, config.token, body);
    }
    if (installationId === undefined || installationId === null) {
      throw new GithubApiError('GitHub App credentials need an installation id for this repository, and none was given', 0, false);
    }
    if (!Number.isSafeInteger(installationId) || installationId <= 0) {
      throw new GithubApiError('GitHub installation id must be a positive integer', 0, false);
    }
    const bearer = await installationToken(installationId);
    try {
      return await call(method, path, bearer, body);
    } catch (err) {
      // A revoked or expired token: let the next call mint a fresh one.
      if (err instanceof GithubApiError && err.status === 401 && tokens.get(installationId)?.token === bearer) tokens.delete(installationId);
      throw err;
    }
  }

  return {
    configured,

    async ensureCheckRun(args) {
      const repo = repoPath(args.repository);
      if (!args.headSha) throw new GithubApiError('headSha is required', 0, false);
      if (!args.name) throw new GithubApiError('check run name is required', 0, false);
      if (!args.externalId) throw new GithubApiError('externalId is required', 0, false);

      const listPath = `${repo}/commits/${encodeURIComponent(args.headSha)}/check-runs?check_name=${encodeURIComponent(args.name)}&filter=all&per_page=${PAGE_SIZE}`;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { body } = await checksCall(args.installationId, 'GET', page === 1 ? listPath : `${listPath}&page=${page}`);
        const list = body as { total_count?: unknown; check_runs?: unknown } | null;
        const runs = Array.isArray(list?.check_runs) ? (list.check_runs as Array<{ id?: unknown; external_id?: unknown }>) : [];
        const existing = runs.find((run) => run?.external_id === args.externalId && typeof run.id === 'number');
        if (existing) return { id: existing.id as number, created: false };
        const total = typeof list?.total_count === 'number' ? list.total_count : 0;
        if (runs.length < PAGE_SIZE || page * PAGE_SIZE >= total) break;
      }

      const request: Record<string, unknown> = {
        name: args.name,
        head_sha: args.headSha,
        external_id: args.externalId,
        status: 'in_progress',
        started_at: isoSeconds(new Date()),
      };
      if (args.detailsUrl) request.details_url = args.detailsUrl;
      if (args.title !== undefined || args.summary !== undefined) {
        request.output = { title: args.title ?? args.name, summary: truncateSummary(args.summary ?? '') };
      }
      const { body } = await checksCall(args.installationId, 'POST', `${repo}/check-runs`, request);
      const id = (body as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') throw new GithubApiError('GitHub check run answer has no id', 0, false);
      return { id, created: true };
    },

    async completeCheckRun(args) {
      const repo = repoPath(args.repository);
      if (!Number.isSafeInteger(args.id) || args.id <= 0) throw new GithubApiError('check run id must be a positive integer', 0, false);
      await checksCall(args.installationId, 'PATCH', `${repo}/check-runs/${args.id}`, {
        status: 'completed',
        conclusion: args.conclusion,
        completed_at: isoSeconds(new Date()),
        output: { title: args.title, summary: truncateSummary(args.summary) },
      });
    },
  };
}

/** `/repos/{owner}/{repo}` for an "owner/name" string, refusing anything else. */
function repoPath(repository: string): string {
  const parts = typeof repository === 'string' ? repository.split('/') : [];
  const valid = parts.length === 2 && parts.every((part) => NAME_SEGMENT.test(part) && part !== '.' && part !== '..');
  if (!valid) throw new GithubApiError('repository must be "owner/name"', 0, false);
  return `/repos/${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}`;
}

/** Rate limits and server-side failures pass; other client errors will fail the same way again. */
function isRetryable(status: number, headers: Headers): boolean {
  if (status >= 500 || status === 429) return true;
  // GitHub signals both the primary and the secondary rate limit with a 403.
  if (status === 403) return headers.get('x-ratelimit-remaining') === '0' || headers.has('retry-after');
  return false;
}

/** GitHub's `message`, plus the field errors of a 422, kept short. */
function describeGithubError(body: unknown): string {
  const b = body as { message?: unknown; errors?: unknown } | null;
  if (!b || typeof b !== 'object') return '';
  let text = typeof b.message === 'string' ? b.message : '';
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    const details = b.errors.map((e: unknown) => {
      if (typeof e === 'string') return e;
      const item = e as { message?: unknown; field?: unknown; code?: unknown } | null;
      if (typeof item?.message === 'string') return item.message;
      return [item?.field, item?.code].filter((s) => typeof s === 'string').join(' ');
    });
    text += ` (${details.filter(Boolean).join('; ')})`;
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.message : 'network error';
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/** ISO 8601 without milliseconds, the form GitHub documents: YYYY-MM-DDTHH:MM:SSZ. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Fits a summary into GitHub's limit, saying so at the end and never splitting a surrogate pair. */
function truncateSummary(summary: string): string {
  if (summary.length <= SUMMARY_MAX_LENGTH) return summary;
  let cut = SUMMARY_MAX_LENGTH - TRUNCATION_NOTE.length;
  const last = summary.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return summary.slice(0, cut) + TRUNCATION_NOTE;
}
