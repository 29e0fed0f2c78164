/**
 * GitLab webhook deliveries: the `X-Gitlab-Token` check and the mapping of merge request
 * events, and of `/{botName}` notes on merge requests, to trigger events. Pure: the HTTP layer hands in headers and bodies.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { asRecord, bool, botCommand, int, isBotAuthor, presentStrings, str, truncate, type CodeHostingEvent, type TriggerEventName } from '../codeHosting/events';
import { missingField } from '../payloadError';

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

/** What the GitLab mapping needs beyond the delivery: the bot's name, for `/{botName}` commands. */
export interface GitlabParseOptions {
  botName?: string;
}

/**
 * Maps a GitLab delivery (X-Gitlab-Event header, "Merge Request Hook" with object_kind
 * 'merge_request', or "Note Hook" for a `/{botName}` comment on a merge request). Same
 * null/throw rules as `parseGithubEvent`.
 */
export function parseGitlabEvent(eventName: string, body: unknown, options: GitlabParseOptions = {}): CodeHostingEvent | null {
  const kind = typeof eventName === 'string' ? eventName.trim().toLowerCase() : '';
  if (kind === 'note hook') return parseCommand(body, options.botName ?? 'hangar');
  if (kind !== 'merge request hook') return null;
  const root = asRecord(body);
  if (!root) throw missingField('body');
  // The header is authoritative; a body that says it is something else is not ours to map.
  if (root.object_kind !== undefined && root.object_kind !== 'merge_request') return null;
  const attrs = asRecord(root.object_attributes);
  if (!attrs) throw missingField('object_attributes');
  const action = str(attrs.action);
  if (action === null) throw missingField('object_attributes.action');
  const event = Object.prototype.hasOwnProperty.call(GITLAB_ACTIONS, action) ? GITLAB_ACTIONS[action]! : null;
  if (event === null) return null;

  const number = int(attrs.iid);
  if (number === null) throw missingField('object_attributes.iid');
  const project = asRecord(root.project);
  const fullName = project ? str(project.path_with_namespace) : null;
  if (!project || fullName === null) throw missingField('project.path_with_namespace');

  const sender = str(asRecord(root.user)?.username);
  const mergeRequest = mergeRequestPayload(number, attrs, sender);
  return {
    ...projectOf(project, fullName),
    event,
    number,
    actor: sender,
    headSha: mergeRequest.head.sha,
    installationId: null,
    payload: { provider: 'gitlab', event, action, repository: projectPayload(project, fullName), merge_request: mergeRequest, sender },
  };
}

/** A merge request as a run's trigger payload shows it (the hook's `object_attributes`, or a note hook's `merge_request`). */
function mergeRequestPayload(number: number, mr: Record<string, unknown>, author: string | null) {
  return {
    number,
    title: str(mr.title),
    url: str(mr.url),
    state: str(mr.state),
    draft: bool(mr.draft) ?? bool(mr.work_in_progress) ?? false,
    // GitLab's hook bodies carry only author_id on the merge request.
    author,
    head: { ref: str(mr.source_branch), sha: str(asRecord(mr.last_commit)?.id) },
    base: { ref: str(mr.target_branch) },
    description: truncate(str(mr.description)),
  };
}

function projectOf(project: Record<string, unknown>, fullName: string) {
  return {
    provider: 'gitlab' as const,
    repositoryUrls: presentStrings([project.web_url, project.git_http_url, project.git_ssh_url, project.http_url, project.ssh_url]),
    repositoryFullName: fullName,
    projectId: int(project.id),
  };
}

const projectPayload = (project: Record<string, unknown>, fullName: string) => ({ full_name: fullName, url: str(project.web_url), project_id: int(project.id) });

/**
 * "Note Hook" → `merge_request.command`: a new, non-system note on a merge request whose first
 * line is `/{botName} <text>`, by anyone but the bot itself. The hook's `merge_request` carries
 * the head commit (`last_commit`), so unlike GitHub's comment the payload names it.
 */
function parseCommand(body: unknown, botName: string): CodeHostingEvent | null {
  const root = asRecord(body);
  if (!root) throw missingField('body');
  if (root.object_kind !== undefined && root.object_kind !== 'note') return null;
  const note = asRecord(root.object_attributes);
  if (!note) throw missingField('object_attributes');
  if (str(note.noteable_type) !== 'MergeRequest' || note.system === true) return null;
  // `action` arrived in GitLab 16.11; older hooks fire on creation only.
  const action = str(note.action);
  if (action !== null && action !== 'create') return null;
  const text = botCommand(str(note.note), botName);
  if (text === null) return null;
  const commenter = str(asRecord(root.user)?.username);
  if (isBotAuthor(commenter, botName)) return null;
  const mr = asRecord(root.merge_request);
  if (!mr) throw missingField('merge_request');
  const number = int(mr.iid);
  if (number === null) throw missingField('merge_request.iid');
  const project = asRecord(root.project);
  const fullName = project ? str(project.path_with_namespace) : null;
  if (!project || fullName === null) throw missingField('project.path_with_namespace');
  const event: TriggerEventName = 'merge_request.command';
  const mergeRequest = mergeRequestPayload(number, mr, null);
  return {
    ...projectOf(project, fullName),
    event,
    number,
    actor: commenter,
    headSha: mergeRequest.head.sha,
    installationId: null,
    payload: {
      provider: 'gitlab',
      event,
      action: 'create',
      repository: projectPayload(project, fullName),
      merge_request: mergeRequest,
      command: { text, author: commenter, note_id: int(note.id), url: str(note.url) },
      sender: commenter,
    },
  };
}
