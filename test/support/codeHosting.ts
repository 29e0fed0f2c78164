/**
 * Deliveries shaped like GitHub's and GitLab's webhooks, sent to the service's receivers
 * signed the way each platform signs them (the secrets the shared harness configures).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { fakeGitlab, GITHUB_WEBHOOK_SECRET } from './harness';
import { as, request, type Answer } from './http';

export interface PullRequestEvent {
  /** "owner/name"; the connected repository's url is https://github.com/{fullName}. */
  fullName: string;
  number: number;
  action?: 'opened' | 'synchronize' | 'closed' | 'labeled';
  merged?: boolean;
  headSha?: string;
  sender?: string;
  installationId?: number;
  title?: string;
}

export function githubPullRequest(e: PullRequestEvent): Record<string, unknown> {
  const url = `https://github.com/${e.fullName}`;
  return {
    action: e.action ?? 'synchronize',
    number: e.number,
    pull_request: {
      number: e.number,
      title: e.title ?? `Change ${e.number}`,
      html_url: `${url}/pull/${e.number}`,
      state: e.action === 'closed' ? 'closed' : 'open',
      draft: false,
      merged: e.merged ?? false,
      body: 'Please review.',
      user: { login: 'octocat' },
      head: { ref: `feature-${e.number}`, sha: e.headSha ?? randomUUID().replace(/-/g, '').padEnd(40, '0').slice(0, 40) },
      base: { ref: 'main', sha: '0'.repeat(40) },
    },
    repository: {
      full_name: e.fullName,
      html_url: url,
      clone_url: `${url}.git`,
      ssh_url: `git@github.com:${e.fullName}.git`,
    },
    sender: { login: e.sender ?? 'octocat' },
    ...(e.installationId ? { installation: { id: e.installationId } } : {}),
  };
}

/** An `issue_comment` delivery (action created) on pull request `number`, or on an issue with `onIssue`. */
export function githubComment(e: { fullName: string; number: number; body: string; commenter?: string; action?: string; onIssue?: boolean; installationId?: number }): Record<string, unknown> {
  const url = `https://github.com/${e.fullName}`;
  const commenter = e.commenter ?? 'octocat';
  const kind = e.onIssue ? 'issues' : 'pull';
  return {
    action: e.action ?? 'created',
    issue: {
      url: `https://api.github.com/repos/${e.fullName}/issues/${e.number}`,
      html_url: `${url}/${kind}/${e.number}`,
      number: e.number,
      title: `Change ${e.number}`,
      user: { login: 'author', type: 'User' },
      state: 'open',
      body: 'The change.',
      ...(e.onIssue
        ? {}
        : { draft: false, pull_request: { url: `https://api.github.com/repos/${e.fullName}/pulls/${e.number}`, html_url: `${url}/pull/${e.number}`, merged_at: null } }),
    },
    comment: {
      id: Math.floor(Math.random() * 1e9),
      html_url: `${url}/${kind}/${e.number}#issuecomment-1`,
      body: e.body,
      user: { login: commenter, type: commenter.endsWith('[bot]') ? 'Bot' : 'User' },
    },
    repository: { full_name: e.fullName, html_url: url, clone_url: `${url}.git`, ssh_url: `git@github.com:${e.fullName}.git` },
    sender: { login: commenter, type: commenter.endsWith('[bot]') ? 'Bot' : 'User' },
    ...(e.installationId ? { installation: { id: e.installationId } } : {}),
  };
}

export const signGithub = (raw: string, secret = GITHUB_WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

export async function sendGithub(
  event: string,
  body: unknown,
  options: { deliveryId?: string; signature?: string | null; secret?: string } = {},
): Promise<Answer> {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-github-event': event,
    'x-github-delivery': options.deliveryId ?? randomUUID(),
  };
  const signature = options.signature === undefined ? signGithub(raw, options.secret) : options.signature;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  return request('POST', '/v1/webhooks/github', { rawBody: raw, headers });
}

export function gitlabMergeRequest(e: { fullName: string; iid: number; action?: string; sha?: string; user?: string }): Record<string, unknown> {
  const url = `https://gitlab.com/${e.fullName}`;
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: { id: 7, username: e.user ?? 'dev' },
    project: { id: 42, path_with_namespace: e.fullName, web_url: url, git_http_url: `${url}.git`, git_ssh_url: `git@gitlab.com:${e.fullName}.git` },
    object_attributes: {
      iid: e.iid,
      title: `MR ${e.iid}`,
      url: `${url}/-/merge_requests/${e.iid}`,
      state: 'opened',
      action: e.action ?? 'open',
      source_branch: 'feature',
      target_branch: 'main',
      last_commit: { id: e.sha ?? 'a'.repeat(40) },
      description: 'MR',
    },
  };
}

/** A "Note Hook" delivery: a new note on merge request `iid`. */
export function gitlabNote(e: { fullName: string; iid: number; note: string; user?: string; sha?: string }): Record<string, unknown> {
  const url = `https://gitlab.com/${e.fullName}`;
  return {
    object_kind: 'note',
    event_type: 'note',
    user: { id: 7, username: e.user ?? 'dev' },
    project_id: 42,
    project: { id: 42, path_with_namespace: e.fullName, web_url: url, git_http_url: `${url}.git`, git_ssh_url: `git@gitlab.com:${e.fullName}.git` },
    object_attributes: { id: 1244, note: e.note, noteable_type: 'MergeRequest', system: false, action: 'create', url: `${url}/-/merge_requests/${e.iid}#note_1244` },
    merge_request: {
      iid: e.iid,
      title: `MR ${e.iid}`,
      url: `${url}/-/merge_requests/${e.iid}`,
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'main',
      last_commit: { id: e.sha ?? 'b'.repeat(40) },
      description: 'MR',
    },
  };
}

/** `token`: an organization's GitLab connection token (`connectGitlab`), the deployment's, or null for none. */
export async function sendGitlab(body: unknown, options: { token: string | null; uuid?: string; event?: string }): Promise<Answer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-gitlab-event': options.event ?? 'Merge Request Hook',
    'x-gitlab-event-uuid': options.uuid ?? randomUUID(),
  };
  if (options.token !== null) headers['x-gitlab-token'] = options.token;
  return request('POST', '/v1/webhooks/gitlab', { rawBody: JSON.stringify(body), headers });
}

/**
 * Connects GitLab for an organization (`adminKey`: its org key or an admin's): its hooks send
 * the returned token, and its answers go to the shared fake GitLab with `apiToken` (by default
 * the fake's own; another one must be accepted by the fake first).
 */
export async function connectGitlab(adminKey: string, options: { token?: string; apiToken?: string } = {}) {
  const token = options.token ?? `glwh-${randomBytes(16).toString('hex')}`;
  const created = await as(adminKey).post('/v1/connections', {
    provider: 'gitlab',
    external_id: `gitlab.com/group-${randomUUID().slice(0, 8)}`,
    name: 'GitLab',
    secrets: { webhook_token: token, api_token: options.apiToken ?? fakeGitlab().token },
    settings: { instance_url: fakeGitlab().apiUrl.replace(/\/api\/v4$/, '') },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return { token, connection: created.body.connection as { id: string; settings: Record<string, string>; secrets_set: string[] } };
}
