/**
 * The fake GitHub's contents API (`GET /repos/{owner}/{repo}/contents/{path}`): a test puts
 * files under `owner/repo/path`; a directory answers its entries, a file its base64 content,
 * anything else 404, in GitHub's shapes. Public: no credentials needed, but a bad one is 401.
 */
import { createHash } from 'node:crypto';

export interface FakeContents {
  /** Adds files (paths relative to `at`, which is `owner/repo[/path]`) to the repository. */
  put(at: string, files: Record<string, string | Buffer>): void;
  /** Removes every file of every repository. */
  clear(): void;
}

interface Reply {
  status: number;
  body: unknown;
}

const DOCS = 'https://docs.github.com/rest/repos/contents';

export function createFakeContents(baseUrl: () => string) {
  /** "owner/repo" → path inside the repository → bytes. */
  const repos = new Map<string, Map<string, Buffer>>();
  const sha = (data: Buffer | string) => createHash('sha1').update(data).digest('hex');

  const links = (repo: string, path: string, type: 'file' | 'dir') => {
    const url = `${baseUrl()}/repos/${repo}/contents/${path}`;
    return {
      url,
      html_url: `https://github.com/${repo}/${type === 'file' ? 'blob' : 'tree'}/main/${path}`,
      git_url: `${baseUrl()}/repos/${repo}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha(path)}`,
      download_url: type === 'file' ? `https://raw.githubusercontent.com/${repo}/main/${path}` : null,
    };
  };

  function answer(owner: string, name: string, path: string): Reply {
    const repo = `${owner}/${name}`;
    const files = repos.get(repo);
    if (!files) return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
    const file = files.get(path);
    if (file) {
      // GitHub wraps base64 content at 60 characters.
      const content = (file.toString('base64').match(/.{1,60}/g) ?? []).join('\n') + '\n';
      return { status: 200, body: { type: 'file', encoding: 'base64', size: file.length, name: path.split('/').pop(), path, content, sha: sha(file), ...links(repo, path, 'file') } };
    }
    const prefix = path ? `${path}/` : '';
    const entries = new Map<string, { type: 'file' | 'dir'; size: number }>();
    for (const [filePath, bytes] of files) {
      if (!filePath.startsWith(prefix)) continue;
      const [first, ...rest] = filePath.slice(prefix.length).split('/');
      entries.set(first!, rest.length > 0 ? { type: 'dir', size: 0 } : { type: 'file', size: bytes.length });
    }
    if (entries.size === 0) return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
    // Git's tree order: by bytes, so `SKILL.md` comes before `logo.png`.
    const listing = [...entries]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([entryName, e]) => {
        const entryPath = prefix + entryName;
        return { type: e.type, name: entryName, path: entryPath, size: e.size, sha: sha(entryPath), ...links(repo, entryPath, e.type) };
      });
    return { status: 200, body: listing };
  }

  const contents: FakeContents = {
    put(at, newFiles) {
      const [owner, name, ...dir] = at.split('/').filter(Boolean);
      if (!owner || !name) throw new Error(`put needs owner/repo[/path], got ${at}`);
      const files = repos.get(`${owner}/${name}`) ?? new Map<string, Buffer>();
      for (const [path, content] of Object.entries(newFiles)) {
        files.set([...dir, ...path.split('/').filter(Boolean)].join('/'), Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'));
      }
      repos.set(`${owner}/${name}`, files);
    },
    clear() {
      repos.clear();
    },
  };

  /** The answer to a request path, or null when it is not a contents path. */
  function route(method: string, pathname: string, authorized: boolean | null): Reply | null {
    // The repository itself (`GET /repos/{owner}/{repo}`): its name and default branch.
    const repository = /^\/repos\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (repository && method === 'GET') {
      if (authorized === false) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
      const fullName = `${decodeURIComponent(repository[1]!)}/${decodeURIComponent(repository[2]!)}`;
      if (!repos.has(fullName)) return { status: 404, body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository', status: '404' } };
      return { status: 200, body: { full_name: fullName, name: fullName.split('/')[1], private: false, default_branch: 'main', html_url: `https://github.com/${fullName}` } };
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/contents(?:\/(.*))?$/.exec(pathname);
    if (!match) return null;
    if (authorized === false) return { status: 401, body: { message: 'Bad credentials', documentation_url: DOCS } };
    if (method !== 'GET') return { status: 404, body: { message: 'Not Found', documentation_url: DOCS } };
    const path = (match[3] ?? '').split('/').filter(Boolean).map(decodeURIComponent).join('/');
    return answer(decodeURIComponent(match[1]!), decodeURIComponent(match[2]!), path);
  }

  return { contents, route };
}
