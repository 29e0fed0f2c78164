/**
 * Where a workspace's home volume lives. By default a `local` volume on the host's own disk; an
 * operator can give a driver and driver options (`{name}` in an option's value becomes the
 * volume's name) so that every host's engine opens the same data, say an NFS export, and say so
 * (`shared`): only then is a lost host's workspace re-provisioned on another host
 * (docs/decisions/hosts.md, "Re-provisioning on shared storage"). The configuration reads them
 * (src/config/workspaces.ts); the sandbox creates the volumes.
 */
export interface WorkspaceVolumeSettings {
  /** The Docker volume driver (`local` unless a plugin is named). */
  driver: string;
  /** Driver options; `{name}` in a value is replaced by the volume's name. */
  options: Record<string, string>;
  /** Every worker host opens the same data under these settings (never inferred). */
  shared: boolean;
}

export const LOCAL_VOLUMES: WorkspaceVolumeSettings = { driver: 'local', options: {}, shared: false };
