/**
 * GitLab deliveries as threads: issues and merge requests opened, notes on them, their
 * closing (or merging), and failed pipelines of merge requests. Beside `./events` (which maps
 * merge request events to automation triggers): the same verified delivery feeds both. Pure.
 *
 * GitLab numbers issues and merge requests separately, so their thread keys differ:
 * `group/project#12` is an issue, `group/project!12` a merge request. Nothing here decides
 * where answers go or who the author is as a member: the receiver keys the thread by the
 * connected repository's path, and the author is their account id (`user.email` is not read).
 */
import { asRecord, int, presentStrings, str } from '../codeHosting/events';
import { accountId, gitlabThreadKey, hasMarker, loginKey, type CiFailure, type CodeHostingThreadEvent, type ThreadItem, type ThreadPerson, type ThreadPost, type ThreadRepository } from '../codeHosting/threads';
import { missingField } from '../payloadError';

type Fields = Record<string, unknown>;

function repositoryOf(root: Fields): ThreadRepository & { webUrl: string | null } {
  const project = asRecord(root.project);
  const fullName = project ? str(project.path_with_namespace) : null;
  if (!project || fullName === null) throw missingField('project.path_with_namespace');
  return {
    provider: 'gitlab',
    repositoryUrls: presentStrings([project.web_url, project.git_http_url, project.git_ssh_url, project.http_url, project.ssh_url]),
    repositoryFullName: fullName,
    installationId: null,
    webUrl: str(project.web_url),
  };
}

function itemOf(repo: ReturnType<typeof repositoryOf>, raw: unknown, field: string, mergeRequest: boolean): ThreadItem {
  const item = asRecord(raw);
  const iid = int(item?.iid);
  if (!item || iid === null) throw missingField(`${field}.iid`);
  const fallbackUrl = repo.webUrl ? `${repo.webUrl}/-/${mergeRequest ? 'merge_requests' : 'issues'}/${iid}` : null;
  return {
    threadKey: gitlabThreadKey(repo.repositoryFullName, iid, mergeRequest),
    number: iid,
    isPullRequest: mergeRequest,
    title: str(item.title),
    body: str(item.description),
    url: str(item.url) ?? fallbackUrl,
  };
}

/**
 * The author: their numeric id (what an identity is linked by) and username. The payload's
 * `user.email` is never read: whoever holds a hook's token can write any address there, and a
 * link made from it would hand them a member's workspace, credentials and plugins.
 */
function personOf(root: Fields): ThreadPerson {
  const user = asRecord(root.user);
  const login = str(user?.username);
  if (!user || !login) throw missingField('user.username');
  const id = accountId(user.id);
  if (id === null) throw missingField('user.id');
  return { id, login, name: str(user.name), email: null };
}

function senderOf(user: Fields | null): CiFailure['sender'] {
  const id = accountId(user?.id);
  const login = str(user?.username);
  return id !== null && login ? { id, login } : null;
}

function post(repo: ThreadRepository, trigger: ThreadPost['trigger'], item: ThreadItem, text: string, root: Fields, cursor: string, botName: string, commentUrl: string | null): ThreadPost {
  const author = personOf(root);
  const who = loginKey(author.login);
  const fromBot = who === loginKey(botName) || /_bot(_[0-9a-f]+)?$/.test(who) || asRecord(root.user)?.bot === true || hasMarker(text);
  // GitLab's deliveries say nothing of the author's role on the project: `trusted` stays unknown.
  return { ...repo, kind: 'post', trigger, item, text, author, trusted: null, fromBot, cursor, commentUrl };
}

const ISSUE_HOOKS = new Set(['issue hook', 'confidential issue hook']);
const NOTE_HOOKS = new Set(['note hook', 'confidential note hook']);

/**
 * Maps a delivery (X-Gitlab-Event + body) to a thread event, or null when it concerns no
 * thread: `Issue Hook` open/close, `Note Hook` on an issue or merge request, `Merge Request
 * Hook` open/close/merge, `Pipeline Hook` failed for a merge request. Throws
 * `PayloadError` when such a delivery lacks a field the mapping needs.
 */
export function parseGitlabThreadEvent(eventName: string, body: unknown, botName: string): CodeHostingThreadEvent | null {
  const event = typeof eventName === 'string' ? eventName.trim().toLowerCase() : '';
  const root = asRecord(body);
  if (!root) return null;
  const attrs = asRecord(root.object_attributes);

  if (ISSUE_HOOKS.has(event) || event === 'merge request hook') {
    const mergeRequest = event === 'merge request hook';
    if (!attrs) throw missingField('object_attributes');
    const action = str(attrs.action);
    const closing = action === 'close' || (mergeRequest && action === 'merge');
    if (action !== 'open' && !closing) return null;
    const full = repositoryOf(root);
    const { webUrl: _webUrl, ...repo } = full;
    const item = itemOf(full, attrs, 'object_attributes', mergeRequest);
    if (closing) return { ...repo, kind: 'close', threadKey: item.threadKey };
    return post(repo, 'opened', item, str(attrs.description) ?? '', root, `${mergeRequest ? 'merge_request' : 'issue'}:${item.number}`, botName, null);
  }

  if (NOTE_HOOKS.has(event)) {
    if (!attrs) throw missingField('object_attributes');
    // Edits of a note and the notes GitLab writes itself ("changed the description") are not messages.
    if (attrs.system === true || (attrs.action !== undefined && attrs.action !== 'create')) return null;
    const type = str(attrs.noteable_type);
    if (type !== 'Issue' && type !== 'MergeRequest') return null;
    const mergeRequest = type === 'MergeRequest';
    const full = repositoryOf(root);
    const { webUrl: _webUrl, ...repo } = full;
    const item = itemOf(full, mergeRequest ? root.merge_request : root.issue, mergeRequest ? 'merge_request' : 'issue', mergeRequest);
    const id = int(attrs.id);
    if (id === null) throw missingField('object_attributes.id');
    return post(repo, 'comment', item, str(attrs.note) ?? '', root, `note:${id}`, botName, str(attrs.url));
  }

  if (event === 'pipeline hook') {
    if (!attrs) throw missingField('object_attributes');
    if (attrs.status !== 'failed') return null;
    const iid = int(asRecord(root.merge_request)?.iid);
    if (iid === null) return null;
    const { webUrl, ...repo } = repositoryOf(root);
    const id = int(attrs.id);
    const builds = Array.isArray(root.builds) ? root.builds.map(asRecord).filter((b): b is Fields => b !== null) : [];
    const failedJobs = builds.filter((b) => b.status === 'failed' && b.allow_failure !== true);
    const failure: CiFailure = {
      ...repo,
      kind: 'ci_failed',
      pullRequests: [{ threadKey: gitlabThreadKey(repo.repositoryFullName, iid, true), number: iid }],
      name: `pipeline #${id ?? '?'}${failedJobs.length ? ` (failed jobs: ${failedJobs.map((b) => str(b.name) ?? '?').join(', ')})` : ''}`,
      conclusion: 'failed',
      summary: failedJobs.length
        ? failedJobs.map((b) => `- ${str(b.name) ?? '?'} (stage ${str(b.stage) ?? '?'}): ${str(b.failure_reason) ?? 'failed'}`).join('\n')
        : null,
      url: str(attrs.url) ?? (webUrl && id !== null ? `${webUrl}/-/pipelines/${id}` : null),
      headSha: str(attrs.sha),
      cursor: `pipeline:${id ?? 'unknown'}`,
      sender: senderOf(asRecord(root.user)),
    };
    return failure;
  }

  return null;
}
