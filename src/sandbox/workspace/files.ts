/**
 * Files into a workspace's home. The tar is unpacked by `tar` running as `hangar` in the
 * container (not by the engine, which writes as root), so a symlink the workspace user left
 * in its home can never redirect a write outside what that user may touch anyway. Existing
 * directories keep their owner and mode; new ones are private to `hangar`.
 */
import { posix } from 'node:path';
import { packToBuffer } from '../archive';
import { SandboxInputError } from '../errors';
import { resolveSandboxPath, SANDBOX_HOME } from '../request';
import type { WorkspaceFile } from './types';

export const HANGAR_UID = 1000;
export const HANGAR_GID = 1000;
const DEFAULT_FILE_MODE = 0o600;

/** GNU tar as a non-root user: keep the archive's modes, own what it writes, keep existing dirs. */
export const EXTRACT_FILES_SCRIPT = 'exec tar -x -p -f - -C / --no-same-owner --no-overwrite-dir --warning=no-timestamp';

interface PreparedFile {
  path: string;
  content: string;
  mode: number;
}

/** Later entries for the same path win; a path that is both a file and a directory is refused. */
export function prepareWorkspaceFiles(files: WorkspaceFile[]): PreparedFile[] {
  if (!Array.isArray(files)) throw new SandboxInputError('files must be an array', 'files');
  const byPath = new Map<string, PreparedFile>();
  for (const file of files) {
    if (typeof file?.content !== 'string') throw new SandboxInputError(`File ${JSON.stringify(file?.path)} needs string content`, 'files.content');
    const mode = file.mode ?? DEFAULT_FILE_MODE;
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
      throw new SandboxInputError(`File ${JSON.stringify(file.path)} has an invalid mode`, 'files.mode');
    }
    const path = resolveSandboxPath(file.path);
    byPath.delete(path);
    byPath.set(path, { path, content: file.content, mode });
  }
  for (const path of byPath.keys()) {
    for (let dir = posix.dirname(path); dir !== SANDBOX_HOME; dir = posix.dirname(dir)) {
      if (byPath.has(dir)) throw new SandboxInputError(`File path ${dir} is also a directory of ${path}`, 'files.path');
    }
  }
  return [...byPath.values()];
}

/** Directories strictly below the home that the files need, parents first. */
function parentDirs(files: PreparedFile[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = posix.dirname(file.path); dir !== SANDBOX_HOME; dir = posix.dirname(dir)) dirs.add(dir);
  }
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** Tar names are relative to `/`, where the archive is unpacked. */
const tarName = (absolute: string) => absolute.replace(/^\/+/, '');

export async function buildFilesArchive(files: PreparedFile[], mtime = new Date()): Promise<Buffer> {
  const owner = { uid: HANGAR_UID, gid: HANGAR_GID, uname: 'hangar', gname: 'hangar', mtime };
  const { tar, done } = packToBuffer();
  for (const dir of parentDirs(files)) {
    tar.entry({ ...owner, name: `${tarName(dir)}/`, type: 'directory', mode: 0o700 });
  }
  for (const file of files) {
    const body = Buffer.from(file.content, 'utf8');
    tar.entry({ ...owner, name: tarName(file.path), type: 'file', mode: file.mode, size: body.length }, body);
  }
  tar.finalize();
  return done;
}
