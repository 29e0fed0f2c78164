/**
 * Environment files: written into the workspace at the given `~/…` path. Content is sealed
 * at rest and limited in UTF-8 bytes (what lands on disk), not in characters. Within one
 * environment a path cannot be both a file and the directory of another file, since the
 * sandbox refuses such a set when it materialises the files.
 */
import { randomUUID } from 'node:crypto';
import { sealedField } from '../../crypto/sealedFields';
import { protectedFilePath } from '../../domain/workspaceSettings';
import type { FileRow, Patch } from '../../db/environmentResourcesRepository';
import type { Transaction } from '../../db/transaction';
import { invalid, conflict } from '../../domain/errors';
import { FILE_CONTENT_MAX_BYTES, FILE_PATH_MAX } from '../../schemas/environmentResources';
import type { Actor } from '../../domain/actor';
import type { FileInput, FilePatch } from '../../schemas/environmentResources';
import { conflictOn, scopedResource, updatableView, type ResourceContext } from './context';
import { basename, fileDirectoryClash, normaliseHomePath } from './paths';

/** The bodies' own types, derived from their schemas (src/schemas/environmentResources.ts). */
export type { FileInput, FilePatch };

const duplicate = conflictOn({
  environment_files_environment_id_path_unique: 'A file with this path already exists in this environment',
});

function checkedPath(path: string): string {
  const check = normaliseHomePath(path, FILE_PATH_MAX);
  if (!check.ok) throw invalid('Invalid body', `body.path: ${check.reason}`);
  const protectedPath = protectedFilePath(check.path);
  if (protectedPath) throw invalid('Invalid body', `body.path: ${protectedPath}`);
  return check.path;
}

function checkedSize(content: string): number {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > FILE_CONTENT_MAX_BYTES) {
    throw invalid('Invalid body', `body.content: must be at most ${FILE_CONTENT_MAX_BYTES} bytes of UTF-8 (got ${bytes})`);
  }
  return bytes;
}

export function createFilesService(ctx: ResourceContext) {
  const { repo, secretBox } = ctx;
  const contentField = (id: string) => sealedField('environment_files', 'content_sealed', id);
  const files = scopedResource(ctx, repo.files, {
    what: 'File',
    duplicate,
    serialize: (row: FileRow) => updatableView(row, { name: row.name, path: row.path, content: secretBox.open(row.content_sealed, contentField(row.id)) }),
  });

  async function assertNoClash(environmentId: string, path: string, exceptId: string | null, trx: Transaction) {
    const others = (await repo.files.paths(environmentId, trx)).filter((f) => f.id !== exceptId).map((f) => f.path);
    const clash = fileDirectoryClash(path, others);
    if (clash) throw conflict('The path collides with another file in this environment', clash);
  }

  return {
    list: files.list,

    async create(actor: Actor, environmentId: string, input: FileInput) {
      const path = checkedPath(input.path);
      const size = checkedSize(input.content);
      return ctx.write(actor, environmentId, async (env, trx) => {
        await assertNoClash(env.id, path, null, trx);
        const id = randomUUID();
        const content_sealed = secretBox.seal(input.content, contentField(id));
        return files.insert(env, { id, name: input.name ?? basename(path), path, content_sealed, size_bytes: size }, trx);
      });
    },

    async update(actor: Actor, environmentId: string, id: string, input: FilePatch) {
      const path = input.path === undefined ? undefined : checkedPath(input.path);
      const size = input.content === undefined ? undefined : checkedSize(input.content);
      return ctx.write(actor, environmentId, async (env, trx) => {
        const current = await files.current(env, id, trx);
        const patch: Patch<FileRow> = {};
        if (input.name !== undefined) patch.name = input.name;
        if (path !== undefined) {
          await assertNoClash(env.id, path, id, trx);
          patch.path = path;
          // A name that was left to default keeps following the path.
          if (input.name === undefined && current.name === basename(current.path)) patch.name = basename(path);
        }
        if (input.content !== undefined) {
          patch.content_sealed = secretBox.seal(input.content, contentField(current.id));
          patch.size_bytes = size!;
        }
        return files.update(env, id, patch, trx);
      });
    },

    remove: files.remove,
  };
}
