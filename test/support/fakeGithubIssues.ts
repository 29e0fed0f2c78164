/**
 * The fake GitHub's issue comments and reactions: `POST|GET /repos/{o}/{r}/issues/{n}/comments`,
 * `POST /repos/{o}/{r}/issues/{n}/reactions`, `POST /repos/{o}/{r}/issues/comments/{id}/reactions`
 * and `POST /repos/{o}/{r}/pulls/comments/{id}/reactions`, in GitHub's shapes. Every call needs a
 * token the fake issued (or its static token). Issues need not exist first: any number is an issue.
 */

export interface FakeIssueComment {
  id: number;
  repository: string;
  issue: number;
  body: string;
  user: string;
  created_at: string;
}

export interface FakeReaction {
  id: number;
  repository: string;
  /** `issue:12`, `issue_comment:99` or `pull_request_review_comment:7`. */
  subject: string;
  content: string;
}

export interface FakeIssues {
  comments: FakeIssueComment[];
  reactions: FakeReaction[];
}

interface Reply {
  status: number;
  body: unknown;
}

const DOCS = 'https://docs.github.com/rest/issues';
const REACTIONS = new Set(['+1', '-1', 'laugh', 'confused', 'heart', 'hooray', 'rocket', 'eyes']);
/** The login GitHub shows for comments made with an installation token. */
const BOT_LOGIN = 'hangar[bot]';

export function createFakeIssues(baseUrl: () => string) {
  const state: FakeIssues = { comments: [], reactions: [] };
  let nextId = 2_000_000_001;

  const user = { login: BOT_LOGIN, id: 41898282, node_id: 'BOT_kgDOExample', type: 'Bot', site_admin: false };
  const wireComment = (c: FakeIssueComment) => ({
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${baseUrl()}/repos/${c.repository}/issues/comments/${c.id}`,
    html_url: `https://github.com/${c.repository}/issues/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${baseUrl()}/repos/${c.repository}/issues/${c.issue}`,
    body: c.body,
    user,
    author_association: 'NONE',
    created_at: c.created_at,
    updated_at: c.created_at,
  });

  function react(repository: string, subject: string, body: unknown): Reply {
    const content = (body as { content?: unknown } | null)?.content;
    if (typeof content !== 'string' || !REACTIONS.has(content)) {
      return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'Reaction', field: 'content', code: 'invalid' }], documentation_url: DOCS } };
    }
    // A reaction the same user already made answers 200 with it, a new one 201.
    const existing = state.reactions.find((r) => r.repository === repository && r.subject === subject && r.content === content);
    const reaction = existing ?? { id: nextId++, repository, subject, content };
    if (!existing) state.reactions.push(reaction);
    return { status: existing ? 200 : 201, body: { id: reaction.id, node_id: `REA_${reaction.id}`, user, content, created_at: new Date().toISOString() } };
  }

  /** Answers the issues routes, or null for any other path. `authorized` is whether the token is one the fake knows. */
  function route(method: string, pathname: string, body: unknown, authorized: boolean): Reply | null {
    const m = /^\/repos\/([^/]+)\/([^/]+)\/(?:issues\/(\d+)\/(comments|reactions)|issues\/comments\/(\d+)\/reactions|pulls\/comments\/(\d+)\/reactions)$/.exec(pathname);
    if (!m) return null;
    if (!authorized) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
    const repository = `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
    if (m[5]) return method === 'POST' ? react(repository, `issue_comment:${m[5]}`, body) : { status: 404, body: { message: 'Not Found' } };
    if (m[6]) return method === 'POST' ? react(repository, `pull_request_review_comment:${m[6]}`, body) : { status: 404, body: { message: 'Not Found' } };
    const issue = Number(m[3]);
    if (m[4] === 'reactions') return method === 'POST' ? react(repository, `issue:${issue}`, body) : { status: 404, body: { message: 'Not Found' } };
    if (method === 'GET') return { status: 200, body: state.comments.filter((c) => c.repository === repository && c.issue === issue).map(wireComment) };
    if (method !== 'POST') return { status: 404, body: { message: 'Not Found' } };
    const text = (body as { body?: unknown } | null)?.body;
    if (typeof text !== 'string' || text.length === 0) {
      return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', field: 'body', code: 'missing_field' }], documentation_url: DOCS } };
    }
    if (text.length > 65_536) {
      return { status: 422, body: { message: 'Validation Failed', errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }], documentation_url: DOCS } };
    }
    const comment: FakeIssueComment = { id: nextId++, repository, issue, body: text, user: BOT_LOGIN, created_at: new Date().toISOString() };
    state.comments.push(comment);
    return { status: 201, body: wireComment(comment) };
  }

  return { state, route };
}
