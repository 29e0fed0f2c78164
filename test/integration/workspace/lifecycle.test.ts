import { expect } from 'chai';
import { LABEL_REPLICA, WorkspaceMissingError, WorkspaceNotRunningError, workspaceName, type WorkspaceRuntime } from '../../../src/sandbox/workspace';
import { bareRepository, createTestRuntime, docker, newReplicaId, sh, TEST_MEMORY_CAP, volumeExists } from './helpers';

const GIB = 1024 * 1024 * 1024;

describe('workspace lifecycle', () => {
  let runtime: WorkspaceRuntime;
  let repo: ReturnType<typeof bareRepository>;
  const replicaIds: string[] = [];
  const newWorkspace = () => {
    const id = newReplicaId();
    replicaIds.push(id);
    return id;
  };

  before(() => {
    runtime = createTestRuntime();
    repo = bareRepository({ 'README.md': '# demo\n', 'run.sh': '#!/bin/sh\necho from the repo\n' });
  });
  after(async () => {
    await Promise.all(replicaIds.map((id) => runtime.remove(id)));
    repo.cleanup();
  });

  it('goes from nothing through files, checkout and exec to stopped, started and removed', async () => {
    const replicaId = newWorkspace();
    const spec = { replicaId, size: 'small' as const, env: { GREETING: 'hello world', PATH: '/opt/tools/bin:/usr/local/bin:/usr/bin:/bin' }, labels: { 'dev.hangar.test': 'lifecycle' } };
    expect(await runtime.state(replicaId)).to.equal('missing');
    expect(await runtime.ensure(spec)).to.deep.equal({ created: true });
    expect(await runtime.state(replicaId)).to.equal('running');
    expect(await runtime.ensure(spec)).to.deep.equal({ created: false });

    await runtime.writeFiles(replicaId, [
      { path: '~/.config/app/settings.json', content: '{"a":1}\n' },
      { path: '~/bin/tool', content: '#!/bin/sh\necho tool ran\n', mode: 0o755 },
    ]);
    const checkout = await runtime.checkout(replicaId, { name: 'demo', url: repo.url, branch: 'main' });
    expect(checkout).to.deep.equal({ path: '/home/hangar/workspaces/demo', created: true });
    expect(await runtime.checkout(replicaId, { name: 'demo', url: repo.url, branch: 'main' })).to.deep.equal({ path: checkout.path, created: false });

    const seen = await sh(
      runtime,
      replicaId,
      [
        'echo "greeting=$GREETING user=$(id -un) pwd=$PWD path=$PATH"',
        'cat ~/.config/app/settings.json',
        '~/bin/tool',
        'stat -c "%U %a %n" ~/.config/app/settings.json ~/bin/tool run.sh .git',
        'git log --format="log %s"',
        'git rev-parse --abbrev-ref HEAD',
        'echo "status[$(git status --porcelain)]"',
        'echo "identity $(git config user.name) <$(git config user.email)>"',
      ].join('\n'),
      { cwd: checkout.path },
    );
    expect(seen.exitCode, seen.stderr).to.equal(0);
    expect(seen.lines).to.include.members([
      'greeting=hello world user=hangar pwd=/home/hangar/workspaces/demo path=/opt/tools/bin:/usr/local/bin:/usr/bin:/bin',
      '{"a":1}',
      'tool ran',
      'hangar 600 /home/hangar/.config/app/settings.json',
      'hangar 755 /home/hangar/bin/tool',
      'hangar 755 run.sh',
      'hangar 755 .git',
      'log initial commit',
      'main',
      'status[]',
      'identity Hangar <hangar@localhost>',
    ]);

    await sh(runtime, replicaId, 'echo survived > ~/marker');
    await runtime.stop(replicaId);
    expect(await runtime.state(replicaId)).to.equal('stopped');
    expect(await volumeExists(workspaceName(replicaId))).to.equal(true);
    let error: unknown = null;
    await sh(runtime, replicaId, 'true').catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(WorkspaceNotRunningError);

    await runtime.start(replicaId);
    expect(await runtime.state(replicaId)).to.equal('running');
    const after = await sh(runtime, replicaId, 'cat ~/marker; echo "$GREETING"; git -C ~/workspaces/demo log --format=%s');
    expect(after.lines).to.deep.equal(['survived', 'hello world', 'initial commit']);

    // `ensure` on a stopped workspace starts it again.
    await runtime.stop(replicaId);
    expect(await runtime.ensure(spec)).to.deep.equal({ created: false });
    expect(await runtime.state(replicaId)).to.equal('running');

    await runtime.remove(replicaId);
    expect(await runtime.state(replicaId)).to.equal('missing');
    expect(await volumeExists(workspaceName(replicaId))).to.equal(false);
    await runtime.remove(replicaId);
    error = null;
    await sh(runtime, replicaId, 'true').catch((err: unknown) => (error = err));
    expect(error).to.be.instanceOf(WorkspaceMissingError);
  });

  it('runs hardened: no capabilities, no new privileges, hangar cannot touch PID 1, home owned by uid 1000', async () => {
    const replicaId = newWorkspace();
    await runtime.ensure({ replicaId, size: 'large', env: {} });
    const seen = await sh(
      runtime,
      replicaId,
      [
        'grep -E "^(CapEff|CapBnd|NoNewPrivs):" /proc/self/status',
        'echo "uid=$(id -u) gid=$(id -g)"',
        'stat -c "home %u:%g" ~',
        'ps -o user= -p 1',
        'kill -KILL 1 && echo killed-pid-1 || echo "kill refused"',
      ].join('\n'),
    );
    expect(seen.lines).to.include.members(['CapEff:\t0000000000000000', 'CapBnd:\t0000000000000000', 'NoNewPrivs:\t1', 'uid=1000 gid=1000', 'home 1000:1000', 'nobody', 'kill refused']);
    expect(await runtime.state(replicaId)).to.equal('running');

    const info = await docker.getContainer(workspaceName(replicaId)).inspect();
    const host = await docker.info();
    expect(info.Config.Labels[LABEL_REPLICA]).to.equal(replicaId);
    expect(info.HostConfig.Privileged).to.equal(false);
    expect(info.HostConfig.CapDrop).to.deep.equal(['ALL']);
    expect(info.HostConfig.SecurityOpt).to.deep.equal(['no-new-privileges']);
    expect(info.HostConfig.Init).to.equal(true);
    expect(info.HostConfig.PidsLimit).to.equal(4096);
    expect(info.HostConfig.NanoCpus).to.equal(Math.min(4, host.NCPU) * 1e9);
    expect(info.HostConfig.Memory).to.equal(Math.min(16 * GIB, TEST_MEMORY_CAP));
    expect(info.HostConfig.Binds ?? []).to.deep.equal([]);
    expect(info.Mounts.map((m) => [m.Type, m.Name, m.Destination])).to.deep.equal([['volume', workspaceName(replicaId), '/home/hangar']]);
  });

  it('refuses paths outside the home and replica ids that cannot name a container', async () => {
    const replicaId = newWorkspace();
    await runtime.ensure({ replicaId, size: 'small', env: {} });
    for (const path of ['/etc/passwd', '~/../escape', '~/']) {
      let error: unknown = null;
      await runtime.writeFiles(replicaId, [{ path, content: 'x' }]).catch((err: unknown) => (error = err));
      expect((error as Error | null)?.name, path).to.equal('SandboxInputError');
    }
    let error: unknown = null;
    await runtime.state('../etc').catch((err: unknown) => (error = err));
    expect((error as Error | null)?.name).to.equal('SandboxInputError');
    error = null;
    await runtime.checkout(replicaId, { name: 'nope', url: 'file:///nonexistent/repo.git', branch: 'main' }).catch((err: unknown) => (error = err));
    expect((error as Error | null)?.name).to.equal('WorkspaceOperationError');
    expect((await sh(runtime, replicaId, 'ls ~/workspaces 2>&1 || true')).stdout).to.not.include('nope');
  });
});
