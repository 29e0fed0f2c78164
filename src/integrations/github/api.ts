/**
 * An authenticated caller of GitHub's REST API. Authentication is either a GitHub App (an
 * RS256 JWT traded for a short-lived installation token, cached per installation) or one
 * static token. Errors say what failed and whether retrying could help; they never carry a
 * token, a JWT or the private key. This module does not retry and does not log: callers own both.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export interface GithubApiConfig {
  /** API base, e.g. https://api.github.com (no trailing slash needed). */
  apiUrl: string;
  /** GitHub App id + PEM private key: installation tokens are minted per installation. */
  appId?: string;
  privateKeyPem?: string;
  /** Alternative to the App: a static token (fine-grained PAT) used for every call. */
  token?: string;
  /** Per-request timeout, default 10 s. */
  timeoutMs?: number;
  /**
   * Without credentials, call unauthenticated instead of refusing: public repositories only,
   * at GitHub's lower rate limit (reading skills needs no App).
   */
  anonymous?: boolean;
}

/** Per call: `signal` abandons it early (a caller's own deadline), on top of the timeout. */
export interface GithubRequestOptions {
  signal?: AbortSignal;
}

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

/** One answered call: the HTTP status and the parsed JSON body (null when empty). */
export interface GithubAnswer {
  status: number;
  body: unknown;
}

export interface GithubApi {
  /** Whether credentials are configured (app id+key, or token). */
  readonly configured: boolean;
  /**
   * One call as the repository's installation (App credentials) or with the static token;
   * resolves on 2xx, throws GithubApiError otherwise. A 401 drops a cached installation token.
   */
  request(installationId: number | null | undefined, method: string, path: string, body?: unknown, options?: GithubRequestOptions): Promise<GithubAnswer>;
  /**
   * The installation of the App on a repository (`GET /repos/{owner}/{repo}/installation`,
   * authenticated as the App itself); null without App credentials, where no installation is
   * needed. Throws GithubApiError 404 when the App is not installed there.
   */
  repositoryInstallation(repository: string, options?: GithubRequestOptions): Promise<number | null>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const API_VERSION = '2022-11-28';
/** An installation token is replaced this long before GitHub says it expires. */
const TOKEN_REFRESH_MARGIN_MS = 60_000;

interface CachedToken {
  token: string;
  /** Epoch ms after which the token is minted anew. */
  refreshAt: number;
}

/** Builds the caller; nothing is sent until `request` is called. */
export function createGithubApi(config: GithubApiConfig): GithubApi {
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
  async function call(method: string, path: string, bearer: string | null, body?: unknown, options: GithubRequestOptions = {}): Promise<GithubAnswer> {
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
    };
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
      text = await response.text();
    } catch (err) {
      if (timeout.aborted) throw new GithubApiError(`${what} got no answer within ${timeoutMs} ms`, 0, true);
      if (options.signal?.aborted) throw new GithubApiError(`${what} was abandoned by its caller`, 0, false);
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

  /** Resolves the bearer for a call and makes it; a 401 drops a cached installation token. */
  async function request(installationId: number | null | undefined, method: string, path: string, body?: unknown, options?: GithubRequestOptions): Promise<GithubAnswer> {
    if (!useApp) {
      if (config.token) return call(method, path, config.token, body, options);
      if (config.anonymous) return call(method, path, null, body, options);
      throw new GithubApiError('GitHub Checks credentials are not configured (need an App id and private key, or a token)', 0, false);
    }
    if (installationId === undefined || installationId === null) {
      throw new GithubApiError('GitHub App credentials need an installation id for this repository, and none was given', 0, false);
    }
    if (!Number.isSafeInteger(installationId) || installationId <= 0) {
      throw new GithubApiError('GitHub installation id must be a positive integer', 0, false);
    }
    const bearer = await installationToken(installationId);
    try {
      return await call(method, path, bearer, body, options);
    } catch (err) {
      // A revoked or expired token: let the next call mint a fresh one.
      if (err instanceof GithubApiError && err.status === 401 && tokens.get(installationId)?.token === bearer) tokens.delete(installationId);
      throw err;
    }
  }

  async function repositoryInstallation(repository: string, options?: GithubRequestOptions): Promise<number | null> {
    if (!useApp) return null;
    const [owner, name, extra] = repository.split('/');
    if (!owner || !name || extra !== undefined) throw new GithubApiError('a repository is named "owner/name"', 0, false);
    const { body } = await call('GET', `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/installation`, appJwt(), undefined, options);
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw new GithubApiError('GitHub installation answer has no id', 0, false);
    return id;
  }

  return { configured, request, repositoryInstallation };
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
