import { expect } from 'chai';
import { createDocker, createSandboxRuntime } from '../../../src/sandbox';
import { dockerOptionsFromEnv, sandboxContainerSpec, DEFAULT_LIMITS } from '../../../src/sandbox/docker';

describe('sandbox docker options', () => {
  it('defaults to the local socket', () => {
    expect(dockerOptionsFromEnv({})).to.deep.equal({ socketPath: '/var/run/docker.sock' });
  });

  it('honours unix:// and tcp:// DOCKER_HOST', () => {
    expect(dockerOptionsFromEnv({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).to.deep.equal({
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(dockerOptionsFromEnv({ DOCKER_HOST: 'tcp://10.0.0.5:2375' })).to.deep.equal({
      host: '10.0.0.5',
      port: '2375',
      protocol: 'http',
    });
  });

  it('refuses schemes it cannot serve', () => {
    expect(() => dockerOptionsFromEnv({ DOCKER_HOST: 'ssh://me@host' })).to.throw(/not supported/);
  });

  it('builds a hardened container spec', () => {
    const spec = sandboxContainerSpec('img', DEFAULT_LIMITS, { 'dev.hangar.owner': 'o' });
    const host = spec.HostConfig!;
    expect(host.Privileged).to.equal(false);
    expect(host.CapDrop).to.deep.equal(['ALL']);
    expect(host.CapAdd ?? []).to.deep.equal([]);
    expect(host.SecurityOpt).to.deep.equal(['no-new-privileges']);
    expect(host.Memory).to.equal(1024 ** 3);
    expect(host.MemorySwap).to.equal(host.Memory);
    expect(host.PidsLimit).to.equal(256);
    expect(host.NanoCpus).to.equal(1e9);
    expect(host.Binds).to.deep.equal([]);
    expect(host.Mounts).to.deep.equal([]);
    expect(host.NetworkMode).to.equal('bridge');
    expect(spec.Labels).to.deep.equal({ 'dev.hangar.owner': 'o', 'dev.hangar.role': 'hook-sandbox' });
  });
});

describe('sandbox runtime options', () => {
  it('refuses network modes that would share the host or another container', () => {
    const docker = createDocker({ DOCKER_HOST: 'tcp://127.0.0.1:1' });
    for (const networkMode of ['host', 'container:abc', '']) {
      expect(() => createSandboxRuntime(docker, { image: 'x', poolSize: 0, networkMode }), networkMode).to.throw(/networkMode/);
    }
  });
});
