/**
 * A workspace's canvas directory, read through the Docker engine's archive API, which works on
 * a stopped container too (its volume is mounted for the copy), so a sleeping workspace is not
 * woken to be read. The engine resolves paths inside the container, never on the host; on top
 * of that, only regular files directly in the directory are ever listed or read: the directory
 * and its parent must be real directories, and a symlink (to /etc/passwd or anywhere) is
 * neither listed nor followed.
 */
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { extract, type Header } from 'tar-stream';
import { dockerStatus } from '../errors';
import { workspaceName } from './container';

export interface CanvasEntry {
  filename: string;
  sizeBytes: number;
}

/** Go's os.FileMode type bits, as the engine reports them in X-Docker-Container-Path-Stat. */
const MODE_DIR = 0x80000000;
const MODE_TYPE = 0x80000000 | 0x08000000 | 0x02000000 | 0x01000000 | 0x04000000 | 0x00200000 | 0x00080000;

interface PathStat {
  name: string;
  size: number;
  mode: number;
  linkTarget: string;
}

export type CanvasRead =
  | { state: 'missing' }
  | { state: 'tooLarge'; sizeBytes: number }
  | { state: 'read'; sizeBytes: number; result: unknown };

export function createCanvasReader(docker: Docker, dir: string) {
  const parent = dir.replace(/\/[^/]+\/?$/, '');

  async function stat(container: Docker.Container, path: string): Promise<PathStat | null> {
    try {
      const res = (await container.infoArchive({ path })) as { headers: Record<string, string>; resume?: () => void };
      res.resume?.();
      const raw = res.headers['x-docker-container-path-stat'];
      return raw ? (JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as PathStat) : null;
    } catch (err) {
      if (dockerStatus(err) === 404) return null;
      throw err;
    }
  }

  const typeBits = (s: PathStat) => (s.mode & MODE_TYPE) >>> 0;
  const isDir = (s: PathStat | null) => !!s && typeBits(s) === MODE_DIR >>> 0;
  const isFile = (s: PathStat | null) => !!s && typeBits(s) === 0;

  /** The container, when it exists and its canvas directory is a real directory. */
  async function canvasOf(workspaceKey: string): Promise<Docker.Container | null> {
    const container = docker.getContainer(workspaceName(workspaceKey));
    if (!isDir(await stat(container, parent)) || !isDir(await stat(container, dir))) return null;
    return container;
  }

  /** Walks the tar of `path`, handing each entry to `onEntry` (which must consume or drain it). */
  async function walk(container: Docker.Container, path: string, onEntry: (header: Header, body: Readable) => Promise<'stop' | void>): Promise<void> {
    const archive = (await container.getArchive({ path })) as Readable;
    const tar = extract();
    let stopped = false;
    const done = new Promise<void>((resolve, reject) => {
      tar.on('entry', (header, body, next) => {
        onEntry(header, body as unknown as Readable).then(
          (verdict) => {
            if (verdict === 'stop') {
              stopped = true;
              archive.destroy();
              tar.destroy();
              resolve();
              return;
            }
            next();
          },
          (err: unknown) => {
            archive.destroy();
            tar.destroy();
            reject(err as Error);
          },
        );
      });
      tar.on('finish', resolve);
      tar.on('error', (err) => (stopped ? resolve() : reject(err)));
      archive.on('error', (err) => (stopped ? resolve() : reject(err)));
    });
    archive.pipe(tar);
    await done;
  }

  const drain = (body: Readable) =>
    new Promise<void>((resolve, reject) => {
      body.on('end', resolve).on('error', reject);
      body.resume();
    });

  return {
    /** The regular files directly in the directory; none when it (or the container) is missing. */
    async list(workspaceKey: string): Promise<CanvasEntry[]> {
      const container = await canvasOf(workspaceKey);
      if (!container) return [];
      const base = dir.split('/').pop()!;
      const entries: CanvasEntry[] = [];
      await walk(container, dir, async (header, body) => {
        const match = header.name.startsWith(`${base}/`) ? header.name.slice(base.length + 1) : null;
        if (header.type === 'file' && match && !match.includes('/')) entries.push({ filename: match, sizeBytes: header.size ?? 0 });
        await drain(body);
      });
      return entries.sort((a, b) => a.filename.localeCompare(b.filename));
    },

    /**
     * One regular file of the directory: `missing` for anything else (absent, a symlink, a
     * directory), `tooLarge` past `maxBytes` without reading it, else `sink` gets its bytes.
     */
    async read(workspaceKey: string, filename: string, maxBytes: number, sink: (body: Readable, sizeBytes: number) => Promise<unknown>): Promise<CanvasRead> {
      const container = await canvasOf(workspaceKey);
      if (!container) return { state: 'missing' };
      const path = `${dir}/${filename}`;
      const found = await stat(container, path);
      if (!isFile(found)) return { state: 'missing' };
      if (found!.size > maxBytes) return { state: 'tooLarge', sizeBytes: found!.size };
      let outcome: CanvasRead = { state: 'missing' };
      await walk(container, path, async (header, body) => {
        const size = header.size ?? 0;
        if (header.type !== 'file' || header.name !== filename) {
          await drain(body);
          return 'stop';
        }
        if (size > maxBytes) {
          outcome = { state: 'tooLarge', sizeBytes: size };
          return 'stop';
        }
        outcome = { state: 'read', sizeBytes: size, result: await sink(body, size) };
        return 'stop';
      });
      return outcome;
    },
  };
}

export type CanvasReader = ReturnType<typeof createCanvasReader>;
