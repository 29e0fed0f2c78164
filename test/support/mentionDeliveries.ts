/**
 * GitHub and GitLab deliveries about issues, comments and CI, shaped like the platforms'
 * webhooks (the fields Hangar reads, plus enough of the rest to look real), and a GitLab
 * sender that names its event. GitHub deliveries go out through `sendGithub` (./codeHosting).
 */
import { randomUUID } from 'node:crypto';
import { request, type Answer } from './http';

let nextId = 1_500_000_000;
const id = () => nextId++;

function githubRepository(fullName: string) {
  const url = `https://github.com/${fullName}`;
  const [owner, name] = fullName.split('/');
  return {
    id: id(),
    node_id: 'R_kgDOExample',
    name,
    full_name: fullName,
    private: false,
    owner: { login: owner, id: id(), type: 'Organization' },
    html_url: url,
    url: `https://api.github.com/repos/${fullName}`,
    clone_url: `${url}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    git_url: `git://github.com/${fullName}.git`,
    default_branch: 'main',
  };
}

/** `userId`: the account's immutable id (a fresh one unless given: another account, even under the same login). */
const githubUser = (login: string, type: 'User' | 'Bot' = 'User', userId?: number) => ({ login, id: userId ?? id(), node_id: 'U_kgDOExample', type, site_admin: false, html_url: `https://github.com/${login}` });

export interface GithubIssueOptions {
  fullName: string;
  number: number;
  title?: string;
  body?: string | null;
  login?: string;
  /** The author's account id. */
  userId?: number;
  association?: string;
  isPullRequest?: boolean;
  installationId?: number;
}

function githubIssueObject(o: GithubIssueOptions) {
  const url = `https://github.com/${o.fullName}/${o.isPullRequest ? 'pull' : 'issues'}/${o.number}`;
  return {
    id: id(),
    node_id: 'I_kwDOExample',
    number: o.number,
    title: o.title ?? `Issue ${o.number}`,
    body: o.body === undefined ? 'Something is broken.' : o.body,
    state: 'open',
    user: githubUser(o.login ?? 'octocat', 'User', o.userId),
    author_association: o.association ?? 'MEMBER',
    html_url: url,
    url: `https://api.github.com/repos/${o.fullName}/issues/${o.number}`,
    comments: 0,
    labels: [],
    ...(o.isPullRequest ? { pull_request: { url: `https://api.github.com/repos/${o.fullName}/pulls/${o.number}`, html_url: url } } : {}),
  };
}

const installation = (installationId?: number) => (installationId ? { installation: { id: installationId, node_id: 'MDIz' } } : {});

/** `issues` (X-GitHub-Event: issues) opened or closed. */
export function githubIssue(o: GithubIssueOptions & { action?: 'opened' | 'closed' | 'edited' }): Record<string, unknown> {
  const issue = githubIssueObject(o);
  if (o.action === 'closed') Object.assign(issue, { state: 'closed', closed_at: new Date().toISOString() });
  return { action: o.action ?? 'opened', issue, repository: githubRepository(o.fullName), sender: issue.user, ...installation(o.installationId) };
}

/** `issue_comment` created on an issue (or a pull request with `isPullRequest`). */
export function githubIssueComment(
  o: GithubIssueOptions & { comment: string; commenter?: string; commenterId?: number; commenterAssociation?: string; commenterType?: 'User' | 'Bot'; commentId?: number },
): Record<string, unknown> {
  const commentId = o.commentId ?? id();
  const user = githubUser(o.commenter ?? 'octocat', o.commenterType, o.commenterId);
  return {
    action: 'created',
    issue: githubIssueObject(o),
    comment: {
      id: commentId,
      node_id: 'IC_kwDOExample',
      body: o.comment,
      user,
      author_association: o.commenterAssociation ?? 'MEMBER',
      html_url: `https://github.com/${o.fullName}/issues/${o.number}#issuecomment-${commentId}`,
      url: `https://api.github.com/repos/${o.fullName}/issues/comments/${commentId}`,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    },
    repository: githubRepository(o.fullName),
    sender: user,
    ...installation(o.installationId),
  };
}

/** `check_run` completed on a pull request's head commit. */
export function githubCheckRun(o: {
  fullName: string;
  pullRequest: number;
  conclusion?: string;
  name?: string;
  summary?: string;
  headSha?: string;
  installationId?: number;
  runId?: number;
}): Record<string, unknown> {
  const runId = o.runId ?? id();
  const headSha = o.headSha ?? 'c'.repeat(40);
  const pr = {
    url: `https://api.github.com/repos/${o.fullName}/pulls/${o.pullRequest}`,
    id: id(),
    number: o.pullRequest,
    head: { ref: `hangar/fix-${o.pullRequest}`, sha: headSha, repo: { id: 1, url: `https://api.github.com/repos/${o.fullName}`, name: o.fullName.split('/')[1] } },
    base: { ref: 'main', sha: '0'.repeat(40), repo: { id: 1, url: `https://api.github.com/repos/${o.fullName}`, name: o.fullName.split('/')[1] } },
  };
  return {
    action: 'completed',
    check_run: {
      id: runId,
      name: o.name ?? 'test',
      node_id: 'CR_kwDOExample',
      head_sha: headSha,
      external_id: '',
      url: `https://api.github.com/repos/${o.fullName}/check-runs/${runId}`,
      html_url: `https://github.com/${o.fullName}/runs/${runId}`,
      details_url: `https://github.com/${o.fullName}/actions/runs/${runId}`,
      status: 'completed',
      conclusion: o.conclusion ?? 'failure',
      started_at: new Date(Date.now() - 60_000).toISOString(),
      completed_at: new Date().toISOString(),
      output: { title: 'Tests failed', summary: o.summary ?? '2 tests failed', text: null, annotations_count: 0 },
      check_suite: { id: id(), head_branch: pr.head.ref, head_sha: headSha, status: 'completed', conclusion: o.conclusion ?? 'failure', pull_requests: [pr] },
      app: { id: 15368, slug: 'github-actions', name: 'GitHub Actions' },
      pull_requests: [pr],
    },
    repository: githubRepository(o.fullName),
    sender: githubUser('github-actions[bot]', 'Bot'),
    ...installation(o.installationId),
  };
}

// --- GitLab ---------------------------------------------------------------------------------

export const GITLAB_PROJECT_ID = 4242;

function gitlabProject(fullName: string, projectId = GITLAB_PROJECT_ID) {
  const url = `https://gitlab.com/${fullName}`;
  return {
    id: projectId,
    name: fullName.split('/').pop(),
    web_url: url,
    git_ssh_url: `git@gitlab.com:${fullName}.git`,
    git_http_url: `${url}.git`,
    namespace: fullName.split('/')[0],
    visibility_level: 0,
    path_with_namespace: fullName,
    default_branch: 'main',
  };
}

/** GitLab writes `[REDACTED]` unless the user made an email public; a forger writes whatever they like. */
const gitlabUser = (username: string, userId?: number, email = '[REDACTED]') => ({ id: userId ?? id(), name: username, username, avatar_url: null, email });

/** `Note Hook` on an issue or a merge request. */
export function gitlabNote(o: {
  fullName: string;
  iid: number;
  note: string;
  username?: string;
  userId?: number;
  email?: string;
  mergeRequest?: boolean;
  noteId?: number;
  projectId?: number;
  title?: string;
  description?: string;
}) {
  const noteId = o.noteId ?? id();
  const project = gitlabProject(o.fullName, o.projectId);
  const kind = o.mergeRequest ? 'merge_requests' : 'issues';
  const item = { id: id(), iid: o.iid, title: o.title ?? `Issue ${o.iid}`, description: o.description ?? 'It breaks.', state: 'opened', url: `${project.web_url}/-/${kind}/${o.iid}` };
  return {
    object_kind: 'note',
    event_type: 'note',
    user: gitlabUser(o.username ?? 'dev', o.userId, o.email),
    project_id: project.id,
    project,
    object_attributes: {
      id: noteId,
      note: o.note,
      noteable_type: o.mergeRequest ? 'MergeRequest' : 'Issue',
      author_id: 1,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      project_id: project.id,
      system: false,
      noteable_id: item.id,
      url: `${item.url}#note_${noteId}`,
      action: 'create',
    },
    ...(o.mergeRequest ? { merge_request: { ...item, source_branch: 'feature', target_branch: 'main' } } : { issue: item }),
  };
}

/** `Issue Hook` opened or closed. */
export function gitlabIssue(o: { fullName: string; iid: number; action?: 'open' | 'close' | 'update'; description?: string; username?: string; title?: string; projectId?: number }) {
  const project = gitlabProject(o.fullName, o.projectId);
  return {
    object_kind: 'issue',
    event_type: 'issue',
    user: gitlabUser(o.username ?? 'dev'),
    project,
    object_attributes: {
      id: id(),
      iid: o.iid,
      title: o.title ?? `Issue ${o.iid}`,
      description: o.description ?? 'It breaks.',
      state: o.action === 'close' ? 'closed' : 'opened',
      action: o.action ?? 'open',
      url: `${project.web_url}/-/issues/${o.iid}`,
    },
  };
}

/** `Pipeline Hook` of a merge request's pipeline. */
export function gitlabPipeline(o: { fullName: string; mergeRequest: number; status?: string; pipelineId?: number; projectId?: number; jobs?: Array<{ name: string; status: string; stage?: string }> }) {
  const project = gitlabProject(o.fullName, o.projectId);
  const pipelineId = o.pipelineId ?? id();
  return {
    object_kind: 'pipeline',
    object_attributes: { id: pipelineId, iid: 12, ref: 'feature', tag: false, sha: 'd'.repeat(40), source: 'merge_request_event', status: o.status ?? 'failed', url: `${project.web_url}/-/pipelines/${pipelineId}` },
    merge_request: { id: id(), iid: o.mergeRequest, title: 'Fix', source_branch: 'feature', target_branch: 'main', state: 'opened', url: `${project.web_url}/-/merge_requests/${o.mergeRequest}` },
    user: gitlabUser('dev'),
    project,
    builds: (o.jobs ?? [{ name: 'rspec', status: 'failed', stage: 'test' }]).map((j) => ({
      id: id(),
      stage: j.stage ?? 'test',
      name: j.name,
      status: j.status,
      failure_reason: j.status === 'failed' ? 'script_failure' : null,
      allow_failure: false,
    })),
  };
}

/** Sends a GitLab delivery with its event header and `token` (an organization's GitLab connection token, or the deployment's). */
export async function sendGitlabEvent(event: string, body: unknown, options: { uuid?: string; token: string }): Promise<Answer> {
  return request('POST', '/v1/webhooks/gitlab', {
    rawBody: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      'x-gitlab-event': event,
      'x-gitlab-event-uuid': options.uuid ?? randomUUID(),
      'x-gitlab-token': options.token,
    },
  });
}
