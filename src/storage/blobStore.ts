/**
 * Hangar's blob storage: media files and the transient copies of canvas reads. One interface
 * with two backends, the local filesystem under the data directory (the embedded default) and
 * an S3-compatible bucket (production). Both the API and the worker build it from the config,
 * so with the filesystem backend they must share the data directory.
 *
 * Keys are relative paths of safe segments (`replicas/<id>/media/<id>`); a workspace's objects
 * share the prefix `replicas/<id>/`, which is how its deletion finds them.
 */
import { Transform, type Readable } from 'node:stream';

export interface BlobHead {
  size: number;
  contentType: string | null;
}

/** Inclusive byte range, as HTTP's `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobRead extends BlobHead {
  stream: Readable;
  /** The range served (the whole object when none was asked). */
  range: ByteRange;
}

export interface PutOptions {
  contentType: string;
  /** The body's length when known in advance (S3 needs it to stream without spooling). */
  size?: number;
  /** Refuse (BlobTooLargeError) and store nothing once the body passes this many bytes. */
  maxBytes?: number;
}

export interface BlobStore {
  readonly backend: 'fs' | 's3';
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  /** The object (or `range` of it; `end` is clamped to the last byte); null when missing. */
  get(key: string, range?: ByteRange): Promise<BlobRead | null>;
  head(key: string): Promise<BlobHead | null>;
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix` (which must end with `/`); answers how many. */
  deleteByPrefix(prefix: string): Promise<number>;
}

export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
  }
}

/** A range outside the object (HTTP 416). */
export class BlobRangeError extends Error {
  override name = 'BlobRangeError';
  constructor(readonly total: number) {
    super(`the range is outside the object's ${total} bytes`);
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Keys are built by Hangar, never taken from a client; this guards the invariant anyway. */
export function checkKey(key: string, { prefix = false } = {}): string {
  const body = prefix ? key.replace(/\/$/, '') : key;
  if ((prefix && !key.endsWith('/')) || !body || body.split('/').some((s) => !SEGMENT.test(s) || s === '..' || s.endsWith('.part') || s.endsWith('.type'))) {
    throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  }
  return key;
}

/** Clamps a requested range to an object of `total` bytes; throws BlobRangeError when none of it exists. */
export function clampRange(range: ByteRange | undefined, total: number): ByteRange {
  if (!range) return { start: 0, end: Math.max(total - 1, -1) };
  if (range.start >= total || range.start < 0 || range.end < range.start) throw new BlobRangeError(total);
  return { start: range.start, end: Math.min(range.end, total - 1) };
}

/** Passes bytes through, failing with BlobTooLargeError past `limit`. */
export function byteLimit(limit: number | undefined): Transform & { bytes(): number } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (limit !== undefined && seen > limit) done(new BlobTooLargeError(limit));
      else done(null, chunk);
    },
  }) as Transform & { bytes(): number };
  t.bytes = () => seen;
  return t;
}
