/**
 * A workspace home volume's storage on its host (the settings: src/domain/workspaceVolumes.ts).
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type { WorkspaceVolumeSettings } from '../../domain/workspaceVolumes';

const DRIVER = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/;
const OPTION = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Reads the three settings; an error message names the setting at fault. */
export function parseVolumeSettings(raw: { driver?: string; options?: string; shared?: string }): WorkspaceVolumeSettings | string {
  const driver = raw.driver?.trim() || 'local';
  if (!DRIVER.test(driver)) return `HANGAR_WORKSPACE_VOLUME_DRIVER must be a Docker volume driver name, got "${driver}"`;
  let options: Record<string, string> = {};
  if (raw.options !== undefined && raw.options.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.options);
    } catch {
      return 'HANGAR_WORKSPACE_VOLUME_OPTIONS must be a JSON object of driver options, e.g. {"type":"nfs","o":"addr=10.0.0.5,rw","device":":/exports/hangar/{name}"}';
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return 'HANGAR_WORKSPACE_VOLUME_OPTIONS must be a JSON object';
    for (const [key, value] of Object.entries(parsed)) {
      if (!OPTION.test(key)) return `HANGAR_WORKSPACE_VOLUME_OPTIONS has an option name Docker would not take: "${key}"`;
      if (typeof value !== 'string') return `HANGAR_WORKSPACE_VOLUME_OPTIONS.${key} must be a string`;
    }
    options = parsed as Record<string, string>;
  }
  const sharedRaw = (raw.shared ?? '').trim().toLowerCase();
  if (!['', 'true', 'false'].includes(sharedRaw)) return `HANGAR_WORKSPACE_VOLUMES_SHARED must be true or false, got "${raw.shared}"`;
  const shared = sharedRaw === 'true';
  // The local driver names one device for every volume unless `{name}` sets each apart.
  if (driver === 'local' && Object.keys(options).length > 0 && !Object.values(options).some((v) => v.includes('{name}'))) {
    return 'HANGAR_WORKSPACE_VOLUME_OPTIONS for the local driver must use {name} in an option (the device), or every workspace would open the same directory';
  }
  if (shared && driver === 'local' && Object.keys(options).length === 0) {
    return 'HANGAR_WORKSPACE_VOLUMES_SHARED=true needs storage every host mounts: set HANGAR_WORKSPACE_VOLUME_OPTIONS (or a shared volume driver); a plain local volume lives on one host';
  }
  return { driver, options, shared };
}

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
