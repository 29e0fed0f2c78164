/**
 * A file of the sandbox image, put into a workspace container made from an older image: a
 * workspace lives on across Hangar upgrades in the container it was created in, and a program
 * the worker now relies on in every workspace (the turn supervisor) must reach it there. The
 * file is read once per process from a container created (never started) from the image, and
 * written into the workspace through the engine's archive API, as root, like the image's own.
 */
import type { Readable } from 'node:stream';
import { dirname } from 'node:path';
import type Docker from 'dockerode';
import { LABEL_ROLE } from '../docker';
import { dockerStatus } from '../errors';

/** The label of the short-lived containers the files are read from. */
export const IMAGE_FILES_ROLE = 'image-files';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `path` of `image` as a tar archive (the file at its top), read from a container never started. */
async function archiveOf(docker: Docker, image: string, path: string): Promise<Buffer> {
  const reader = await docker.createContainer({ Image: image, Cmd: ['true'], Labels: { [LABEL_ROLE]: IMAGE_FILES_ROLE }, NetworkDisabled: true, HostConfig: { NetworkMode: 'none' } });
  try {
    return await readAll((await reader.getArchive({ path })) as Readable);
  } catch (err) {
    if (dockerStatus(err) === 404) throw new Error(`the sandbox image ${image} has no ${path}: build it again from this version of Hangar (scripts/setup.sh)`);
    throw err;
  } finally {
    await reader.remove({ force: true }).catch(() => undefined);
  }
}

/** Copies files of the image into containers, reading each file from the image once. */
export function imageFiles(docker: Docker, image: string) {
  const archives = new Map<string, Promise<Buffer>>();
  return {
    async copyInto(container: Docker.Container, path: string): Promise<void> {
      let archive = archives.get(path);
      if (!archive) {
        archive = archiveOf(docker, image, path);
        archives.set(path, archive);
        archive.catch(() => archives.delete(path));
      }
      await container.putArchive(await archive, { path: dirname(path) });
    },
  };
}
