/**
 * The fake GitHub's pull requests and App installations: `GET /repos/{owner}/{repo}/pulls/{n}`
 * (with the repository's installation token, or the static token) and
 * `GET /repos/{owner}/{repo}/installation` (with the App's JWT), in GitHub's shapes. A test
 * puts a pull request, which installs the App on its repository.
 */

export interface FakePullRequestInput {
  /** "owner/name". */
  repository: string;
  number: number;
  headSha: string;
  headRef?: string;
  title?: string;
  body?: string;
  author?: string;
  /** The App's installation on the repository (default 1). */
  installationId?: number;
}

export interface FakePulls {
  put(pr: FakePullRequestInput): void;
}

/** Who a request is, as the fake's router worked it out from its Authorization header. */
export interface FakeCaller {
  /** A sound App JWT. */
  app: boolean;
  /** The installation an installation token belongs to. */
  installationId: number | null;
  /** The static token (a PAT: sees every repository). */
  staticToken: boolean;
}

interface Reply {
  status: number;
  body: unknown;
}

const notFound = (doc: string): Reply => ({ status: 404, body: { message: 'Not Found', documentation_url: `https://docs.github.com/rest/${doc}`, status: '404' } });

export function createFakePulls(baseUrl: () => string) {
  const pulls = new Map<string, FakePullRequestInput>();
  const installations = new Map<string, number>();
  const key = (repository: string, number: number) => `${repository.toLowerCase()}#${number}`;

  function wire(pr: FakePullRequestInput) {
    const [owner] = pr.repository.split('/');
    const html = `https://github.com/${pr.repository}`;
    const repo = { full_name: pr.repository, name: pr.repository.split('/')[1], owner: { login: owner }, html_url: html, clone_url: `${html}.git`, ssh_url: `git@github.com:${pr.repository}.git` };
    return {
      url: `${baseUrl()}/repos/${pr.repository}/pulls/${pr.number}`,
      id: 1_000_000 + pr.number,
      html_url: `${html}/pull/${pr.number}`,
      number: pr.number,
      state: 'open',
      locked: false,
      title: pr.title ?? `Change ${pr.number}`,
      user: { login: pr.author ?? 'octocat', type: 'User' },
      body: pr.body ?? null,
      draft: false,
      merged: false,
      merged_at: null,
      head: { label: `${owner}:${pr.headRef ?? `feature-${pr.number}`}`, ref: pr.headRef ?? `feature-${pr.number}`, sha: pr.headSha, repo },
      base: { label: `${owner}:main`, ref: 'main', sha: '0'.repeat(40), repo },
    };
  }

  return {
    pulls: {
      put(pr: FakePullRequestInput) {
        pulls.set(key(pr.repository, pr.number), pr);
        installations.set(pr.repository.toLowerCase(), pr.installationId ?? 1);
      },
    } satisfies FakePulls,

    /** The answer for a pulls or installation path, or null when the path is neither. */
    route(method: string, path: string, caller: () => FakeCaller): Reply | null {
      const installation = /^\/repos\/([^/]+)\/([^/]+)\/installation$/.exec(path);
      const pull = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path);
      if (!installation && !pull) return null;
      if (method !== 'GET') return notFound('pulls');
      const who = caller();
      if (installation) {
        if (!who.app) return { status: 401, body: { message: 'A JSON web token could not be decoded', documentation_url: 'https://docs.github.com/rest' } };
        const repository = `${decodeURIComponent(installation[1]!)}/${decodeURIComponent(installation[2]!)}`;
        const id = installations.get(repository.toLowerCase());
        if (id === undefined) return notFound('apps/apps#get-a-repository-installation-for-the-authenticated-app');
        return { status: 200, body: { id, account: { login: repository.split('/')[0] }, repository_selection: 'selected', target_type: 'Organization', permissions: { checks: 'write', pull_requests: 'read' } } };
      }
      const repository = `${decodeURIComponent(pull![1]!)}/${decodeURIComponent(pull![2]!)}`;
      const pr = pulls.get(key(repository, Number(pull![3])));
      // GitHub answers 404 to a token that cannot see the repository, as to a missing pull request.
      const visible = who.staticToken || (who.installationId !== null && installations.get(repository.toLowerCase()) === who.installationId);
      if (!pr || !visible) return notFound('pulls/pulls#get-a-pull-request');
      return { status: 200, body: wire(pr) };
    },
  };
}
