/**
 * The fake GitHub's App installations of repositories (`GET /repos/{owner}/{repo}/installation`,
 * with the App's JWT) and issue comments (`POST /repos/{owner}/{repo}/issues/{number}/comments`,
 * with an installation token of the repository's installation), in GitHub's shapes. A test
 * installs the App on a repository by setting `installations`; comments are kept in order.
 */

export interface FakeIssueComment {
  id: number;
  repository: string;
  number: number;
  body: string;
  /** The installation whose token posted it. */
  installationId: number;
}

export interface FakeIssues {
  /** `owner/repo` (lower case) → the App's installation id on it. */
  installations: Map<string, number>;
  comments: FakeIssueComment[];
}

interface Reply {
  status: number;
  body: unknown;
}

/** What the fake knows of a request's credentials. */
export interface IssuesAuth {
  /** The App's JWT, checked. */
  appJwt: boolean;
  /** The installation an installation token belongs to, or null. */
  tokenInstallation: number | null;
}

const DOCS = 'https://docs.github.com/rest';
const notFound = (): Reply => ({ status: 404, body: { message: 'Not Found', documentation_url: DOCS } });

export function createFakeIssues(baseUrl: () => string, appId: string) {
  const state: FakeIssues = { installations: new Map(), comments: [] };
  let nextCommentId = 2_000_000_001;

  function route(method: string, path: string, body: unknown, auth: () => IssuesAuth): Reply | null {
    const installation = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path);
    if (installation) {
      if (method !== 'GET') return notFound();
      if (!auth().appJwt) return { status: 401, body: { message: 'A JSON web token could not be decoded', documentation_url: DOCS } };
      const repository = `${decodeURIComponent(installation[1]!)}/${decodeURIComponent(installation[2]!)}`;
      const id = state.installations.get(repository.toLowerCase());
      if (id === undefined) return notFound();
      const owner = repository.split('/')[0]!;
      return {
        status: 200,
        body: {
          id,
          app_id: Number(appId),
          account: { login: owner, id: 1, type: 'Organization' },
          repository_selection: 'selected',
          access_tokens_url: `${baseUrl()}/app/installations/${id}/access_tokens`,
          repositories_url: `${baseUrl()}/installation/repositories`,
          html_url: `https://github.com/organizations/${owner}/settings/installations/${id}`,
          target_type: 'Organization',
          permissions: { issues: 'write', pull_requests: 'write', checks: 'write' },
          events: [],
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      };
    }

    const comments = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path);
    if (!comments) return null;
    if (method !== 'POST') return notFound();
    const { tokenInstallation } = auth();
    if (tokenInstallation === null) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
    const repository = `${decodeURIComponent(comments[1]!)}/${decodeURIComponent(comments[2]!)}`;
    // A token reaches only the repositories of its own installation.
    if (state.installations.get(repository.toLowerCase()) !== tokenInstallation) return notFound();
    const text = (body as { body?: unknown } | null)?.body;
    if (typeof text !== 'string' || text === '') {
      return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }], documentation_url: DOCS } };
    }
    const number = Number(comments[3]);
    const comment: FakeIssueComment = { id: nextCommentId++, repository, number, body: text, installationId: tokenInstallation };
    state.comments.push(comment);
    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      status: 201,
      body: {
        id: comment.id,
        node_id: `IC_${comment.id}`,
        url: `${baseUrl()}/repos/${repository}/issues/comments/${comment.id}`,
        html_url: `https://github.com/${repository}/issues/${number}#issuecomment-${comment.id}`,
        issue_url: `${baseUrl()}/repos/${repository}/issues/${number}`,
        body: text,
        user: { login: 'hangar[bot]', id: 9, type: 'Bot' },
        author_association: 'NONE',
        created_at: now,
        updated_at: now,
      },
    };
  }

  return { state, route };
}
