import { hostname } from 'node:os';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config';
import { chooseHost, type HostLoad } from '../../../src/db/workerHostsRepository';

describe('worker hosts: settings', () => {
  it('defaults to this machine as the one host, with no limit and a five-minute timeout', () => {
    const config = loadConfig({});
    // The host name itself where it is a safe id (an FQDN longer than 63 characters is cut at its first dot).
    expect(hostname().startsWith(config.workerHostId)).to.equal(true);
    expect(config.workerHostId).to.match(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/);
    expect(config.hostMaxWorkspaces).to.equal(null);
    expect(config.hostTimeoutMs).to.equal(300_000);
  });

  it('gives workspaces the API on the Docker host when the public URL is set empty, as compose passes an unset one', () => {
    const config = loadConfig({ HANGAR_PUBLIC_URL: '', HANGAR_WORKSPACE_API_URL: '', PORT: '8123' });
    expect(config.workspaceApiUrl).to.equal('http://host.docker.internal:8123');
    expect(config.workspaceEgress.hostPorts).to.deep.equal([8123]);
  });

  it('takes a short safe host id and refuses anything else', () => {
    expect(loadConfig({ HANGAR_WORKER_HOST_ID: 'docker-2.eu_west' }).workerHostId).to.equal('docker-2.eu_west');
    for (const bad of ['-lead', 'has space', 'a/b', 'queue@host', 'x'.repeat(64)]) {
      expect(() => loadConfig({ HANGAR_WORKER_HOST_ID: bad }), bad).to.throw(ConfigError, /HANGAR_WORKER_HOST_ID/);
    }
    expect(loadConfig({ HANGAR_HOST_MAX_WORKSPACES: '12', HANGAR_HOST_TIMEOUT_SECONDS: '20' })).to.include({ hostMaxWorkspaces: 12, hostTimeoutMs: 20_000 });
    expect(() => loadConfig({ HANGAR_HOST_TIMEOUT_SECONDS: '1' })).to.throw(ConfigError, /HANGAR_HOST_TIMEOUT_SECONDS/);
  });
});

describe('worker hosts: placement', () => {
  const host = (id: string, load: number, capacity: number | null = null, warm = 0): HostLoad => ({ id, taskQueue: `q@${id}`, capacity, load, warm });

  it('picks the least loaded host, then by id', () => {
    expect(chooseHost([host('b', 3), host('a', 5), host('c', 3)])?.id).to.equal('b');
    expect(chooseHost([host('a', 0), host('b', 0)])?.id).to.equal('a');
  });

  it('skips hosts at their limit, and answers none when all are full or none is live', () => {
    expect(chooseHost([host('a', 1, 4), host('b', 2, 2)])?.id).to.equal('a');
    expect(chooseHost([host('a', 0, 4), host('b', 2, 2)])?.id).to.equal('a');
    expect(chooseHost([host('a', 4, 4), host('b', 2, 2)])).to.equal(null);
    expect(chooseHost([])).to.equal(null);
  });

  it('prefers a host with a ready warm entry of the environment, if it has room', () => {
    expect(chooseHost([host('a', 0), host('b', 6, null, 1)])?.id).to.equal('b');
    expect(chooseHost([host('a', 0), host('b', 6, 6, 1)])?.id).to.equal('a');
  });
});
