/**
 * How Hangar answers in a GitHub issue or pull request routed to a workspace: an `eyes`
 * reaction on what reached it (and a comment naming the workspace when the thread gets a new
 * one), then after every agent turn a comment with the answer and its pull request links.
 * Calls go out as the repository's App installation (the thread's `installation_id`) or with
 * `HANGAR_GITHUB_TOKEN`, through `./api`. Every comment carries Hangar's marker, so its
 * delivery back to Hangar is never routed as a message.
 */
import { acknowledgeComment, replyComment, type PullRequestBinder } from '../codeHosting/threads';
import type { ThreadAdapter, ThreadBinding } from '../threads/types';
import type { GithubApi } from './api';

/** What a GitHub thread stores (`integration_threads.reference`). */
export interface GithubThreadReference {
  /** "owner/name". */
  repository: string;
  number: number;
  installation_id: number | null;
  is_pull_request: boolean;
  url?: string | null;
  /** Login of whoever started the thread: their later comments are routed even without a say on the repository. */
  author?: string | null;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export function githubReference(binding: Pick<ThreadBinding, 'reference' | 'threadKey'>): GithubThreadReference {
  const r = binding.reference as Partial<GithubThreadReference>;
  const parts = typeof r.repository === 'string' ? r.repository.split('/') : [];
  if (parts.length !== 2 || !parts.every((p) => NAME.test(p) && p !== '.' && p !== '..') || !Number.isSafeInteger(r.number) || (r.number as number) <= 0) {
    throw new Error(`GitHub thread ${binding.threadKey} has no usable repository and number in its reference`);
  }
  return {
    repository: r.repository!,
    number: r.number!,
    installation_id: typeof r.installation_id === 'number' ? r.installation_id : null,
    is_pull_request: r.is_pull_request === true,
    url: r.url ?? null,
    author: r.author ?? null,
  };
}

const repoPath = (repository: string) => `/repos/${repository.split('/').map(encodeURIComponent).join('/')}`;

/** The reactions endpoint for what a cursor names, or null for what takes no reaction (a check run). */
function reactionPath(ref: GithubThreadReference, cursor: string | null): string | null {
  const match = /^(issue|issue_comment|pull_request_review_comment):(\d+)$/.exec(cursor ?? '');
  if (!match) return null;
  const repo = repoPath(ref.repository);
  if (match[1] === 'issue') return `${repo}/issues/${match[2]}/reactions`;
  if (match[1] === 'issue_comment') return `${repo}/issues/comments/${match[2]}/reactions`;
  return `${repo}/pulls/comments/${match[2]}/reactions`;
}

export function createGithubThreadAdapter(deps: {
  api: GithubApi;
  pullRequests?: PullRequestBinder;
  /** A failed reaction does not stop the acknowledgement: it is reported here. */
  onReactionError?: (err: unknown, binding: ThreadBinding) => void;
}): ThreadAdapter {
  const { api } = deps;

  async function comment(ref: GithubThreadReference, body: string): Promise<void> {
    await api.request(ref.installation_id, 'POST', `${repoPath(ref.repository)}/issues/${ref.number}/comments`, { body });
  }

  return {
    provider: 'github',

    async acknowledge(binding, routing) {
      const ref = githubReference(binding);
      const reactions = reactionPath(ref, binding.cursor);
      if (reactions) {
        try {
          await api.request(ref.installation_id, 'POST', reactions, { content: 'eyes' });
        } catch (err) {
          deps.onReactionError?.(err, binding);
        }
      }
      if (routing.created) await comment(ref, acknowledgeComment(routing.replicaId, routing.waking));
    },

    async reply(binding, reply) {
      const ref = githubReference(binding);
      await comment(ref, replyComment(reply));
      if (reply.pullRequestUrls.length) await deps.pullRequests?.bindPullRequests(binding, reply.pullRequestUrls);
    },
  };
}
