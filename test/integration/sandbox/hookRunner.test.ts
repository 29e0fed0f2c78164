import { expect } from 'chai';
import { DEFAULT_OUTPUT_LIMIT_BYTES, SandboxInputError, type SandboxRuntime, type StepEvent } from '../../../src/sandbox';
import { containerExists, createTestRuntime, docker, hostnameIn, step, testOwner, waitFor } from './helpers';

describe('sandbox hook runs', () => {
  let runtime: SandboxRuntime;

  before(async () => {
    runtime = createTestRuntime(testOwner('runs'));
    await runtime.warm();
  });
  after(() => runtime.close());

  it('answers ping', async () => {
    await runtime.ping();
  });

  it('returns the exit code and stdout and stderr interleaved in order', async () => {
    const result = await runtime.runHooks({
      steps: [step('environment', 'echo one; echo two >&2; echo three; echo four >&2; exit 3')],
      env: {},
      files: [],
    });
    expect(result).to.deep.equal({
      exitCode: 3,
      output: '==> environment hook\none\ntwo\nthree\nfour\n',
      timedOut: false,
    });
  });

  it('shows the environment variables and files to the script, owned by hangar', async () => {
    const result = await runtime.runHooks({
      steps: [
        step(
          'environment',
          [
            'echo "greeting=$GREETING"',
            'printf "multi=%s|\\n" "$MULTI"',
            'echo "home=$HOME pwd=$(pwd) user=$(id -un)"',
            'cat ~/config/app.env',
            'cat ~/workspaces/x',
            'stat -c "%U %a %n" ~/config ~/config/app.env',
          ].join('\n'),
        ),
      ],
      env: { GREETING: 'hello world', MULTI: 'a\nb' },
      files: [
        { path: '~/config/app.env', content: 'TOKEN=abc\n' },
        { path: '~/workspaces/x', content: 'ünïcode\n' },
      ],
    });
    expect(result.exitCode, result.output).to.equal(0);
    expect(result.output).to.include('greeting=hello world\n');
    expect(result.output).to.include('multi=a\nb|\n');
    expect(result.output).to.include('home=/home/hangar pwd=/home/hangar user=hangar\n');
    expect(result.output).to.include('TOKEN=abc\n');
    expect(result.output).to.include('ünïcode\n');
    expect(result.output).to.include('hangar 700 /home/hangar/config\n');
    expect(result.output).to.include('hangar 600 /home/hangar/config/app.env\n');
  });

  it('runs the chain in order and stops at the first failing step, whose code is the result', async () => {
    const events: StepEvent[] = [];
    const live: string[] = [];
    const result = await runtime.runHooks({
      steps: [
        step('global', 'echo g; touch ~/from-global'),
        step('source', 'test -f ~/from-global && echo s-saw-global; exit 42'),
        step('environment', 'echo must-not-run'),
      ],
      env: {},
      files: [],
      onStep: (e) => events.push(e),
      onOutput: (chunk) => live.push(chunk),
    });
    expect(result.exitCode).to.equal(42);
    expect(result.output).to.equal('==> global hook\ng\n==> source hook\ns-saw-global\n');
    expect(live.join('')).to.equal(result.output);
    expect(events).to.deep.equal([
      { step: 'global', state: 'started' },
      { step: 'global', state: 'finished', exitCode: 0 },
      { step: 'source', state: 'started' },
      { step: 'source', state: 'finished', exitCode: 42 },
    ]);
  });

  it('succeeds with 0 when every step does', async () => {
    const result = await runtime.runHooks({
      steps: [step('global', 'true'), step('source', 'echo ok'), step('environment', 'false || true')],
      env: {},
      files: [],
    });
    expect(result.exitCode).to.equal(0);
    expect(result.output).to.equal('==> global hook\n==> source hook\nok\n==> environment hook\n');
  });

  it('does not wait for background processes that keep the output open', async () => {
    const result = await runtime.runHooks({
      steps: [step('environment', 'sleep 600 & (setsid sleep 600 &) ; nohup sleep 600 >/dev/stdout 2>&1 & echo left-running')],
      env: {},
      files: [],
      timeoutMs: 30_000,
    });
    expect(result.timedOut).to.equal(false);
    expect(result.exitCode).to.equal(0);
    // Not waited for: a runner that waited would have run into the 30 s deadline (timedOut).
    expect(result.output).to.include('left-running');
  });

  it('caps the output at 1 MiB by default with a visible marker line', async () => {
    const result = await runtime.runHooks({
      steps: [step('environment', 'head -c 3000000 /dev/zero | tr "\\0" x; echo; echo after')],
      env: {},
      files: [],
    });
    expect(result.exitCode).to.equal(0);
    const lines = result.output.trimEnd().split('\n');
    expect(lines.at(-1)).to.match(/^\[hangar\] output truncated: the 1048576-byte limit was reached/);
    expect(Buffer.byteLength(result.output)).to.be.at.most(DEFAULT_OUTPUT_LIMIT_BYTES + 200);
    expect(Buffer.byteLength(result.output)).to.be.at.least(DEFAULT_OUTPUT_LIMIT_BYTES);
    expect(result.output).not.to.include('after');
  });

  it('honours a smaller output limit', async () => {
    const result = await runtime.runHooks({
      steps: [step('environment', 'seq 1 100000')],
      env: {},
      files: [],
      outputLimitBytes: 1000,
    });
    expect(result.output.startsWith('==> environment hook\n1\n2\n3\n')).to.equal(true);
    expect(result.output).to.include('[hangar] output truncated: the 1000-byte limit was reached');
    expect(Buffer.byteLength(result.output)).to.be.below(1200);
  });

  it('refuses a file outside the home before touching Docker', async () => {
    let error: unknown;
    await runtime
      .runHooks({ steps: [step('environment', 'true')], env: {}, files: [{ path: '~/../../etc/passwd', content: 'x' }] })
      .catch((err) => (error = err));
    expect(error).to.be.instanceOf(SandboxInputError);
  });

  it('runs hooks unprivileged in a hardened container', async () => {
    let inspected: ReturnType<ReturnType<typeof docker.getContainer>['inspect']> | undefined;
    const result = await runtime.runHooks({
      steps: [
        step(
          'environment',
          [
            'echo "host=$(hostname)"',
            'echo "uid=$(id -u)"',
            'grep -E "^(CapEff|CapPrm|CapBnd|NoNewPrivs):" /proc/self/status',
            'test -e /var/run/docker.sock && echo docker-socket-present',
            'sleep 1',
          ].join('\n'),
        ),
      ],
      env: {},
      files: [],
      onOutput: (chunk) => {
        const match = /^host=([0-9a-f]{12})$/m.exec(chunk);
        if (match) inspected = docker.getContainer(match[1]!).inspect();
      },
    });
    expect(result.output).to.include('uid=1000\n');
    expect(result.output).to.match(/CapEff:\s+0000000000000000/);
    expect(result.output).to.match(/CapPrm:\s+0000000000000000/);
    expect(result.output).to.match(/CapBnd:\s+0000000000000000/);
    expect(result.output).to.match(/NoNewPrivs:\s+1/);
    expect(result.output).not.to.include('docker-socket-present');
    const info = await inspected!;
    expect(info.HostConfig.Privileged).to.equal(false);
    expect(info.HostConfig.CapDrop).to.deep.equal(['ALL']);
    expect(info.HostConfig.SecurityOpt).to.deep.equal(['no-new-privileges']);
    expect(info.HostConfig.Memory).to.equal(1024 ** 3);
    expect(info.HostConfig.MemorySwap).to.equal(1024 ** 3);
    expect(info.HostConfig.PidsLimit).to.equal(256);
    expect(info.HostConfig.NanoCpus).to.equal(1e9);
    expect(info.HostConfig.NetworkMode).to.equal('bridge');
    expect(info.Mounts).to.deep.equal([]);
    expect(info.Config.Labels['dev.hangar.role']).to.equal('hook-sandbox');
    await waitFor('the used container to be removed', async () => !(await containerExists(hostnameIn(result.output))));
  });
});

describe('sandbox hook runs without a network', () => {
  let runtime: SandboxRuntime;

  before(() => {
    runtime = createTestRuntime(testOwner('nonet'), { networkMode: 'none', poolSize: 1 });
  });
  after(() => runtime.close());

  it('gives the hooks only a loopback interface', async () => {
    const result = await runtime.runHooks({ steps: [step('environment', 'ls /sys/class/net')], env: {}, files: [] });
    expect(result.output).to.equal('==> environment hook\nlo\n');
  });
});
