/**
 * Canvas and media of a workspace (docs/decisions/workspaces.md, "Canvas and media").
 *
 * Canvas: the files the agent leaves in `~/.hangar/canvas/`, read through a short workflow
 * whose activity (in the worker, which has Docker) lists the directory or copies one file into
 * the blob store; this service reads the copy and deletes it.
 *
 * Media: files stored by Hangar for a workspace, uploaded through the API or from inside the
 * workspace (engine secret), read through short-lived signed links served by Hangar itself.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { SignedLinks } from '../../crypto/signedLinks';
import type { Repositories } from '../../db';
import type { MediaRow } from '../../db/mediaRepository';
import type { ReplicaRow } from '../../db/replicasRepository';
import type { Actor } from '../../domain/actor';
import { DomainError, invalid, notFound } from '../../domain/errors';
import {
  CANVAS_READ_LIMIT_BYTES,
  checkCanvasFilename,
  isTextKind,
  kindOf,
  mediaKindOf,
  mimeTypeOf,
  parseRange,
  sanitizeFilename,
  type MediaKind,
} from '../../domain/media';
import { BlobRangeError, BlobTooLargeError, type BlobStore } from '../../storage';
import type { WorkflowControl } from '../../temporal/workflowControl';
import { mediaBlobKey } from '../../../workflows/shared';
import { accessReplica } from '../replicas/access';

export const MEDIA_LINK_PURPOSE = 'media';
export type Disposition = 'attachment' | 'inline';

export interface MediaDeps {
  repos: Pick<Repositories, 'replicas' | 'media'>;
  blobs: BlobStore;
  temporal: Pick<WorkflowControl, 'canvas'>;
  links: SignedLinks;
  limits: { maxBytes: number; linkDefaultSeconds: number; linkMaxSeconds: number };
  /** The service's public URL; links use the request's origin without it. */
  publicBaseUrl?: string;
  now?: () => Date;
}

export interface UploadInput {
  filename: string;
  kind?: MediaKind;
  contentType?: string;
  size?: number;
  body: Readable;
}

export function serializeMedia(row: MediaRow) {
  return {
    id: row.id,
    replica_id: row.replica_id,
    filename: row.filename,
    kind: row.kind,
    mime_type: row.mime_type,
    size_bytes: row.size_bytes,
    created_at: row.created_at.toISOString(),
  };
}

/** A type the upload named, used only when the extension says nothing and it is plainly media. */
function uploadedType(filename: string, given: string | undefined): string {
  const byName = mimeTypeOf(filename);
  if (byName !== 'application/octet-stream') return byName;
  const base = given?.split(';')[0]?.trim().toLowerCase();
  return base && /^(image|video|audio)\/[a-z0-9.+-]{1,100}$/.test(base) ? base : byName;
}

export function createMediaService(deps: MediaDeps) {
  const { repos, blobs, links, limits } = deps;
  const now = deps.now ?? (() => new Date());

  /** The workspace as the caller may see it; code inside a workspace reaches only its own. */
  async function workspace(actor: Actor, replicaId: string): Promise<ReplicaRow> {
    if (actor.keyId.startsWith('engine:') && actor.keyId !== `engine:${replicaId}`) throw notFound('Replica');
    return accessReplica(repos.replicas, actor, replicaId);
  }

  async function mediaOf(actor: Actor, replicaId: string, mediaId: string): Promise<MediaRow> {
    await workspace(actor, replicaId);
    const row = await repos.media.find(replicaId, mediaId);
    if (!row) throw notFound('Media');
    return row;
  }

  function link(row: MediaRow, disposition: Disposition, seconds: number, origin: string) {
    const expiresAt = new Date(now().getTime() + seconds * 1000);
    const token = links.sign(MEDIA_LINK_PURPOSE, { r: row.replica_id, m: row.id, d: disposition }, expiresAt);
    const base = deps.publicBaseUrl ?? origin;
    return { url: `${base}/v1/replica/${row.replica_id}/media/${row.id}/content?token=${encodeURIComponent(token)}`, expires_at: expiresAt.toISOString() };
  }

  return {
    async listCanvas(actor: Actor, replicaId: string) {
      const row = await workspace(actor, replicaId);
      const { items } = await deps.temporal.canvas({ replicaId: row.id, op: 'list' }, row.organization_id, row.host_id);
      return { items: items.map((i) => ({ filename: i.filename, kind: kindOf(i.filename), sizeBytes: i.sizeBytes })) };
    },

    async readCanvas(actor: Actor, replicaId: string, rawName: string) {
      const row = await workspace(actor, replicaId);
      const filename = checkCanvasFilename(rawName);
      const kind = kindOf(filename);
      const mimeType = mimeTypeOf(filename);
      const read = await deps.temporal.canvas({ replicaId: row.id, op: 'read', filename, maxBytes: CANVAS_READ_LIMIT_BYTES, contentType: mimeType }, row.organization_id, row.host_id);
      if (read.state === 'missing') throw notFound('Canvas item');
      const item = { filename, kind, sizeBytes: read.sizeBytes, mimeType };
      if (read.state === 'tooLarge') return { ...item, tooLarge: true };
      try {
        const blob = await blobs.get(read.storageKey);
        if (!blob) throw new Error('the canvas copy vanished before it was read');
        const chunks: Buffer[] = [];
        for await (const chunk of blob.stream) chunks.push(chunk as Buffer);
        const bytes = Buffer.concat(chunks);
        return isTextKind(kind) ? { ...item, content: bytes.toString('utf8') } : { ...item, base64: bytes.toString('base64') };
      } finally {
        await blobs.delete(read.storageKey);
      }
    },

    async upload(actor: Actor, replicaId: string, input: UploadInput, origin: string) {
      const replica = await workspace(actor, replicaId);
      const filename = sanitizeFilename(input.filename);
      if (input.size !== undefined && input.size > limits.maxBytes) {
        input.body.resume();
        throw new DomainError('too_large', 'Media file too large', `the limit is ${limits.maxBytes} bytes`);
      }
      const id = randomUUID();
      const storageKey = mediaBlobKey(replica.id, id);
      const mimeType = uploadedType(filename, input.contentType);
      let size: number;
      try {
        ({ size } = await blobs.put(storageKey, input.body, { contentType: mimeType, size: input.size, maxBytes: limits.maxBytes }));
      } catch (err) {
        if (err instanceof BlobTooLargeError) throw new DomainError('too_large', 'Media file too large', `the limit is ${limits.maxBytes} bytes`);
        throw err;
      }
      let row: MediaRow;
      try {
        row = await repos.media.insert({
          id,
          organization_id: replica.organization_id,
          replica_id: replica.id,
          filename,
          kind: mediaKindOf(filename, input.kind),
          mime_type: mimeType,
          size_bytes: size,
          storage_key: storageKey,
          uploaded_by: actor.keyId,
        });
      } catch (err) {
        // The workspace was deleted meanwhile (or the database failed): keep no orphan.
        await blobs.delete(storageKey);
        if (!(await repos.replicas.findLive(replica.id))) throw notFound('Replica');
        throw err;
      }
      // The embed printed into a chat is read later than a download: the longest lifetime.
      const embed = link(row, 'inline', limits.linkMaxSeconds, origin);
      return { media: serializeMedia(row), embed_url: embed.url, embed_expires_at: embed.expires_at, markdown: `![${row.filename.replace(/[[\]]/g, '')}](<${embed.url}>)` };
    },

    async list(actor: Actor, replicaId: string, page: { page: number; limit: number }) {
      const row = await workspace(actor, replicaId);
      const { rows, total } = await repos.media.list(row.id, page);
      return { media: rows.map(serializeMedia), total, page: page.page, limit: page.limit, totalPages: Math.ceil(total / page.limit) };
    },

    async get(actor: Actor, replicaId: string, mediaId: string) {
      return { media: serializeMedia(await mediaOf(actor, replicaId, mediaId)) };
    },

    async remove(actor: Actor, replicaId: string, mediaId: string): Promise<void> {
      await mediaOf(actor, replicaId, mediaId);
      const row = await repos.media.delete(replicaId, mediaId);
      if (row) await blobs.delete(row.storage_key);
    },

    async createLink(actor: Actor, replicaId: string, mediaId: string, input: { disposition?: Disposition; expires_in_seconds?: number }, origin: string) {
      const row = await mediaOf(actor, replicaId, mediaId);
      const seconds = input.expires_in_seconds ?? limits.linkDefaultSeconds;
      if (seconds > limits.linkMaxSeconds) throw invalid('Invalid body', `body.expires_in_seconds: at most ${limits.linkMaxSeconds}`);
      return link(row, input.disposition ?? 'attachment', seconds, origin);
    },

    /**
     * What a signed link opens: its file's record and bytes (or the asked range of them). A
     * forged, expired or foreign token, a deleted file and a deleted workspace are all 404.
     */
    async open(replicaId: string, mediaId: string, token: string, rangeHeader: string | undefined) {
      const claims = links.verify(MEDIA_LINK_PURPOSE, token, now());
      if (!claims || claims.r !== replicaId || claims.m !== mediaId || (claims.d !== 'attachment' && claims.d !== 'inline')) throw notFound('Media');
      const row = await repos.media.findLive(mediaId);
      if (!row || row.replica_id !== replicaId) throw notFound('Media');
      const range = parseRange(rangeHeader, row.size_bytes);
      if (range === 'unsatisfiable') throw new RangeNotSatisfiable(row.size_bytes);
      try {
        const blob = await blobs.get(row.storage_key, range ?? undefined);
        if (!blob) throw notFound('Media');
        return { row, blob, disposition: claims.d as Disposition, partial: range !== null };
      } catch (err) {
        if (err instanceof BlobRangeError) throw new RangeNotSatisfiable(err.total);
        throw err;
      }
    },
  };
}

/** A Range outside the file: HTTP 416 with `Content-Range: bytes *\/total`. */
export class RangeNotSatisfiable extends Error {
  override name = 'RangeNotSatisfiable';
  constructor(readonly total: number) {
    super('Range not satisfiable');
  }
}

export type MediaService = ReturnType<typeof createMediaService>;
