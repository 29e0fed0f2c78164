/**
 * A small client for GitHub's REST Checks API: open a check run for a commit (idempotently,
 * keyed by our own external id) and later complete it with a conclusion and a summary.
 * Authentication, errors and their redaction are the API caller's (`./api`).
 */
import { createGithubApi, GithubApiError, type GithubApiConfig } from './api';

export type GithubChecksConfig = GithubApiConfig;

/** The conclusions GitHub accepts for a completed check run. */
export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'timed_out' | 'action_required';

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

/** GitHub rejects an output summary longer than this. */
const SUMMARY_MAX_LENGTH = 65_535;
const TRUNCATION_NOTE = '\n\n… (truncated)';
/** A page of check runs is at most this long; ensureCheckRun reads at most MAX_PAGES of them. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
/** GitHub's owner and repository names: letters, digits, '-', '_' and '.'. */
const NAME_SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;

/** Builds a Checks client; nothing is sent until a method is called. */
export function createGithubChecksClient(config: GithubChecksConfig): GithubChecksClient {
  const api = createGithubApi(config);

  return {
    configured: api.configured,

    async ensureCheckRun(args) {
      const repo = repoPath(args.repository);
      if (!args.headSha) throw new GithubApiError('headSha is required', 0, false);
      if (!args.name) throw new GithubApiError('check run name is required', 0, false);
      if (!args.externalId) throw new GithubApiError('externalId is required', 0, false);

      const listPath = `${repo}/commits/${encodeURIComponent(args.headSha)}/check-runs?check_name=${encodeURIComponent(args.name)}&filter=all&per_page=${PAGE_SIZE}`;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const { body } = await api.request(args.installationId, 'GET', page === 1 ? listPath : `${listPath}&page=${page}`);
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
      const { body } = await api.request(args.installationId, 'POST', `${repo}/check-runs`, request);
      const id = (body as { id?: unknown } | null)?.id;
      if (typeof id !== 'number') throw new GithubApiError('GitHub check run answer has no id', 0, false);
      return { id, created: true };
    },

    async completeCheckRun(args) {
      const repo = repoPath(args.repository);
      if (!Number.isSafeInteger(args.id) || args.id <= 0) throw new GithubApiError('check run id must be a positive integer', 0, false);
      await api.request(args.installationId, 'PATCH', `${repo}/check-runs/${args.id}`, {
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
