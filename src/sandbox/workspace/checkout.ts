/**
 * Repository checkouts. git runs on the worker's host (so `file://` bare repositories there
 * work and no host path is ever mounted), into a temporary directory that is then streamed
 * as a tar into the container, where `tar` running as `hangar` unpacks it next to its final
 * place and renames it in: a checkout is either whole or absent.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { lstat, mkdtemp, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pack, type Header, type Pack } from 'tar-stream';

type Headers = Partial<Header> & Pick<Header, 'name'>;
import { SandboxInputError } from '../errors';
import { SANDBOX_HOME } from '../request';
import { redactUrl, WorkspaceOperationError } from './errors';
import { HANGAR_GID, HANGAR_UID } from './files';
import type { RepositoryCheckout } from './types';

export const WORKSPACES_DIR = `${SANDBOX_HOME}/workspaces`;
export const DEFAULT_CLONE_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_GIT_IDENTITY = { name: 'Hangar', email: 'hangar@localhost' };

const REPO_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
const BAD_REF = /[\x00-\x20\x7f~^:?*[\\]|^-|\.\.|@\{|\/\/|^\/|\/$|\.lock$/;

export function checkoutPath(repo: RepositoryCheckout): string {
  if (typeof repo?.name !== 'string' || !REPO_NAME.test(repo.name)) {
    throw new SandboxInputError(`Repository name ${JSON.stringify(repo?.name)} cannot name a folder`, 'repo.name');
  }
  if (typeof repo.url !== 'string' || !repo.url || repo.url.startsWith('-') || /[\0\n\r]/.test(repo.url)) {
    throw new SandboxInputError('Repository url must be a URL or path', 'repo.url');
  }
  if (typeof repo.branch !== 'string' || !repo.branch || BAD_REF.test(repo.branch)) {
    throw new SandboxInputError(`Branch ${JSON.stringify(repo.branch)} is not a valid branch name`, 'repo.branch');
  }
  return `${WORKSPACES_DIR}/${repo.name}`;
}

/**
 * Sets the git identity of `hangar` where none is set yet, then exits 0 when `$1` already
 * exists and 10 when it does not.
 */
export const PREPARE_CHECKOUT_SCRIPT = `git config --global --get user.name >/dev/null || git config --global user.name "$2"
git config --global --get user.email >/dev/null || git config --global user.email "$3"
[ -e "$1" ] && exit 0
exit 10`;

/** Unpacks stdin beside `$1` and renames it in; exit 3 when something else got there first. */
export const EXTRACT_CHECKOUT_SCRIPT = `set -e
target="$1"; parent="\${target%/*}"; partial="$parent/.\${target##*/}.partial-$$"
mkdir -p "$parent"
mkdir "$partial"
if ! tar -x -p -f - -C "$partial" --no-same-owner --warning=no-timestamp; then rm -rf "$partial"; exit 1; fi
if [ -e "$target" ]; then rm -rf "$partial"; exit 3; fi
mv "$partial" "$target"`;

/** Clones into a fresh temporary directory; the caller removes `root` when done. */
export async function cloneOnHost(repo: RepositoryCheckout, timeoutMs: number): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), 'hangar-clone-'));
  const dir = join(root, 'repo');
  const args = ['-c', 'protocol.ext.allow=never', 'clone', '--quiet', '--branch', repo.branch, '--', repo.url, dir];
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        'git',
        args,
        { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true' } },
        (err, _stdout, stderr) => {
          if (!err) return resolve();
          const why = (err as { killed?: boolean }).killed ? `timed out after ${timeoutMs / 1000} s` : String(stderr).trim() || err.message;
          reject(new WorkspaceOperationError('checkout', `git clone of ${redactUrl(repo.url)} (branch ${repo.branch}) failed`, redactUrl(why)));
        },
      );
    });
    return { root, dir };
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
}

/** A tar of `dir`'s contents (names relative to it), owned by `hangar`, streamed as it is read. */
export function packDirectory(dir: string): Pack {
  const tar = pack();
  addTree(tar, dir, '').then(
    () => tar.finalize(),
    (err: unknown) => tar.destroy(err as Error),
  );
  return tar;
}

async function addTree(tar: Pack, root: string, rel: string): Promise<void> {
  const entries = (await readdir(join(root, rel))).sort();
  for (const name of entries) {
    const path = rel ? `${rel}/${name}` : name;
    const full = join(root, path);
    const stat = await lstat(full);
    const header: Headers = { name: path, mode: stat.mode & 0o7777, mtime: stat.mtime, uid: HANGAR_UID, gid: HANGAR_GID, uname: 'hangar', gname: 'hangar' };
    if (stat.isDirectory()) {
      await addEntry(tar, { ...header, name: `${path}/`, type: 'directory' });
      await addTree(tar, root, path);
    } else if (stat.isSymbolicLink()) {
      await addEntry(tar, { ...header, type: 'symlink', linkname: await readlink(full) });
    } else if (stat.isFile()) {
      await new Promise<void>((resolve, reject) => {
        const sink = tar.entry({ ...header, type: 'file', size: stat.size }, (err) => (err ? reject(err) : resolve()));
        createReadStream(full).once('error', reject).pipe(sink);
      });
    }
  }
}

function addEntry(tar: Pack, header: Headers): Promise<void> {
  return new Promise((resolve, reject) => void tar.entry(header, (err) => (err ? reject(err) : resolve())));
}
