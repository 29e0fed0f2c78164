/**
 * Downloads (interop §11): the newest published release of a client for a platform, handed
 * out as a short-lived signed link that Hangar itself serves. The link names a version and a
 * platform, not a path; the file is looked up in the manifest again when the link is used,
 * so withdrawing a release from the manifest also withdraws its links.
 */
import type { SignedLinks } from '../crypto/signedLinks';
import { notFound, unavailable } from '../domain/errors';
import type { Logger } from '../logger';
import { newestRelease, releaseName, updateFor, type Release, type ReleaseManifest } from '../releases/manifest';
import type { ReleaseFile, ReleaseStore } from '../releases/store';
import { MAC_ARCHES } from '../schemas/downloads';

export const DOWNLOAD_PURPOSE = 'download';
export const DOWNLOAD_LINK_TTL_MS = 10 * 60_000;
export { MAC_ARCHES };

export interface DownloadLink {
  token: string;
  release: Release;
  fileName: string;
}

export function createDownloadsService(deps: { store: ReleaseStore; links: SignedLinks; logger: Logger; now?: () => Date }) {
  const { store, links, logger } = deps;
  const now = deps.now ?? (() => new Date());

  const macPlatform = (arch: string) => {
    if (!(MAC_ARCHES as readonly string[]).includes(arch)) throw notFound('Architecture', `unsupported architecture ${JSON.stringify(arch)}: use ${MAC_ARCHES.join(' or ')}`);
    return `macos-${arch}`;
  };

  /** The manifest, or null when none is published; 503 when it is unreadable. */
  async function published(): Promise<ReleaseManifest | null> {
    const state = await store.manifest();
    if (state.state === 'missing') return null;
    if (state.state === 'invalid') throw unavailable('Releases unavailable', 'the releases manifest is invalid (the reason is in the server log)');
    return state.manifest;
  }

  function link(release: Release, platform: string): DownloadLink {
    const token = links.sign(DOWNLOAD_PURPOSE, { v: release.version, p: platform }, new Date(now().getTime() + DOWNLOAD_LINK_TTL_MS));
    return { token, release, fileName: release.files[platform]! };
  }

  async function requireFile(name: string, platform: string, version: string): Promise<ReleaseFile> {
    const file = await store.file(name);
    if (!file) {
      logger.error('a published release file is missing', { file: name, platform, version, dir: store.dir });
      throw unavailable('Release file unavailable', `the file of ${version} for ${platform} is missing on the server`);
    }
    return file;
  }

  return {
    /** A link to the newest release's installer for the Mac architecture. */
    async macDownload(arch: string): Promise<DownloadLink> {
      const platform = macPlatform(arch);
      const manifest = await published();
      const release = manifest && newestRelease(manifest, platform);
      if (!release) throw notFound('Release', `no release is published for ${platform}`);
      await requireFile(release.files[platform]!, platform, release.version);
      return link(release, platform);
    },

    /** The release a Mac client running `version` should install, or null when it is current. */
    async macUpdate(arch: string, version: string): Promise<(DownloadLink & { name: string }) | null> {
      const platform = macPlatform(arch);
      const manifest = await published();
      const release = manifest && updateFor(manifest, platform, version);
      if (!release) return null;
      await requireFile(release.files[platform]!, platform, release.version);
      return { ...link(release, platform), name: releaseName(release) };
    },

    /** The file a link opens; 404 for a forged, expired or withdrawn link. */
    async open(token: string): Promise<{ name: string; file: ReleaseFile }> {
      const claims = links.verify(DOWNLOAD_PURPOSE, token, now());
      const gone = () => notFound('Download', 'the link is invalid or has expired; ask for a new one');
      if (!claims || typeof claims.v !== 'string' || typeof claims.p !== 'string') throw gone();
      const manifest = await published();
      const release = manifest?.releases.find((r) => r.version === claims.v);
      const name = release?.files[claims.p];
      if (!name) throw gone();
      return { name, file: await requireFile(name, claims.p, claims.v) };
    },
  };
}

export type DownloadsService = ReturnType<typeof createDownloadsService>;
