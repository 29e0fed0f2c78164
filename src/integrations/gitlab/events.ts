/**
 * GitLab webhook deliveries: the `X-Gitlab-Token` check and the mapping of merge request
 * events to trigger events. Pure: the HTTP layer hands in headers and bodies.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { asRecord, bool, CodeHostingPayloadError, int, presentStrings, str, truncate, type CodeHostingEvent, type TriggerEventName } from '../codeHosting/events';

/** Constant-time comparison of `X-Gitlab-Token` with the configured token (false when either is empty/missing; must not leak length through early return timing more than unavoidable — hash both sides first). */
export function verifyGitlabToken(expected: string, header: string | undefined): boolean {
  // Digest both sides so the comparison always runs over equal-length buffers whatever was sent.
  const want = createHash('sha256').update(typeof expected === 'string' ? expected : '').digest();
  const got = createHash('sha256').update(typeof header === 'string' ? header : '').digest();
  const same = timingSafeEqual(want, got);
  return same && typeof expected === 'string' && expected.length > 0 && typeof header === 'string' && header.length > 0;
}

const GITLAB_ACTIONS: Readonly<Record<string, TriggerEventName>> = {
  open: 'merge_request.opened',
  update: 'merge_request.updated',
  close: 'merge_request.closed',
  merge: 'merge_request.merged',
};

/** Maps a GitLab delivery (X-Gitlab-Event header, e.g. "Merge Request Hook", + body with object_kind 'merge_request'). Same null/throw rules as `parseGithubEvent`. */
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
