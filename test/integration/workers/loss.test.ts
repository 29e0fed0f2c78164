/**
 * A worker killed in the middle of an agent turn. The turn runs in a worker started as its own
 * process; SIGKILL takes it down with no chance to clean up. The turn's heartbeats stop, its
 * retry runs on the remaining worker, which stops what is left of the agent in the container
 * and ends the turn interrupted: the chat takes its next message, and an automation run waiting
 * on the turn ends instead of hanging.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { LABEL_OWNER } from '../../../src/sandbox/docker';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';

const ROOT = resolve(__dirname, '../../..');

/** The killed worker's own sandbox owner: a runtime removes other containers of its owner as leftovers. */
const childOwner = `hangar-tests-child-${randomBytes(4).toString('hex')}`;

/** A worker in its own process on the harness's task queue; resolves once it polls. */
async function startWorkerProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/bin/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...harness().env, HANGAR_SANDBOX_OWNER: childOwner, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((ready, failed) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker running')) ready();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => failed(new Error(`the worker process exited (${code}) before it ran:\n${output.slice(-2000)}`)));
  });
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });

describe('workers: a worker lost mid-turn', function () {
  this.timeout(300_000);

  let child: ChildProcess | null = null;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) await killed(child);
    child = null;
    await harness().startWorker();
    // A killed worker cannot remove its pre-started hook sandboxes.
    const docker = createDocker(process.env);
    const leftovers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${childOwner}`] } });
    await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  });

  it('ends the cut turn interrupted, then takes the next message and ends the run that waited on it', async () => {
    const org = await newOrg('worker-loss');
    const api = as(org.org_api_key);
    const { db } = harness().database;
    const env = (await api.post('/v1/environments', { name: 'worker-loss' })).body.environment.id;

    await harness().stopWorker();
    child = await startWorkerProcess();
    const automation = (
      await api.post('/v1/automations', { name: 'Long turn', prompt: '!sleep 600000', environment_id: env, triggers: [{ type: 'custom', config: {} }] })
    ).body.automation;
    const fired = (await api.post(`/v1/automations/${automation.id}/trigger`, {})).body;
    // Running, and the agent started: its process session in the container is recorded.
    const firstMessage = await until('the agent to start in the worker process', async () => {
      const row = await db('replica_messages').where({ replica_id: fired.workspace_id, status: 'running' }).whereNotNull('agent_session').first('id');
      return row?.id as string | undefined;
    }, 120_000);
    // A second message waits in the same chat behind the running turn.
    const next = (await api.post(`/v1/replica/${fired.workspace_id}/messages`, { message: '!write after-loss.txt next' })).body;
    expect(next.status).to.equal('queued');

    await killed(child);
    await harness().startWorker();

    const cut = await until('the cut turn to end', async () => {
      const row = await db('replica_messages').where({ id: firstMessage }).first('status', 'error');
      return row.status !== 'running' && row;
    }, 120_000);
    expect(cut.status).to.equal('interrupted');
    expect(cut.error).to.match(/worker running this turn was lost/);

    const second = await until('the next message to finish', async () => {
      const row = await db('replica_messages').where({ id: next.message_id }).first('status');
      return ['completed', 'failed', 'interrupted'].includes(row.status) && row.status;
    }, 60_000);
    expect(second).to.equal('completed');

    const execution = await until('the run to end', async () => {
      const { executions } = (await api.get(`/v1/automations/${automation.id}/executions`)).body;
      return ['completed', 'failed'].includes(executions[0]?.status) && executions[0];
    }, 60_000);
    expect(execution.status).to.equal('failed');
    expect(execution.error).to.match(/worker running this turn was lost/);
    // Cut short by the platform, not failed by the agent: it does not count toward the circuit breaker.
    expect((await harness().database.db('automation_executions').where({ id: execution.id }).first('interrupted')).interrupted).to.equal(true);

    // Nothing of the cut agent is left running in the workspace (its `!sleep` would last 10 min).
    const processes = await execInContainer(workspaceName(fired.workspace_id), 'cat /proc/[0-9]*/comm 2>/dev/null');
    expect(processes).to.match(/bash/); // the listing itself is there
    expect(processes).to.not.match(/hangar-test-age/); // comm keeps 15 characters
  });
});
