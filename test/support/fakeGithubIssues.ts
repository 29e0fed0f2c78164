/**
 * The fake GitHub's issue comments (`POST /repos/{owner}/{repo}/issues/{number}/comments`, with
 * an installation token of the repository's installation, as `./fakeGithubPulls.ts` installs the
 * App), in GitHub's shapes; comments are kept in order for tests.
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
  comments: FakeIssueComment[];
}

interface Reply {
  status: number;
  body: unknown;
}

const DOCS = 'https://docs.github.com/rest';
const notFound = (): Reply => ({ status: 404, body: { message: 'Not Found', documentation_url: DOCS } });

export function createFakeIssues(baseUrl: () => string, installationOf: (repository: string) => number | null) {
  const state: FakeIssues = { comments: [] };
  let nextCommentId = 2_000_000_001;

  function route(method: string, path: string, body: unknown, tokenInstallation: () => number | null): Reply | null {
    const comments = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(path);
    if (!comments) return null;
    if (method !== 'POST') return notFound();
    const installation = tokenInstallation();
    if (installation === null) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
    const repository = `${decodeURIComponent(comments[1]!)}/${decodeURIComponent(comments[2]!)}`;
    // A token reaches only the repositories of its own installation.
    if (installationOf(repository) !== installation) return notFound();
    const text = (body as { body?: unknown } | null)?.body;
    if (typeof text !== 'string' || text === '') {
      return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }], documentation_url: DOCS } };
    }
    const number = Number(comments[3]);
    const comment: FakeIssueComment = { id: nextCommentId++, repository, number, body: text, installationId: installation };
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
