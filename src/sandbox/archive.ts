/**
 * The tar a run streams into its sandbox (the runner unpacks it at `/` as `hangar`): the
 * environment's files under the home of `hangar` and the step scripts in the run's own
 * directory, all owned by uid 1000 and private to it. Only entries strictly below existing
 * directories the user owns are listed, so unpacking never touches `/home` or `/tmp`.
 */
import { posix } from 'node:path';
import { pack, type Header, type Pack } from 'tar-stream';
import type { PreparedFile } from './request';
import { SANDBOX_HOME } from './request';
import { RUN_DIR } from './runner';

export const HANGAR_UID = 1000;
export const HANGAR_GID = 1000;

export interface ArchiveInput {
  files: PreparedFile[];
  steps: Array<{ path: string; script: string }>;
}

interface Entry {
  header: Partial<Header> & Pick<Header, 'name'>;
  body?: string;
}

/** Tar names are relative to `/`, which is where the archive is extracted. */
const tarName = (absolute: string) => absolute.replace(/^\/+/, '');

function userDirs(files: PreparedFile[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = posix.dirname(file.path); dir !== SANDBOX_HOME; dir = posix.dirname(dir)) dirs.add(dir);
  }
  // Parents before children, so each directory entry exists before what it holds.
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export function archiveEntries(input: ArchiveInput, mtime = new Date()): Entry[] {
  const owner = { uid: HANGAR_UID, gid: HANGAR_GID, uname: 'hangar', gname: 'hangar', mtime };
  const dir = (path: string): Entry => ({ header: { ...owner, name: `${tarName(path)}/`, type: 'directory', mode: 0o700 } });
  const file = (path: string, body: string): Entry => ({
    header: { ...owner, name: tarName(path), type: 'file', mode: 0o600 },
    body,
  });
  return [
    dir(RUN_DIR),
    ...input.steps.map((step) => file(step.path, step.script)),
    ...userDirs(input.files).map(dir),
    ...input.files.map((f) => file(f.path, f.content)),
  ];
}

/** A tar-stream pack and the Buffer it becomes once finalized. */
export function packToBuffer(): { tar: Pack; done: Promise<Buffer> } {
  const tar = pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    tar.on('data', (chunk: unknown) => void chunks.push(chunk as Buffer));
    tar.on('end', () => resolve(Buffer.concat(chunks)));
    tar.on('error', reject);
  });
  return { tar, done };
}

export async function buildArchive(input: ArchiveInput): Promise<Buffer> {
  const { tar, done } = packToBuffer();
  for (const entry of archiveEntries(input)) {
    if (entry.body === undefined) {
      tar.entry(entry.header);
    } else {
      const body = Buffer.from(entry.body, 'utf8');
      tar.entry({ ...entry.header, size: body.length }, body);
    }
  }
  tar.finalize();
  return done;
}
