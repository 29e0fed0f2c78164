import { expect } from 'chai';
import { HOOK_OUTPUT_PREVIEW_CHARS, TIMEOUT_EXIT_CODE, type WorkspaceRuntime } from '../../../src/sandbox/workspace';
import { createTestRuntime, newReplicaId, run, sh, waitFor } from './helpers';

/** The `sleep` processes of the workspace user still alive. */
const sleepers = async (runtime: WorkspaceRuntime, replicaId: string) =>
  (await sh(runtime, replicaId, 'pgrep -u hangar -x sleep || true')).lines.filter((l) => l.trim() !== '');

describe('workspace exec, hooks and terminals', () => {
  let runtime: WorkspaceRuntime;
  const replicaId = newReplicaId();

  before(async () => {
    runtime = createTestRuntime();
    await runtime.ensure({ replicaId, size: 'small', env: { FROM_CONTAINER: 'yes' } });
  });
  after(() => runtime.remove(replicaId));

  it('delivers stdout line by line while the command runs, stderr apart, with stdin, env and cwd', async () => {
    let settled = false;
    let lineWhileRunning: boolean | null = null;
    const lines: string[] = [];
    const done = run(runtime, replicaId, ['bash', '-c', 'echo first; read -r go; echo "second $go"; echo oops >&2; exit 5'], {
      stdin: 'now\n',
      onStdoutLine: (line) => {
        lines.push(line);
        if (line === 'first') lineWhileRunning = !settled;
      },
    });
    const result = await done.finally(() => (settled = true));
    expect(lineWhileRunning).to.equal(true);
    expect(lines).to.deep.equal(['first', 'second now']);
    expect(result.exitCode).to.equal(5);
    expect(result.timedOut).to.equal(false);
    expect(result.stderr).to.equal('oops\n');

    const ctx = await run(runtime, replicaId, ['bash', '-c', 'echo "$FROM_CONTAINER $EXTRA $HOME $(id -un) $PWD"'], { env: { EXTRA: 'given' }, cwd: '/tmp' });
    expect(ctx.lines).to.deep.equal(['yes given /home/hangar hangar /tmp']);
  });

  it('keeps long and multi-byte lines whole and delivers a last line without a newline', async () => {
    const long = await sh(runtime, replicaId, 'head -c 300000 /dev/zero | tr "\\0" x; echo; printf "héllo wörld ✓\\nno newline"');
    expect(long.lines.map((l) => l.length)).to.deep.equal([300_000, 13, 10]);
    expect(long.lines.slice(1)).to.deep.equal(['héllo wörld ✓', 'no newline']);
  });

  it('cancels by killing the command and everything it started, not the container', async () => {
    const controller = new AbortController();
    const done = sh(runtime, replicaId, 'sleep 300 & sleep 301 & echo started; wait', {
      signal: controller.signal,
      onStdoutLine: (line) => line === 'started' && controller.abort(),
    });
    let error: unknown = null;
    await done.catch((err: unknown) => (error = err));
    expect((error as Error | null)?.name).to.equal('AbortError');
    await waitFor('the sleeps to be killed', async () => (await sleepers(runtime, replicaId)).length === 0);
    expect(await runtime.state(replicaId)).to.equal('running');
  });

  it('kills a command past its deadline and says it timed out', async () => {
    const result = await sh(runtime, replicaId, 'echo before; sleep 302 & sleep 303', { timeoutMs: 500 });
    expect(result).to.include({ exitCode: TIMEOUT_EXIT_CODE, timedOut: true });
    expect(result.lines).to.deep.equal(['before']);
    await waitFor('the sleeps to be killed', async () => (await sleepers(runtime, replicaId)).length === 0);
  });

  it('runs a hook with its output interleaved, its exit code and a preview cap', async () => {
    const hook = await runtime.runHook(replicaId, {
      name: 'environment',
      script: 'echo one; echo two >&2; echo three; echo "$HOOK_VAR in $PWD"; missing-command; exit 4',
      timeoutMs: 10_000,
      env: { HOOK_VAR: 'value' },
      cwd: '/tmp',
    });
    expect(hook.exitCode).to.equal(4);
    expect(hook.timedOut).to.equal(false);
    expect(hook.output).to.match(/^one\ntwo\nthree\nvalue in \/tmp\n\/tmp\/hangar-hooks\/environment\.sh: line 1: missing-command: command not found\n$/);
    expect(hook.outputTotalChars).to.equal(hook.output.length);

    const big = await runtime.runHook(replicaId, { name: 'big', script: 'head -c 150000 /dev/zero | tr "\\0" y', timeoutMs: 10_000 });
    expect(big.exitCode).to.equal(0);
    expect(big.output.length).to.equal(HOOK_OUTPUT_PREVIEW_CHARS);
    expect(big.outputTotalChars).to.equal(150_000);
  });

  it('times a hook out, keeps what it printed and kills what it started', async () => {
    const hook = await runtime.runHook(replicaId, { name: 'slow', script: 'echo started; sleep 304', timeoutMs: 700 });
    expect(hook).to.include({ exitCode: TIMEOUT_EXIT_CODE, timedOut: true });
    expect(hook.output).to.equal('started\n[hangar] timed out after 0.7 s; the hook was killed\n');
    await waitFor('the sleep to be killed', async () => (await sleepers(runtime, replicaId)).length === 0);
  });

  it('opens a real terminal that echoes, resizes and ends with the shell', async () => {
    const tty = await runtime.openTty(replicaId, { cols: 100, rows: 30 });
    let screen = '';
    tty.onData((chunk) => (screen += chunk));
    const exited = new Promise<number | null>((resolve) => tty.onExit(resolve));
    tty.write('echo "tty=$(tty) term=$TERM"; stty size\n');
    await waitFor('the first size', () => /[\r\n]30 100\r\n/.test(screen));
    expect(screen).to.match(/tty=\/dev\/pts\/\d+ term=xterm-256color/);
    expect(screen).to.not.include('\x1ehangar-');
    await tty.resize(132, 43);
    tty.write('stty size\n');
    await waitFor('the new size', () => /[\r\n]43 132\r\n/.test(screen));
    tty.write('exit 7\n');
    expect(await exited).to.equal(7);
  });

  it('closes a terminal by killing the shell and what runs in it', async () => {
    const tty = await runtime.openTty(replicaId, { cols: 80, rows: 24 });
    let screen = '';
    tty.onData((chunk) => (screen += chunk));
    tty.write('sleep 305 & echo bg-started\n');
    await waitFor('the background job', () => screen.includes('bg-started\r\n'));
    await tty.close();
    await waitFor('the sleep to be killed', async () => (await sleepers(runtime, replicaId)).length === 0);
  });
});
