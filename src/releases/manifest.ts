/**
 * The releases an operator publishes (desktop apps, Hangar's own CLI builds): a manifest of
 * versions, each with notes, a publication date and one file per platform key
 * (`macos-arm64`, `linux-x64`, …). Pure: parsing, validation and "which release is newest";
 * reading the directory is `./store.ts`.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import semver from 'semver';

export interface Release {
  version: string;
  name?: string;
  notes: string;
  pub_date: string;
  /** Platform key → file name beside the manifest. */
  files: Record<string, string>;
}

export interface ReleaseManifest {
  releases: Release[];
}

/** A platform key: `<os>-<arch>`, lower case. */
export const PLATFORM_KEY = /^[a-z0-9]+-[a-z0-9_]+$/;

/** A plain file name: no separator, no `.`/`..`, no NUL, no leading dot (nothing hidden). */
const FILE_NAME = '^(?!\\.)[^/\\\\\\u0000]{1,255}$';

const manifestSchema = {
  type: 'object',
  required: ['releases'],
  properties: {
    releases: {
      type: 'array',
      maxItems: 10_000,
      items: {
        type: 'object',
        required: ['version', 'notes', 'pub_date', 'files'],
        properties: {
          version: { type: 'string', maxLength: 100 },
          name: { type: 'string', maxLength: 200 },
          notes: { type: 'string', maxLength: 100_000 },
          pub_date: { type: 'string', format: 'date-time' },
          files: {
            type: 'object',
            propertyNames: { pattern: PLATFORM_KEY.source },
            additionalProperties: { type: 'string', pattern: FILE_NAME },
          },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

const ajv = new Ajv({ allErrors: false, strict: true });
addFormats(ajv);
const validateManifest = ajv.compile<ReleaseManifest>(manifestSchema);

export class ManifestError extends Error {
  override name = 'ManifestError';
}

/** The manifest in `text`, validated; ManifestError says what is wrong with it. */
export function parseManifest(text: string): ReleaseManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ManifestError(`manifest.json is not JSON: ${(err as Error).message}`);
  }
  if (!validateManifest(value)) {
    const e = validateManifest.errors?.[0];
    throw new ManifestError(`manifest.json${e?.instancePath ?? ''} ${e?.message ?? 'is invalid'}`);
  }
  const seen = new Set<string>();
  for (const [i, release] of value.releases.entries()) {
    const version = semver.valid(release.version);
    if (!version || version !== release.version) throw new ManifestError(`manifest.json/releases/${i}/version must be a semantic version (1.2.3), got ${JSON.stringify(release.version)}`);
    if (seen.has(version)) throw new ManifestError(`manifest.json lists version ${version} twice`);
    seen.add(version);
  }
  return value;
}

/**
 * The newest release with a file for `platform`. Prereleases (`1.3.0-beta.1`) are never
 * offered: they are for testers who install them by hand, not for every client's update check.
 */
export function newestRelease(manifest: ReleaseManifest, platform: string): Release | null {
  let newest: Release | null = null;
  for (const release of manifest.releases) {
    if (!release.files[platform] || semver.prerelease(release.version)) continue;
    if (!newest || semver.gt(release.version, newest.version)) newest = release;
  }
  return newest;
}

/** The release to offer a client running `installed`, or null when it is current (or newer). */
export function updateFor(manifest: ReleaseManifest, platform: string, installed: string): Release | null {
  const newest = newestRelease(manifest, platform);
  return newest && semver.gt(newest.version, installed) ? newest : null;
}

export const releaseName = (release: Release) => release.name ?? `Hangar ${release.version}`;
