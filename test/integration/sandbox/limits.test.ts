import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { TIMEOUT_EXIT_CODE, type SandboxRuntime } from '../../../src/sandbox';
import { containerExists, containersOf, createTestRuntime, hostnameIn, step, testOwner, waitFor } from './helpers';

/** Captures the container of a run from its first output line, before the run ends. */
function hostCapture() {
  let host: string | null = null;
  return {
    onOutput: (chunk: string) => {
      host ??= /^host=([0-9a-f]{12})$/m.exec(chunk)?.[1] ?? null;
    },
    get host() {
      return host;
    },
  };
}

describe('sandbox limits', () => {
  let runtime: SandboxRuntime;
  let owner: string;

  before(async () => {
    owner = testOwner('limits');
    runtime = createTestRuntime(owner, { memoryBytes: 128 * 1024 * 1024 });
    await runtime.warm();
  });
  after(() => runtime.close());

  it('kills a run at its deadline, reports timed_out and leaves no container behind', async () => {
    const capture = hostCapture();
    const started = Date.now();
    const result = await runtime.runHooks({
      steps: [step('environment', 'echo "host=$(hostname)"; echo waiting; sleep 600; echo never')],
      env: {},
      files: [],
      timeoutMs: 2000,
      onOutput: capture.onOutput,
    });
    const elapsed = Date.now() - started;
    expect(result.timedOut).to.equal(true);
    expect(result.exitCode).to.equal(TIMEOUT_EXIT_CODE);
    expect(result.output).to.include('waiting\n');
    expect(result.output).not.to.include('never');
    expect(result.output).to.include('[hangar] timed out after 2 s');
    // Not before the deadline; that it ended there, not at the script's own end, is `timedOut`
    // and the missing 'never' above (how long removal takes is the engine's speed).
    expect(elapsed).to.be.at.least(1900);
    expect(capture.host).to.be.a('string');
    // Gone by the time the caller hears about it, not eventually.
    expect(await containerExists(capture.host!)).to.equal(false);
    expect(await containersOf(owner)).not.to.include.members([capture.host]);
  });

  it('contains a fork bomb while this process keeps serving HTTP', async () => {
    const server: Server = createServer((_req, res) => res.end('pong'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const ping = () =>
      new Promise<number>((resolve, reject) => {
        const t = Date.now();
        get({ host: '127.0.0.1', port, path: '/' }, (res) => {
          res.resume();
          res.on('end', () => resolve(Date.now() - t));
        }).on('error', reject);
      });

    const capture = hostCapture();
    const latencies: number[] = [];
    let running = true;
    const run = runtime
      .runHooks({
        steps: [step('environment', 'echo "host=$(hostname)"; :(){ :|:& };:; sleep 4')],
        env: {},
        files: [],
        timeoutMs: 8000,
        onOutput: capture.onOutput,
      })
      .finally(() => {
        running = false;
      });
    try {
      await waitFor('the fork bomb to start', async () => capture.host);
      while (running) {
        latencies.push(await ping());
        await new Promise((r) => setTimeout(r, 100));
      }
      const result = await run;
      expect(latencies.length).to.be.at.least(5);
      // The host keeps answering: a starved one would stall for the whole run (seconds of pids
      // exhausted), while the bound leaves room for a machine busy with other work.
      expect(Math.max(...latencies), 'the slowest answer while the fork bomb ran (ms)').to.be.below(5000);
      // Either the runner's clean-up or the deadline ends it; both remove the container.
      expect(result.output).to.match(/fork: (retry: )?Resource temporarily unavailable/);
      await waitFor('the fork bomb container to be removed', async () => !(await containerExists(capture.host!)));
      expect(result.output).to.include(`host=${capture.host}`);
    } finally {
      server.close();
    }
  });

  it('lets the kernel kill a memory hog (exit 137) and still returns promptly', async () => {
    const result = await runtime.runHooks({
      steps: [step('environment', 'echo "host=$(hostname)"; tail /dev/zero; echo "tail exited $?"')],
      env: {},
      files: [],
      timeoutMs: 60_000,
    });
    // Promptly: the kernel ended it, not the 60 s deadline.
    expect(result.timedOut).to.equal(false);
    expect(result.output).to.include('tail exited 137');
    await waitFor('the memory hog container to be removed', async () => !(await containerExists(hostnameIn(result.output))));
  });

  it('reports a memory hog that is the last command as exit code 137', async () => {
    const result = await runtime.runHooks({ steps: [step('environment', 'tail /dev/zero')], env: {}, files: [], timeoutMs: 60_000 });
    expect(result.exitCode).to.equal(137);
    expect(result.timedOut).to.equal(false);
  });

  it('cancels a run on abort: rejects promptly and removes the container', async () => {
    const capture = hostCapture();
    const controller = new AbortController();
    const run = runtime.runHooks({
      steps: [step('environment', 'echo "host=$(hostname)"; sleep 600')],
      env: {},
      files: [],
      signal: controller.signal,
      onOutput: capture.onOutput,
    });
    await waitFor('the run to start', async () => capture.host);
    const aborted = Date.now();
    controller.abort(new Error('client went away'));
    let error: unknown;
    try {
      await run;
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).to.equal('client went away');
    // Promptly, not at the script's end (600 s); the bound is generous for a busy engine.
    expect(Date.now() - aborted, 'ms from abort to rejection').to.be.below(60_000);
    expect(await containerExists(capture.host!)).to.equal(false);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let error: unknown;
    await runtime.runHooks({ steps: [step('x', 'true')], env: {}, files: [], signal: controller.signal }).catch((err) => (error = err));
    expect((error as Error).name).to.equal('AbortError');
  });
});
