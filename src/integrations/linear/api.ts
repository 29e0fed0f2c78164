/**
 * The slice of Linear's GraphQL API Hangar calls (`POST {HANGAR_LINEAR_API_URL}`): post a
 * comment on an issue, read a user's email, read an issue, and the token's own user. Arguments
 * travel as variables; an answer with `errors` (whatever its status) is a `LinearApiError`.
 */

export class LinearApiError extends Error {
  constructor(
    message: string,
    /** HTTP status (0: no answer). */
    readonly status: number,
    /** Linear's `extensions.code` of the first error, e.g. AUTHENTICATION_ERROR, RATELIMITED. */
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'LinearApiError';
  }
}

/**
 * Personal API keys go in `Authorization` as they are; OAuth access tokens as `Bearer`. Linear's
 * API keys start with `lin_api_`.
 */
export const linearAuthorization = (token: string) => (token.startsWith('lin_api_') ? token : `Bearer ${token}`);

export interface LinearComment {
  id: string;
  url: string | null;
}

export interface LinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  url: string;
  state: { type: string; name: string } | null;
}

export interface LinearClientOptions {
  apiUrl: string;
  token: string;
  timeoutMs?: number;
}

export function createLinearClient(options: LinearClientOptions) {
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function graphql<T>(operation: string, query: string, variables: Record<string, unknown>): Promise<T> {
    let res: Response;
    try {
      res = await fetch(options.apiUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: linearAuthorization(options.token), 'user-agent': 'hangar' },
        body: JSON.stringify({ operationName: operation, query, variables }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new LinearApiError(`Linear ${operation}: ${(err as Error).message}`, 0, null);
    }
    const raw = await res.text();
    let body: { data?: T | null; errors?: Array<{ message?: string; extensions?: { code?: string } }> } = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      throw new LinearApiError(`Linear ${operation}: HTTP ${res.status}, not JSON`, res.status, null);
    }
    const first = body.errors?.[0];
    if (first) throw new LinearApiError(`Linear ${operation}: ${first.message ?? 'error'}`, res.status, first.extensions?.code ?? null);
    if (!res.ok || !body.data) throw new LinearApiError(`Linear ${operation}: HTTP ${res.status}`, res.status, null);
    return body.data;
  }

  return {
    async createComment(issueId: string, body: string): Promise<LinearComment> {
      const data = await graphql<{ commentCreate: { success: boolean; comment: LinearComment | null } }>(
        'HangarCommentCreate',
        'mutation HangarCommentCreate($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id url } } }',
        { input: { issueId, body } },
      );
      if (!data.commentCreate.success || !data.commentCreate.comment) throw new LinearApiError('Linear commentCreate: not successful', 200, null);
      return data.commentCreate.comment;
    },

    async userEmail(userId: string): Promise<string | null> {
      const data = await graphql<{ user: { id: string; email: string | null } | null }>(
        'HangarUserEmail',
        'query HangarUserEmail($id: String!) { user(id: $id) { id email } }',
        { id: userId },
      );
      return data.user?.email ?? null;
    },

    async issue(issueId: string): Promise<LinearIssue | null> {
      const data = await graphql<{ issue: LinearIssue | null }>(
        'HangarIssue',
        'query HangarIssue($id: String!) { issue(id: $id) { id identifier title description url state { type name } } }',
        { id: issueId },
      );
      return data.issue;
    },

    async viewer(): Promise<{ id: string; name: string; email: string | null }> {
      const data = await graphql<{ viewer: { id: string; name: string; email: string | null } }>('HangarViewer', 'query HangarViewer { viewer { id name email } }', {});
      return data.viewer;
    },
  };
}

export type LinearClient = ReturnType<typeof createLinearClient>;
