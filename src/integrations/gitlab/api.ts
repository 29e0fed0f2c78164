/**
 * An authenticated caller of GitLab's REST API (v4) with one token (a GitLab connection's
 * `api_token`, or the deployment's `HANGAR_GITLAB_TOKEN`: a personal, group or project access
 * token sent as `PRIVATE-TOKEN`). Errors say what failed and whether retrying could help, and
 * never carry the token. No retries and no logging here.
 */
import { fetch, type Dispatcher, type Response } from 'undici';

export interface GitlabApiConfig {
  /** API base including `/api/v4`, e.g. https://gitlab.com/api/v4. */
  apiUrl: string;
  token?: string;
  /** Per-request timeout, default 10 s. */
  timeoutMs?: number;
  /**
   * For an instance a user chose (a connection's `instance_url`): connections go through the
   * outbound policy's dispatcher and redirects are not followed.
   */
  dispatcher?: Dispatcher;
  /** Named in the error when no token is set. */
  tokenName?: string;
}

export class GitlabApiError extends Error {
  constructor(
    message: string,
    /** GitLab's status, or 0 when there was no answer or the call was refused before sending. */
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'GitlabApiError';
  }
}

export interface GitlabApi {
  readonly configured: boolean;
  /** One call; resolves with the parsed JSON on 2xx, throws GitlabApiError otherwise. */
  request(method: string, path: string, body?: unknown): Promise<unknown>;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function createGitlabApi(config: GitlabApiConfig): GitlabApi {
  const baseUrl = config.apiUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const redact = (text: string) => (config.token ? text.split(config.token).join('[redacted]') : text).replace(/\bglpat-[A-Za-z0-9_-]+/g, '[redacted]');

  return {
    configured: Boolean(config.token),

    async request(method, path, body) {
      const what = `GitLab ${method} ${path.split('?')[0]}`;
      if (!config.token) throw new GitlabApiError(`GitLab credentials are not configured (${config.tokenName ?? 'HANGAR_GITLAB_TOKEN'})`, 0, false);
      const headers: Record<string, string> = { 'private-token': config.token, accept: 'application/json', 'user-agent': 'hangar' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let text: string;
      try {
        const guarded = config.dispatcher ? { dispatcher: config.dispatcher, redirect: 'manual' as const } : {};
        response = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: timeout, ...guarded });
        text = await response.text();
      } catch (err) {
        if (timeout.aborted) throw new GitlabApiError(`${what} got no answer within ${timeoutMs} ms`, 0, true);
        const cause = (err as { cause?: { code?: unknown } }).cause;
        throw new GitlabApiError(redact(`${what} failed: ${typeof cause?.code === 'string' ? cause.code : (err as Error).message}`), 0, true);
      }
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      if (response.ok) return parsed;
      // GitLab's error bodies are {message} (a string or a field map) or {error}.
      const b = parsed as { message?: unknown; error?: unknown } | null;
      const detail = typeof b?.message === 'string' ? b.message : b?.message ? JSON.stringify(b.message) : typeof b?.error === 'string' ? b.error : '';
      throw new GitlabApiError(redact(`${what} answered ${response.status}${detail ? `: ${detail.slice(0, 300)}` : ''}`), response.status, response.status >= 500 || response.status === 429);
    },
  };
}

/** `/projects/:id` for a numeric id or a "group/project" path. */
export const projectPath = (project: number | string): string => `/projects/${encodeURIComponent(String(project))}`;
