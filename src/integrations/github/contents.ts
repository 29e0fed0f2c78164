/**
 * Reads a repository's contents on its default branch through GitHub's REST contents API
 * (`GET /repos/{owner}/{repo}/contents/{path}`): a directory answers its entries, a file its
 * bytes. Public repositories need no credentials; a configured token also reaches private
 * ones. Calls go a few at a time, so many skills fetched at once stay within GitHub's limits
 * on concurrent requests. Authentication, errors and their redaction are the API caller's
 * (`./api`).
 */
import { createGithubApi, GithubApiError } from './api';

export interface GithubContentsConfig {
  apiUrl: string;
  /** Sent when set; otherwise calls are unauthenticated. */
  token?: string;
  /** Per-request timeout, default 10 s. */
  timeoutMs?: number;
  /** Requests in flight at once, default 6. */
  concurrency?: number;
}

/** A directory entry; symlinks and submodules are listed but hold no readable file. */
export interface ContentEntry {
  type: 'file' | 'dir' | 'symlink' | 'submodule';
  name: string;
  size: number;
}

export type RepositoryContents = { type: 'dir'; entries: ContentEntry[] } | { type: 'file'; content: Buffer };

export interface RepositoryPath {
  owner: string;
  repo: string;
  /** Inside the repository, `/`-separated; empty for its root. */
  path: string;
}

export interface GithubContentsClient {
  /** The directory or file at `at`; null when GitHub answers 404. Throws GithubApiError otherwise. */
  read(at: RepositoryPath, options?: { signal?: AbortSignal }): Promise<RepositoryContents | null>;
}

const DEFAULT_CONCURRENCY = 6;
const ENTRY_TYPES = new Set(['file', 'dir', 'symlink', 'submodule']);

export function createGithubContentsClient(config: GithubContentsConfig): GithubContentsClient {
  const api = createGithubApi({ apiUrl: config.apiUrl, token: config.token, timeoutMs: config.timeoutMs, anonymous: true });
  const slots = createSlots(config.concurrency ?? DEFAULT_CONCURRENCY);

  return {
    async read(at, options = {}) {
      const segments = [at.owner, at.repo, ...at.path.split('/').filter(Boolean)].map(encodeURIComponent);
      const path = `/repos/${segments[0]}/${segments[1]}/contents${segments.length > 2 ? `/${segments.slice(2).join('/')}` : ''}`;
      await slots.acquire(options.signal);
      let body: unknown;
      try {
        body = (await api.request(null, 'GET', path, undefined, options)).body;
      } catch (err) {
        if (err instanceof GithubApiError && err.status === 404) return null;
        throw err;
      } finally {
        slots.release();
      }
      return parseContents(body, `${at.owner}/${at.repo}/${at.path}`);
    },
  };
}

function parseContents(body: unknown, what: string): RepositoryContents {
  if (Array.isArray(body)) {
    const entries = body.map((e: { type?: unknown; name?: unknown; size?: unknown } | null) => {
      if (!e || typeof e.name !== 'string' || !ENTRY_TYPES.has(e.type as string)) throw new GithubApiError(`GitHub listed an unreadable entry in ${what}`, 0, false);
      return { type: e.type as ContentEntry['type'], name: e.name, size: typeof e.size === 'number' ? e.size : 0 };
    });
    return { type: 'dir', entries };
  }
  const file = body as { type?: unknown; content?: unknown; encoding?: unknown } | null;
  if (file?.type !== 'file') throw new GithubApiError(`GitHub answered something other than a file or directory for ${what}`, 0, false);
  // Above 1 MB GitHub leaves `content` empty (encoding "none"); no skill file gets that big.
  if (file.encoding !== 'base64' || typeof file.content !== 'string') throw new GithubApiError(`GitHub did not send the content of ${what} (too large?)`, 0, false);
  return { type: 'file', content: Buffer.from(file.content, 'base64') };
}

/** At most `max` holders at once; a waiter whose signal aborts leaves the queue. */
function createSlots(max: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire(signal?: AbortSignal): Promise<void> {
      if (active < max) {
        active++;
        return Promise.resolve();
      }
      return new Promise((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', abandon);
          resolve();
        };
        const abandon = () => {
          const i = waiting.indexOf(go);
          if (i >= 0) waiting.splice(i, 1);
          reject(new GithubApiError('GitHub call abandoned by its caller before it was sent', 0, false));
        };
        if (signal?.aborted) return abandon();
        waiting.push(go);
        signal?.addEventListener('abort', abandon, { once: true });
      });
    },
    /** Hands the slot to the next waiter, if any. */
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else active--;
    },
  };
}
