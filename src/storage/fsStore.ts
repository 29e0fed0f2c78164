/**
 * The filesystem backend: each object is a file under `<dataDir>/blobs/<key>`, with its content
 * type beside it in `<key>.type`. Writes go to a temporary `.part` file renamed into place, so a
 * reader never sees half an object and a failed upload leaves nothing.
 *
 * The store may be shared by processes of different users in one group: the compose file's API
 * runs unprivileged and its workers as root, on one volume whose top directory belongs to the
 * API's group and is setgid. So directories are made group-writable (and setgid, so what is made
 * below them stays in the group) and files group-readable, whatever the process's umask; others
 * get nothing.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { byteLimit, checkKey, clampRange, type BlobStore } from './blobStore';

const TYPE_SUFFIX = '.type';
const DIR_MODE = 0o2770;
const FILE_MODE = 0o640;

/** Makes `dir` and its missing parents, each with DIR_MODE. */
async function makeDirs(dir: string): Promise<void> {
  // The first directory the call made, from the top; undefined when `dir` was there.
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  for (let made = dir; ; made = dirname(made)) {
    await chmod(made, DIR_MODE);
    if (made === first) return;
  }
}

export function createFsBlobStore(dataDir: string): BlobStore {
  const root = resolve(dataDir, 'blobs');
  const pathOf = (key: string) => join(root, checkKey(key));

  async function head(key: string) {
    const path = pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      const contentType = await readFile(path + TYPE_SUFFIX, 'utf8').catch(() => null);
      return { size: info.size, contentType };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  return {
    backend: 'fs',

    async put(key, body, options) {
      const path = pathOf(key);
      await makeDirs(dirname(path));
      const part = `${path}.${randomBytes(6).toString('hex')}.part`;
      const limit = byteLimit(options.maxBytes);
      try {
        await pipeline(body, limit, createWriteStream(part, { mode: FILE_MODE }));
        await writeFile(path + TYPE_SUFFIX, options.contentType, { mode: FILE_MODE });
        await Promise.all([chmod(part, FILE_MODE), chmod(path + TYPE_SUFFIX, FILE_MODE)]);
        await rename(part, path);
      } catch (err) {
        await rm(part, { force: true });
        throw err;
      }
      return { size: limit.bytes() };
    },

    async get(key, range) {
      const found = await head(key);
      if (!found) return null;
      const served = clampRange(range, found.size);
      // An empty object has no byte to read.
      const stream = served.end < served.start ? Readable.from([]) : createReadStream(pathOf(key), { start: served.start, end: served.end });
      return { ...found, range: served, stream };
    },

    head,

    async delete(key) {
      const path = pathOf(key);
      await unlink(path).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      await rm(path + TYPE_SUFFIX, { force: true });
    },

    async deleteByPrefix(prefix) {
      const dir = join(root, checkKey(prefix, { prefix: true }));
      const count = await countFiles(dir);
      await rm(dir, { recursive: true, force: true });
      return count;
    },
  };
}

async function countFiles(dir: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  return entries.filter((e) => e.isFile() && !e.name.endsWith(TYPE_SUFFIX) && !e.name.endsWith('.part')).length;
}
