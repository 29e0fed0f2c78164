/**
 * A repository directory's text files, recursively, within limits (a skill: `SKILL.md` and
 * what sits beside it). The listings are read first and checked against the limits before
 * any file is downloaded, so an oversized directory costs a few calls, not hundreds. Files
 * that are not UTF-8 text are left out; symlinks and submodules are not followed.
 */
import type { GithubContentsClient, RepositoryPath } from './contents';

export interface TreeLimits {
  maxFiles: number;
  /** Bytes of all files together. */
  maxBytes: number;
  /** Nested folders followed below the root. */
  maxDepth: number;
  /** A file that must sit at the root, or the directory is refused. */
  requiredFile?: string;
}

export interface TreeFile {
  /** Inside the directory, `/`-separated. */
  path: string;
  content: string;
}

/** Why a directory was not read; the message names the directory, never a credential. */
export class ContentsTreeError extends Error {
  override name = 'ContentsTreeError';
}

/** A name that is safe as a file or folder name in a home (no separators, no `..`). */
const safeName = (name: string) => /^(?!\.{1,2}$)[^/\\\0]+$/.test(name) && Buffer.byteLength(name) <= 255;

export async function fetchContentsTree(
  contents: GithubContentsClient,
  root: RepositoryPath,
  limits: TreeLimits,
  signal?: AbortSignal,
): Promise<{ files: TreeFile[]; skipped: string[] }> {
  const what = `${root.owner}/${root.repo}${root.path ? `/${root.path}` : ''}`;
  // The first failure stops the calls still running.
  const stop = new AbortController();
  const options = { signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal };
  const at = (path: string): RepositoryPath => ({ ...root, path: [root.path, path].filter(Boolean).join('/') });
  const listed: Array<{ path: string; size: number }> = [];
  let listedBytes = 0;

  async function walk(dir: string, depth: number): Promise<void> {
    const found = await contents.read(at(dir), options);
    if (!found) throw new ContentsTreeError(dir ? `${what}/${dir} disappeared while it was read` : `${what} was not found`);
    if (found.type !== 'dir') throw new ContentsTreeError(`${what}${dir ? `/${dir}` : ''} is not a directory`);
    if (depth === 0 && limits.requiredFile && !found.entries.some((e) => e.type === 'file' && e.name === limits.requiredFile)) {
      throw new ContentsTreeError(`${what} has no ${limits.requiredFile} at its root`);
    }
    const below: string[] = [];
    for (const entry of found.entries) {
      if (!safeName(entry.name)) throw new ContentsTreeError(`${what} holds an entry named ${JSON.stringify(entry.name)}`);
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.type === 'dir') {
        if (depth + 1 > limits.maxDepth) throw new ContentsTreeError(`${what} nests folders more than ${limits.maxDepth} deep`);
        below.push(path);
      } else if (entry.type === 'file') {
        listed.push({ path, size: entry.size });
        listedBytes += entry.size;
        if (listed.length > limits.maxFiles) throw new ContentsTreeError(`${what} has more than ${limits.maxFiles} files`);
        if (listedBytes > limits.maxBytes) throw new ContentsTreeError(`${what} is larger than ${limits.maxBytes} bytes`);
      }
    }
    await Promise.all(below.map((path) => walk(path, depth + 1)));
  }

  try {
    await walk('', 0);
    let bytes = 0;
    const read = await Promise.all(
      listed.map(async ({ path }) => {
        const found = await contents.read(at(path), options);
        if (found?.type !== 'file') throw new ContentsTreeError(`${what}/${path} disappeared while it was read`);
        // A listing's sizes may be stale: the bytes themselves count.
        bytes += found.content.length;
        if (bytes > limits.maxBytes) throw new ContentsTreeError(`${what} is larger than ${limits.maxBytes} bytes`);
        return { path, content: utf8Text(found.content) };
      }),
    );
    const files = read.filter((f): f is TreeFile => f.content !== null).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const skipped = read.filter((f) => f.content === null).map((f) => f.path);
    if (limits.requiredFile && skipped.includes(limits.requiredFile)) throw new ContentsTreeError(`${what}/${limits.requiredFile} is not text`);
    return { files, skipped };
  } catch (err) {
    stop.abort();
    throw err;
  }
}

/** The bytes as text, or null when they are not UTF-8 or hold a NUL (a binary file). */
function utf8Text(bytes: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.includes('\0') ? null : text;
  } catch {
    return null;
  }
}
