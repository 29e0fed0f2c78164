/**
 * The releases directory (`HANGAR_RELEASES_DIR`): `manifest.json` and the files it lists,
 * side by side. The manifest is re-read when its modification time or size changes, so an
 * operator publishes by copying the file first and the manifest last. A file is opened only
 * by a name the manifest lists, and only when it resolves (symlinks followed) inside the
 * directory.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { realpath, readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ManifestError, parseManifest, type ReleaseManifest } from './manifest';

export type ManifestState = { state: 'ok'; manifest: ReleaseManifest } | { state: 'missing' } | { state: 'invalid'; reason: string };

export interface ReleaseFile {
  size: number;
  open(range?: { start: number; end: number }): ReadStream;
}

export interface ReleaseStore {
  readonly dir: string;
  manifest(): Promise<ManifestState>;
  /** The file named `name` in the directory; null when it is missing, not a file or outside. */
  file(name: string): Promise<ReleaseFile | null>;
}

export function createReleaseStore(dir: string, onInvalid: (reason: string) => void = () => {}): ReleaseStore {
  let cached: { key: string; state: ManifestState } | null = null;
  const manifestPath = join(dir, 'manifest.json');

  return {
    dir,
    async manifest() {
      let key: string;
      try {
        const s = await stat(manifestPath);
        key = `${s.mtimeMs}:${s.size}:${s.ino}`;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return { state: 'missing' };
        throw err;
      }
      if (cached?.key === key) return cached.state;
      let state: ManifestState;
      try {
        state = { state: 'ok', manifest: parseManifest(await readFile(manifestPath, 'utf8')) };
      } catch (err) {
        if (!(err instanceof ManifestError)) throw err;
        state = { state: 'invalid', reason: err.message };
        onInvalid(err.message);
      }
      cached = { key, state };
      return state;
    },

    async file(name) {
      if (!name || name.includes('/') || name.includes('\\') || name.startsWith('.')) return null;
      try {
        const [root, path] = await Promise.all([realpath(dir), realpath(join(dir, name))]);
        if (!path.startsWith(root + sep)) return null;
        const s = await stat(path);
        if (!s.isFile()) return null;
        return { size: s.size, open: (range) => createReadStream(path, range ? { start: range.start, end: range.end } : {}) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
        throw err;
      }
    },
  };
}
