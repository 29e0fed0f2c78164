/**
 * Canvas (the original's two reads) and media: upload (raw body, streamed to storage), list,
 * get, delete, signed links, and the link itself, served with Range support and headers that
 * keep an HTML or SVG file from running script on Hangar's origin.
 */
import type { Readable } from 'node:stream';
import type { Context } from 'koa';
import { contentDisposition, MEDIA_SAFETY_HEADERS } from '../../domain/media';
import { successSchema } from '../../schemas/common';
import {
  canvasItemAnswer,
  canvasItemParams,
  canvasListAnswer,
  contentQuery,
  linkAnswer,
  linkBody,
  listMediaQuery,
  mediaEnvelope,
  mediaPage,
  mediaParams,
  replicaIdParams as idParams,
  uploadAnswer,
  uploadQuery,
} from '../../schemas/media';
import { RangeNotSatisfiable, type MediaService } from '../../services/media';
import { defineRoute, type Route } from '../route';

const tag = 'Media';

function declaredLength(ctx: Context): number | undefined {
  const raw = ctx.get('content-length');
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

/** Where the caller reached Hangar (Koa's `ctx.origin` is the Origin header); X-Forwarded-* behind a proxy. */
const serviceOrigin = (ctx: Context) => `${ctx.protocol}://${ctx.host}`;

/** X-Filename is percent-encoded (headers are Latin-1); a malformed one is taken as it is. */
function headerFilename(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function mediaRoutes(media: MediaService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/canvas',
      operationId: 'listReplicaCanvasItems',
      summary: "List the files the agent left in the workspace's canvas directory (~/.hangar/canvas/); a sleeping workspace is not woken",
      tag: 'Replica',
      auth: 'apiKey',
      params: idParams,
      response: { status: 200, description: 'The canvas items', schema: canvasListAnswer },
      errors: [400, 401, 404, 503],
      handler: ({ actor, params }) => media.listCanvas(actor, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/canvas/:filename',
      operationId: 'getReplicaCanvasItem',
      summary: 'Read one canvas item: text in `content`, other kinds in `base64`, `tooLarge: true` over 5 MB',
      tag: 'Replica',
      auth: 'apiKey',
      params: canvasItemParams,
      response: { status: 200, description: 'The canvas item', schema: canvasItemAnswer },
      errors: [400, 401, 404, 503],
      handler: ({ actor, params }) => media.readCanvas(actor, params.id, params.filename),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/replica/:id/media',
      operationId: 'uploadReplicaMedia',
      summary: 'Upload a media file: the raw bytes as the body, the name in `filename` (or X-Filename); also from inside the workspace',
      tag,
      auth: 'apiKeyOrEngine',
      params: idParams,
      query: uploadQuery,
      ownBody: true,
      response: { status: 201, description: 'Stored', schema: uploadAnswer },
      errors: [400, 401, 404, 413],
      handler: ({ actor, params, query, ctx }) => {
        const filename = query.filename ?? headerFilename(ctx.get('x-filename'));
        return media.upload(
          actor,
          params.id,
          { filename, kind: query.kind, contentType: ctx.get('content-type') || undefined, size: declaredLength(ctx), body: ctx.req as Readable },
          serviceOrigin(ctx),
        );
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/media',
      operationId: 'listReplicaMedia',
      summary: "A workspace's media files, newest first",
      tag,
      auth: 'apiKeyOrEngine',
      params: idParams,
      query: listMediaQuery,
      response: { status: 200, description: 'A page of media files', schema: mediaPage },
      errors: [400, 401, 404],
      handler: ({ actor, params, query }) => media.list(actor, params.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/media/:mediaId',
      operationId: 'getReplicaMedia',
      summary: 'One media file',
      tag,
      auth: 'apiKeyOrEngine',
      params: mediaParams,
      response: { status: 200, description: 'The media file', schema: mediaEnvelope },
      errors: [400, 401, 404],
      handler: ({ actor, params }) => media.get(actor, params.id, params.mediaId),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/replica/:id/media/:mediaId',
      operationId: 'deleteReplicaMedia',
      summary: 'Delete a media file; its links stop working at once',
      tag,
      auth: 'apiKeyOrEngine',
      params: mediaParams,
      response: { status: 200, description: 'Deleted', schema: successSchema },
      errors: [400, 401, 404],
      handler: async ({ actor, params }) => {
        await media.remove(actor, params.id, params.mediaId);
        return { success: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/replica/:id/media/:mediaId/links',
      operationId: 'createReplicaMediaLink',
      summary: 'A short-lived signed URL to download (attachment) or preview (inline) the file; 15 minutes by default',
      tag,
      auth: 'apiKeyOrEngine',
      params: mediaParams,
      body: linkBody,
      bodyOptional: true,
      response: { status: 201, description: 'The link', schema: linkAnswer },
      errors: [400, 401, 404],
      handler: ({ actor, params, body, ctx }) => media.createLink(actor, params.id, params.mediaId, body ?? {}, serviceOrigin(ctx)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/replica/:id/media/:mediaId/content',
      operationId: 'getReplicaMediaContent',
      summary: 'What a signed link opens: the bytes, with Range support (no other auth; the token is the permission)',
      tag,
      auth: 'none',
      params: mediaParams,
      query: contentQuery,
      raw: true,
      response: { status: 200, description: 'The file (206 for a range)', contentType: 'application/octet-stream' },
      errors: [400, 404, 416],
      handler: async ({ params, query, ctx }) => {
        ctx.set(MEDIA_SAFETY_HEADERS);
        ctx.set('Accept-Ranges', 'bytes');
        let opened;
        try {
          opened = await media.open(params.id, params.mediaId, query.token, ctx.get('range') || undefined);
        } catch (err) {
          if (!(err instanceof RangeNotSatisfiable)) throw err;
          ctx.set('Content-Range', `bytes */${err.total}`);
          ctx.status = 416;
          ctx.body = { error: 'Range not satisfiable', details: `the file has ${err.total} bytes` };
          return;
        }
        const { row, blob, disposition, partial } = opened;
        ctx.set('Content-Disposition', contentDisposition(disposition, row.filename));
        ctx.type = row.mime_type;
        ctx.status = partial ? 206 : 200;
        if (partial) ctx.set('Content-Range', `bytes ${blob.range.start}-${blob.range.end}/${blob.size}`);
        ctx.length = Math.max(blob.range.end - blob.range.start + 1, 0);
        ctx.body = blob.stream;
      },
    }),
  ];
}
