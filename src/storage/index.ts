/** Builds the configured blob store: S3 when a bucket is set, else the data directory. */
import type { Config } from '../config';
import type { BlobStore } from './blobStore';
import { createFsBlobStore } from './fsStore';
import { createS3BlobStore } from './s3Store';

export function createBlobStore(config: Pick<Config, 'dataDir' | 's3'>): BlobStore {
  return config.s3 ? createS3BlobStore(config.s3) : createFsBlobStore(config.dataDir);
}

export * from './blobStore';
export { createFsBlobStore } from './fsStore';
export { createS3BlobStore, type S3Settings } from './s3Store';
