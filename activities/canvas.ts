/**
 * Canvas reads for the API, which does not talk to Docker. File bytes never travel through
 * Temporal (payloads are capped at 2 MB): a read copies the file into the blob store and
 * answers its key; the API reads the bytes from there and deletes the copy.
 */
import { randomUUID } from 'node:crypto';
import type { Repositories } from '../src/db';
import { workspaceKey } from '../src/domain/replicas';
import type { CanvasReader } from '../src/sandbox/workspace/canvas';
import type { BlobStore } from '../src/storage';
import { canvasCopyKey, type CanvasListResult, type CanvasReadResult } from '../workflows/shared';

export interface CanvasActivityDeps {
  repos: Pick<Repositories, 'replicas'>;
  canvas: CanvasReader;
  blobs: BlobStore;
}

export function createCanvasActivities(deps: CanvasActivityDeps) {
  const { canvas, blobs } = deps;
  /** The container's name suffix; null when the replica is gone. */
  const keyOf = async (replicaId: string) => {
    const row = await deps.repos.replicas.find(replicaId);
    return row ? workspaceKey(row) : null;
  };

  return {
    async listCanvas({ replicaId }: { replicaId: string }): Promise<CanvasListResult> {
      const key = await keyOf(replicaId);
      return { items: key ? await canvas.list(key) : [] };
    },

    async copyCanvasFile({ replicaId, filename, maxBytes, contentType }: { replicaId: string; filename: string; maxBytes: number; contentType: string }): Promise<CanvasReadResult> {
      const key = await keyOf(replicaId);
      if (!key) return { state: 'missing' };
      const storageKey = canvasCopyKey(replicaId, randomUUID());
      const read = await canvas.read(key, filename, maxBytes, (body, size) => blobs.put(storageKey, body, { contentType, size, maxBytes }));
      if (read.state === 'read') return { state: 'read', sizeBytes: read.sizeBytes, storageKey };
      return read.state === 'tooLarge' ? { state: 'tooLarge', sizeBytes: read.sizeBytes } : { state: 'missing' };
    },
  };
}

export type CanvasActivities = ReturnType<typeof createCanvasActivities>;
