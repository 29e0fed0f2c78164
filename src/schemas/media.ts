/**
 * Canvas (the original's shapes, camelCase: interop §12) and media (Hangar's own operations
 * under the replica path, snake_case like the rest of `/v1/replica`).
 */
import { type BodyOf, dateTime, type JsonSchema, object, pageEnvelope, pageQuery, type QueryOf, uuid } from './common';

const canvasKind = { enum: ['markdown', 'html', 'image', 'video', 'audio', 'other'] } as const;

export const canvasItemParams = object({ id: uuid, filename: { type: 'string', minLength: 1, maxLength: 255 } }, ['id', 'filename']);

export const canvasListAnswer: JsonSchema = object(
  { items: { type: 'array', items: object({ filename: { type: 'string' }, kind: canvasKind, sizeBytes: { type: 'integer' } }, ['filename', 'kind', 'sizeBytes']) } },
  ['items'],
);

export const canvasItemAnswer: JsonSchema = object(
  {
    filename: { type: 'string' },
    kind: canvasKind,
    sizeBytes: { type: 'integer' },
    mimeType: { type: 'string' },
    content: { type: 'string', description: 'UTF-8 text (markdown, html)' },
    base64: { type: 'string', description: 'The bytes (every other kind)' },
    tooLarge: { const: true, description: 'Over the 5 MB read cap: neither payload' },
  },
  ['filename', 'kind', 'sizeBytes', 'mimeType'],
);

export const mediaKind = { enum: ['image', 'video', 'audio', 'other'] } as const;

export const mediaSchema: JsonSchema = object(
  {
    id: uuid,
    replica_id: uuid,
    filename: { type: 'string' },
    kind: mediaKind,
    mime_type: { type: 'string' },
    size_bytes: { type: 'integer' },
    created_at: dateTime,
  },
  ['id', 'replica_id', 'filename', 'kind', 'mime_type', 'size_bytes', 'created_at'],
);

export const mediaEnvelope = object({ media: mediaSchema }, ['media']);
export const mediaPage = pageEnvelope('media', mediaSchema);

/** The workspace (replica) a canvas or media operation is about. */
export const replicaIdParams = object({ id: uuid }, ['id']);
export const mediaParams = object({ id: uuid, mediaId: uuid }, ['id', 'mediaId']);
export const listMediaQuery = pageQuery(50);

export const uploadQuery = object({
  filename: { type: 'string', minLength: 1, maxLength: 1000, description: 'The file name (or header X-Filename); sanitised' },
  kind: { ...mediaKind, description: 'image, video or audio; by extension when omitted' },
});

export const uploadAnswer: JsonSchema = object(
  {
    media: mediaSchema,
    embed_url: { type: 'string', description: 'A signed inline link with the longest link lifetime, for chat embeds' },
    embed_expires_at: dateTime,
    markdown: { type: 'string', description: '`![filename](<embed_url>)`' },
  },
  ['media', 'embed_url', 'embed_expires_at', 'markdown'],
);

export const linkBody = object({
  disposition: { enum: ['attachment', 'inline'], default: 'attachment' },
  expires_in_seconds: { type: 'integer', minimum: 10, description: 'Default 900; at most the configured maximum' },
});

export const linkAnswer: JsonSchema = object({ url: { type: 'string' }, expires_at: dateTime }, ['url', 'expires_at']);

export const contentQuery = object({ token: { type: 'string', minLength: 1, maxLength: 4096 } }, ['token']);

export type UploadQuery = QueryOf<typeof uploadQuery>;
export type MediaLinkInput = BodyOf<typeof linkBody>;
