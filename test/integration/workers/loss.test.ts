/**
 * A worker lost in the middle of an agent turn, killed (SIGKILL, no chance to clean up) or
 * stopped (SIGTERM, as a deploy stops it). The turn runs in a worker started as its own process;
 * its agent runs under the supervisor in the workspace, not in that worker's exec. The next
 * worker takes the turn over and follows the same agent to its end: the turn completes with
 * exactly the events the agent produced, none twice, the chat keeps the agent's session, the run
 * that waited on the turn completes, and the chat's next message runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { LABEL_OWNER } from '../../../src/sandbox/docker';
import { workspaceName } from '../../../src/sandbox/workspace';
import { turnDir } from '../../../src/sandbox/workspace/turnSupervisor';
import { execInContainer } from '../../support/containerExec';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';

const ROOT = resolve(__dirname, '../../..');

/** The lost worker's own sandbox owner: a runtime removes other containers of its owner as leftovers. */
const childOwner = `hangar-tests-child-${randomBytes(4).toString('hex')}`;

/** A worker in its own process on the harness's task queue; resolves once it polls. */
async function startWorkerProcess(): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/bin/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...harness().env, HANGAR_SANDBOX_OWNER: childOwner, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let output = '';
  await new Promise<void>((ready, failed) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker running')) ready();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => failed(new Error(`the worker process exited (${code}) before it ran:\n${output.slice(-2000)}`)));
  });
  return { child, exited };
}

/** The agent's steps; the turn holds at the gate until the test opens it, after the loss. */
const GATE = '/home/hangar/.go-on';
const PROMPT = ['before the loss', '!write before.txt one', `!run while [ ! -e ${GATE} ]; do sleep 0.2; done`, 'after the loss', '!write after.txt two'].join('\n');
/**
 * What the test agent prints for it (agent_1's protocol), by each line's own id: the init, its
 * thinking (agent_1's default level), its turn count, the steps' messages and tool calls with
 * their results, and the result. The gate is msg_5 and its result call_2.
 */
const PRODUCED = ['system:init', 'msg_1', 'msg_2', 'msg_3', 'msg_4', 'call_1', 'msg_5', 'call_2', 'msg_6', 'msg_7', 'call_3', 'result'];

/** Each recorded event of the message by the id its line carries. */
function eventIds(events: Array<{ type: string; payload: any }>): string[] {
  return events.map(({ type, payload }) => {
    if (type === 'agent_1-system') return `system:${payload.subtype}`;
    if (type === 'agent_1-assistant') return payload.message.id;
    if (type === 'agent_1-user') return payload.message.content[0].tool_use_id;
    if (type === 'agent_1-result') return 'result';
    return type;
  });
}

describe('workers: a worker lost mid-turn', function () {
  this.timeout(300_000);

  let lost: ChildProcess | null = null;
  afterEach(async () => {
    if (lost && lost.exitCode === null && lost.signalCode === null) lost.kill('SIGKILL');
    lost = null;
    await harness().startWorker();
    // A killed worker cannot remove its pre-started hook sandboxes.
    const docker = createDocker(process.env);
    const leftovers = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${childOwner}`] } });
    await Promise.all(leftovers.map((c) => docker.getContainer(c.Id).remove({ force: true })));
  });

  for (const [how, signal] of [
    ['killed', 'SIGKILL'],
    ['stopped for a deploy', 'SIGTERM'],
  ] as const) {
    it(`follows the turn of a worker ${how} to its end on the next worker, with every event once`, async () => {
      const org = await newOrg(`worker-loss-${signal}`);
      const api = as(org.org_api_key);
      const { db } = harness().database;
      const env = (await api.post('/v1/environments', { name: 'worker-loss' })).body.environment.id;

      await harness().stopWorker();
      const worker = await startWorkerProcess();
      lost = worker.child;
      const automation = (await api.post('/v1/automations', { name: 'Held turn', prompt: PROMPT, environment_id: env, triggers: [{ type: 'custom', config: {} }] })).body.automation;
      const fired = (await api.post(`/v1/automations/${automation.id}/trigger`, {})).body;
      const replicaId: string = fired.workspace_id;
      const eventsOf = (messageId: string) => db('replica_agent_events').where({ replica_id: replicaId, message_id: messageId }).orderBy('id').select('type', 'payload');
      // The agent holds at the gate, with what it did before recorded.
      const running = await until('the agent to reach the gate', async () => {
        const row = await db('replica_messages').where({ replica_id: replicaId, status: 'running' }).whereNotNull('agent_session').first('id', 'agent_session');
        return row && (await eventsOf(row.id)).length >= PRODUCED.indexOf('call_2') && row;
      }, 120_000);
      const next = (await api.post(`/v1/replica/${replicaId}/messages`, { message: '!write next.txt next' })).body;
      expect(next.status).to.equal('queued');

      const logsBefore = harness().logs.length;
      lost.kill(signal);
      if (signal === 'SIGTERM') expect(await worker.exited, 'a stopping worker exits cleanly, leaving the agent running').to.equal(0);
      else await worker.exited;
      await harness().startWorker();
      await until('the next worker to take the turn over', async () => harness().logs.slice(logsBefore).some((l) => l.includes('an agent turn is taken over') && l.includes(running.id)), 120_000);
      await execInContainer(workspaceName(replicaId), `touch ${GATE}`);

      const turn = await until('the turn to end', async () => {
        const row = await db('replica_messages').where({ id: running.id }).first('status', 'error', 'agent_session');
        return row.status !== 'running' && row;
      }, 120_000);
      expect(turn.status, turn.error).to.equal('completed');
      expect(turn.agent_session, 'the same agent process, followed on').to.equal(running.agent_session);
      const events = await eventsOf(running.id);
      expect(eventIds(events)).to.deep.equal(PRODUCED);
      // The chat resumes the session the agent announced.
      const sessionId = events[0]!.payload.session_id;
      const chat = await db('replica_chats').where({ replica_id: replicaId }).first('agent_session_id');
      expect(chat.agent_session_id).to.equal(sessionId);
      expect(await execInContainer(workspaceName(replicaId), 'cat ~/before.txt ~/after.txt')).to.equal('one\ntwo\n');

      const execution = await until('the run to end', async () => {
        const { executions } = (await api.get(`/v1/automations/${automation.id}/executions`)).body;
        return ['completed', 'failed'].includes(executions[0]?.status) && executions[0];
      }, 60_000);
      expect(execution.status, execution.error).to.equal('completed');
      const second = await until('the next message to finish', async () => {
        const row = await db('replica_messages').where({ id: next.message_id }).first('status');
        return ['completed', 'failed', 'interrupted'].includes(row.status) && row.status;
      }, 60_000);
      expect(second).to.equal('completed');
      // The turn's files in the workspace went with its end.
      expect(await execInContainer(workspaceName(replicaId), `test -e ${turnDir(running.id)} && echo kept || echo gone`)).to.equal('gone\n');
    });
  }

  it('ends the turn interrupted at once when its container went down with the worker (a host reboot), and the workspace goes on', async () => {
    const org = await newOrg('worker-and-container-loss');
    const api = as(org.org_api_key);
    const { db } = harness().database;
    await harness().stopWorker();
    const worker = await startWorkerProcess();
    lost = worker.child;
    const created = await api.post('/v1/replica', { name: 'rebooted', coding_agent: 'agent_1', message: PROMPT });
    expect(created.status).to.equal(201);
    const replicaId: string = created.body.replica.id;
    const running = await until('the agent to reach the gate', async () => {
      const row = await db('replica_messages').where({ replica_id: replicaId, status: 'running' }).whereNotNull('agent_session').first('id');
      return row && (await db('replica_agent_events').where({ replica_id: replicaId, message_id: row.id })).length >= PRODUCED.indexOf('call_2') && row;
    }, 120_000);

    lost.kill('SIGKILL');
    await worker.exited;
    await createDocker().getContainer(workspaceName(replicaId)).kill();
    await harness().startWorker();

    const turn = await until('the turn to end', async () => {
      const row = await db('replica_messages').where({ id: running.id }).first('status', 'error');
      return row.status !== 'running' && row;
    }, 120_000);
    expect(turn.status).to.equal('interrupted');
    expect(turn.error).to.match(/container stopped while the agent ran/);
    const next = (await api.post(`/v1/replica/${replicaId}/messages`, { message: '!write next.txt next' })).body;
    const second = await until('the next message to finish', async () => {
      const row = await db('replica_messages').where({ id: next.message_id }).first('status');
      return ['completed', 'failed', 'interrupted'].includes(row.status) && row.status;
    }, 120_000);
    expect(second).to.equal('completed');
  });
});
