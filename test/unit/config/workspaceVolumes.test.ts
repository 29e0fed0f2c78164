import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';
import { bindDirectory, volumeOptions } from '../../../src/sandbox/workspace/volumes';

describe('workspace volumes: settings', () => {
  it('defaults to local volumes on each host, not shared', () => {
    expect(loadConfig({}).workspaceVolumes).to.deep.equal({ driver: 'local', options: {}, shared: false });
  });

  it('takes an NFS export per workspace, shared when told so, and names each volume in its options', () => {
    const settings = loadConfig({
      HANGAR_WORKSPACE_VOLUME_OPTIONS: '{"type":"nfs","o":"addr=10.0.0.5,rw","device":":/exports/hangar/{name}"}',
      HANGAR_WORKSPACE_VOLUMES_SHARED: 'true',
    }).workspaceVolumes;
    expect(settings).to.deep.equal({ driver: 'local', options: { type: 'nfs', o: 'addr=10.0.0.5,rw', device: ':/exports/hangar/{name}' }, shared: true });
    expect(volumeOptions(settings, 'hangar-ws-r1')).to.deep.equal({ type: 'nfs', o: 'addr=10.0.0.5,rw', device: ':/exports/hangar/hangar-ws-r1' });
    // An NFS export's directory is the server's: Hangar makes none.
    expect(bindDirectory(settings, 'hangar-ws-r1')).to.equal(null);
  });

  it('makes the directory of a bind only', () => {
    const bind = loadConfig({ HANGAR_WORKSPACE_VOLUME_OPTIONS: '{"type":"none","o":"bind","device":"/srv/shared/{name}"}' }).workspaceVolumes;
    expect(bind.shared).to.equal(false);
    expect(bindDirectory(bind, 'hangar-ws-r2')).to.equal('/srv/shared/hangar-ws-r2');
    const plugin = loadConfig({ HANGAR_WORKSPACE_VOLUME_DRIVER: 'example/cephfs:latest', HANGAR_WORKSPACE_VOLUMES_SHARED: 'true' }).workspaceVolumes;
    expect(plugin).to.deep.equal({ driver: 'example/cephfs:latest', options: {}, shared: true });
    expect(bindDirectory(plugin, 'hangar-ws-r2')).to.equal(null);
  });

  it('refuses settings that are malformed or would share one directory or claim sharing without shared storage', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ HANGAR_WORKSPACE_VOLUME_OPTIONS: 'type=nfs' }, /HANGAR_WORKSPACE_VOLUME_OPTIONS must be a JSON object/],
      [{ HANGAR_WORKSPACE_VOLUME_OPTIONS: '["a"]' }, /HANGAR_WORKSPACE_VOLUME_OPTIONS must be a JSON object/],
      [{ HANGAR_WORKSPACE_VOLUME_OPTIONS: '{"o":1,"device":"/x/{name}"}' }, /HANGAR_WORKSPACE_VOLUME_OPTIONS\.o must be a string/],
      [{ HANGAR_WORKSPACE_VOLUME_OPTIONS: '{"bad key":"{name}"}' }, /option name/],
      [{ HANGAR_WORKSPACE_VOLUME_OPTIONS: '{"type":"none","o":"bind","device":"/srv/shared"}' }, /must use \{name\}/],
      [{ HANGAR_WORKSPACE_VOLUMES_SHARED: 'yes' }, /HANGAR_WORKSPACE_VOLUMES_SHARED must be true or false/],
      [{ HANGAR_WORKSPACE_VOLUMES_SHARED: 'true' }, /HANGAR_WORKSPACE_VOLUMES_SHARED=true needs storage every host mounts/],
      [{ HANGAR_WORKSPACE_VOLUME_DRIVER: 'no spaces' }, /HANGAR_WORKSPACE_VOLUME_DRIVER/],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env), JSON.stringify(env)).to.throw(ConfigError, message);
  });
});
