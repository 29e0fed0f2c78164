/**
 * How Hangar answers in a GitLab issue or merge request routed to a workspace: an `eyes` award
 * emoji on what reached it (and a note naming the workspace when the thread gets a new one),
 * then after every agent turn a note with the answer and its merge request links. Calls go to
 * the project the thread's reference names by path (the organization's connected repository,
 * never a project id a delivery carried), with the organization's GitLab connection's token and
 * instance (`apiFor`). Every note carries Hangar's marker, so its delivery back to Hangar is
 * never routed as a message.
 */
import { acknowledgeComment, replyComment, type PullRequestBinder } from '../codeHosting/threads';
import type { ThreadAdapter, ThreadBinding } from '../threads/types';
import { projectPath, type GitlabApi } from './api';

/** What a GitLab thread stores (`integration_threads.reference`). */
export interface GitlabThreadReference {
  /** "group/project": the connected repository's path, which every call addresses (a stored `project_id` is not read). */
  repository: string;
  iid: number;
  noteable: 'issue' | 'merge_request';
  url?: string | null;
  author?: string | null;
}

export function gitlabReference(binding: Pick<ThreadBinding, 'reference' | 'threadKey'>): GitlabThreadReference {
  const r = binding.reference as Partial<GitlabThreadReference>;
  const iid = r.iid;
  if (typeof r.repository !== 'string' || !r.repository || !Number.isSafeInteger(iid) || (iid as number) <= 0 || (r.noteable !== 'issue' && r.noteable !== 'merge_request')) {
    throw new Error(`GitLab thread ${binding.threadKey} has no usable project, iid and kind in its reference`);
  }
  return {
    repository: r.repository,
    iid: iid!,
    noteable: r.noteable,
    url: r.url ?? null,
    author: r.author ?? null,
  };
}

const itemPath = (ref: GitlabThreadReference) => `${projectPath(ref.repository)}/${ref.noteable === 'issue' ? 'issues' : 'merge_requests'}/${ref.iid}`;

export function createGitlabThreadAdapter(deps: {
  /** The API of the thread's organization: its GitLab connection's instance and token. */
  apiFor: (binding: ThreadBinding) => Promise<GitlabApi>;
  pullRequests?: PullRequestBinder;
  onReactionError?: (err: unknown, binding: ThreadBinding) => void;
}): ThreadAdapter {
  const note = (api: GitlabApi, ref: GitlabThreadReference, body: string) => api.request('POST', `${itemPath(ref)}/notes`, { body });

  return {
    provider: 'gitlab',

    async acknowledge(binding, routing) {
      const ref = gitlabReference(binding);
      const api = await deps.apiFor(binding);
      const cursor = /^(issue|merge_request|note):(\d+)$/.exec(binding.cursor ?? '');
      if (cursor) {
        const path = cursor[1] === 'note' ? `${itemPath(ref)}/notes/${cursor[2]}/award_emoji` : `${itemPath(ref)}/award_emoji`;
        try {
          await api.request('POST', path, { name: 'eyes' });
        } catch (err) {
          deps.onReactionError?.(err, binding);
        }
      }
      if (routing.created) await note(api, ref, acknowledgeComment(routing.replicaId, routing.waking));
    },

    async reply(binding, reply) {
      const ref = gitlabReference(binding);
      await note(await deps.apiFor(binding), ref, replyComment(reply));
      if (reply.pullRequestUrls.length) await deps.pullRequests?.bindPullRequests(binding, reply.pullRequestUrls);
    },
  };
}
