/**
 * The S3-compatible backend (AWS S3, MinIO, versitygw, …) through the AWS SDK v3. Credentials
 * come from the SDK's default chain unless the config names a key pair; `forcePathStyle` is for
 * servers that do not serve bucket subdomains. A body of unknown length is spooled to a
 * temporary file first, because a single PutObject needs its length.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { BlobTooLargeError, byteLimit, checkKey, clampRange, type BlobStore } from './blobStore';

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  /** Both or neither; neither means the SDK's default credential chain. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Prepended to every key (several deployments sharing a bucket). */
  prefix?: string;
}

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');

export function createS3BlobStore(settings: S3Settings): BlobStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.accessKeyId && settings.secretAccessKey ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
  });
  const Bucket = settings.bucket;
  const base = settings.prefix ? settings.prefix.replace(/\/*$/, '/') : '';
  const full = (key: string) => base + checkKey(key);

  async function head(key: string) {
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
      return { size: Number(out.ContentLength ?? 0), contentType: out.ContentType ?? null };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async function putKnown(key: string, body: Readable, contentType: string, size: number) {
    await client.send(new PutObjectCommand({ Bucket, Key: full(key), Body: body, ContentLength: size, ContentType: contentType }));
  }

  return {
    backend: 's3',

    async put(key, body, options) {
      checkKey(key);
      if (options.size !== undefined && options.maxBytes !== undefined && options.size > options.maxBytes) {
        body.destroy();
        throw new BlobTooLargeError(options.maxBytes);
      }
      const limit = byteLimit(options.maxBytes);
      if (options.size !== undefined) {
        body.on('error', (err) => limit.destroy(err));
        await putKnown(key, body.pipe(limit), options.contentType, options.size);
        return { size: options.size };
      }
      const dir = await mkdtemp(join(tmpdir(), 'hangar-s3-'));
      try {
        const spool = join(dir, 'body');
        await pipeline(body, limit, createWriteStream(spool, { mode: 0o600 }));
        const { size } = await stat(spool);
        await putKnown(key, createReadStream(spool), options.contentType, size);
        return { size };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async get(key, range) {
      const found = await head(key);
      if (!found) return null;
      const served = clampRange(range, found.size);
      try {
        const out = await client.send(
          new GetObjectCommand({ Bucket, Key: full(key), Range: served.end >= served.start && range ? `bytes=${served.start}-${served.end}` : undefined }),
        );
        return { ...found, range: served, stream: out.Body as Readable };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    head,

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },

    async deleteByPrefix(prefix) {
      const Prefix = base + checkKey(prefix, { prefix: true });
      let deleted = 0;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length > 0) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          deleted += keys.length;
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return deleted;
    },
  };
}
