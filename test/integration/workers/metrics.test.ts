/**
 * The production worker process (`src/bin/worker.ts`) serves its own `/metrics`, behind the
 * token when one is set, and the Temporal SDK's metrics at HANGAR_TEMPORAL_METRICS_ADDRESS
 * (a runtime is installed once per process, so this takes a process of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { LABEL_OWNER } from '../../../src/sandbox/docker';
import { harness, METRICS_TOKEN, reservePort } from '../../support/harness';
import { until } from '../../support/wait';

const ROOT = resolve(__dirname, '../../..');

describe('workers: metrics endpoints', function () {
  this.timeout(300_000);
  const owner = `hangar-tests-metrics-${randomBytes(4).toString('hex')}`;
  let child: ChildProcess | null = null;

  after(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    const docker = createDocker(process.env);
    const left = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } });
    await Promise.all(left.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  });

  it('serves the worker metrics and the Temporal SDK metrics on their own ports', async () => {
    const [workerPort, temporalPort] = [await reservePort(), await reservePort()];
    child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/bin/worker.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...harness().env,
        HANGAR_SANDBOX_OWNER: owner,
        LOG_LEVEL: 'info',
        HANGAR_METRICS_TOKEN: METRICS_TOKEN,
        HANGAR_WORKER_METRICS_PORT: String(workerPort),
        HANGAR_WORKER_METRICS_HOST: '127.0.0.1',
        HANGAR_TEMPORAL_METRICS_ADDRESS: `127.0.0.1:${temporalPort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    await new Promise<void>((ready, failed) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('worker metrics listening')) ready();
      };
      child!.stdout!.on('data', onData);
      child!.stderr!.on('data', onData);
      child!.once('exit', (code) => failed(new Error(`the worker process exited (${code}) before it served metrics:\n${output.slice(-2000)}`)));
    });
    expect(output).to.not.include(METRICS_TOKEN);

    const workerUrl = `http://127.0.0.1:${workerPort}/metrics`;
    expect((await fetch(workerUrl)).status).to.equal(401);
    // Its own hook-sandbox pool fills at start: those starts are this process's figures.
    const text = await until('the worker process timed its sandbox starts', async () => {
      const res = await fetch(workerUrl, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const body = await res.text();
      return res.status === 200 && /^hangar_sandbox_start_seconds_count [1-9]/m.test(body) && body;
    });
    expect(text).to.match(/^process_cpu_seconds_total \d/m);

    // The SDK's core serves Temporal's own names once the worker polls.
    const temporal = await until('the Temporal SDK metrics', async () => {
      const res = await fetch(`http://127.0.0.1:${temporalPort}/metrics`);
      const body = await res.text();
      return res.status === 200 && /^temporal_\w+\{[^}]*task_queue="/m.test(body) && body;
    });
    expect(temporal).to.include(`task_queue="${harness().env.HANGAR_TASK_QUEUE}"`);
  });
});
