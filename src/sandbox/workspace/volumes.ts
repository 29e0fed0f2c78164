/**
 * A workspace home volume's storage on its host (the settings: src/domain/workspaceVolumes.ts).
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { WorkspaceVolumeSettings } from '../../domain/workspaceVolumes';

/** The driver options of one volume. */
export function volumeOptions(settings: WorkspaceVolumeSettings, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(settings.options).map(([key, value]) => [key, value.split('{name}').join(name)]));
}

/**
 * A local volume binding a directory (`o` includes `bind`) needs the directory to exist: the
 * engine refuses to mount a missing one. An NFS export's directory is the server's business.
 */
export function bindDirectory(settings: WorkspaceVolumeSettings, name: string): string | null {
  if (settings.driver !== 'local') return null;
  const opts = volumeOptions(settings, name);
  const binds = (opts.o ?? '').split(',').some((o) => o.trim() === 'bind' || o.trim() === 'rbind');
  return binds && opts.device && isAbsolute(opts.device) ? opts.device : null;
}

/** Creates the bound directory (as on an NFS server, an empty directory: the engine fills it from the image at first use). */
export async function prepareVolumeStorage(settings: WorkspaceVolumeSettings, name: string): Promise<void> {
  const dir = bindDirectory(settings, name);
  if (dir) await mkdir(dir, { recursive: true, mode: 0o755 });
}

/** A plain local volume: its data goes with it. Anything else (options, another driver) may outlive `docker volume rm`. */
export function keepsNoData(settings: WorkspaceVolumeSettings): boolean {
  return settings.driver === 'local' && Object.keys(settings.options).length === 0;
}
