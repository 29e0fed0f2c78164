/** Local state, client releases, and blobs (media, canvas copies): on disk or in an S3-compatible bucket. */
import { join } from 'node:path';
import type { S3Settings } from '../storage/s3Store';
import { ConfigError, flag, integer, section, text, url, type Reader } from './schema';

const DAY = 86_400;

const variables = {
  HANGAR_DATA_DIR: text({ default: '.hangar', description: 'local state; media and canvas copies live in `<dir>/blobs/` when no S3 bucket is set' }),
  HANGAR_RELEASES_DIR: text({
    shownDefault: '`<HANGAR_DATA_DIR>/releases`',
    description: 'published client releases: `manifest.json` and its files, served by the download operations (see "Releases")',
  }),
  HANGAR_S3_BUCKET: text({ description: 'store media in this S3-compatible bucket instead of `HANGAR_DATA_DIR`' }),
  HANGAR_S3_ENDPOINT: url({ shownDefault: 'AWS', description: 'a non-AWS server (MinIO, versitygw, R2 …: usually path style)' }),
  HANGAR_S3_REGION: text({ default: 'us-east-1', description: "the bucket's region" }),
  HANGAR_S3_FORCE_PATH_STYLE: flag({ default: false, yes: ['true', '1'], no: ['false', '0'], description: 'path-style addressing (`{endpoint}/{bucket}/{key}`), which most non-AWS servers need' }),
  HANGAR_S3_PREFIX: text({ shownDefault: 'none', description: 'a key prefix when deployments share a bucket' }),
  HANGAR_S3_ACCESS_KEY_ID: text({
    shownDefault: "the SDK's default chain",
    description: "static credentials, with `HANGAR_S3_SECRET_ACCESS_KEY` (both or neither); without them the AWS SDK's chain applies (env, profile, instance/task role)",
  }),
  HANGAR_S3_SECRET_ACCESS_KEY: text({ secret: true, shownDefault: "the SDK's default chain", description: 'the secret of `HANGAR_S3_ACCESS_KEY_ID`' }),
  HANGAR_MEDIA_MAX_BYTES: integer({
    default: 100 * 1024 * 1024,
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    shownDefault: '104857600 (100 MiB)',
    description: 'largest media upload (413 beyond; a declared larger Content-Length is refused before any byte is stored)',
  }),
  HANGAR_MEDIA_LINK_SECONDS: integer({ default: 900, min: 10, max: 30 * DAY, description: "signed media links' default lifetime (at most `HANGAR_MEDIA_LINK_MAX_SECONDS`)" }),
  HANGAR_MEDIA_LINK_MAX_SECONDS: integer({
    default: 7 * DAY,
    min: 60,
    max: 30 * DAY,
    description: "signed media links' longest lifetime (the CLI's chat embeds use it)",
  }),
};

type Read = Reader<typeof variables>;

export const storage = section('Storage', variables, {}, (read) => ({
  dataDir: read.get('HANGAR_DATA_DIR'),
  /** Published client releases: `manifest.json` and its files (docs/operations.md, "Releases"). */
  releasesDir: read.get('HANGAR_RELEASES_DIR') ?? join(read.get('HANGAR_DATA_DIR'), 'releases'),
  /** Blob storage in an S3-compatible bucket (`HANGAR_S3_BUCKET`); unset: files under `dataDir`. */
  s3: s3Settings(read),
  /** Media: the largest upload, and signed links' default and longest lifetimes. */
  media: mediaSettings(read),
}));

function s3Settings(read: Read): S3Settings | undefined {
  const bucket = read.get('HANGAR_S3_BUCKET');
  if (!bucket) return undefined;
  const accessKeyId = read.get('HANGAR_S3_ACCESS_KEY_ID');
  const secretAccessKey = read.get('HANGAR_S3_SECRET_ACCESS_KEY');
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError('HANGAR_S3_ACCESS_KEY_ID and HANGAR_S3_SECRET_ACCESS_KEY go together');
  const forcePathStyle = read.get('HANGAR_S3_FORCE_PATH_STYLE');
  return {
    bucket,
    region: read.get('HANGAR_S3_REGION'),
    endpoint: read.get('HANGAR_S3_ENDPOINT'),
    forcePathStyle,
    accessKeyId,
    secretAccessKey,
    prefix: read.get('HANGAR_S3_PREFIX'),
  };
}

function mediaSettings(read: Read): { maxBytes: number; linkDefaultSeconds: number; linkMaxSeconds: number } {
  const linkMaxSeconds = read.get('HANGAR_MEDIA_LINK_MAX_SECONDS');
  const linkDefaultSeconds = read.get('HANGAR_MEDIA_LINK_SECONDS');
  if (linkDefaultSeconds > linkMaxSeconds) throw new ConfigError('HANGAR_MEDIA_LINK_SECONDS must not exceed HANGAR_MEDIA_LINK_MAX_SECONDS');
  return { maxBytes: read.get('HANGAR_MEDIA_MAX_BYTES'), linkDefaultSeconds, linkMaxSeconds };
}
