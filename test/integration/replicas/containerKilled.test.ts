/**
 * A workspace's container stopped behind Hangar's back (`docker kill`, as an engine restart
 * does to every container) while an agent turn runs: the turn ends `interrupted`, the worker
 * starts the container again, the workspace stays `active`, and its next message completes,
 * continuing the cut turn's session (agent_1's CLI resumes one cut short).
 * The engine restart itself is the fault suite's case (test/faults/engineRestart.test.ts).
 */
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { CONTINUE_PROMPT } from '../../../activities/automationRuns';
import { automationRunWorkflowId } from '../../../workflows/shared';
import { recordPath } from '../../support/histories';

const V = { 'X-Api-Version': '2026-05-17' };

/** The workspace's running turn once its agent has named its session (its first line is recorded). */
function agentStarted(replicaId: string): Promise<{ id: string; chat_id: string }> {
  const { db } = harness().database;
  return until('the turn\'s agent to name its session', async () => {
    const running = (await db('replica_messages').where({ replica_id: replicaId, status: 'running' }).first('id', 'chat_id')) as { id: string; chat_id: string } | undefined;
    return running && (await db('replica_agent_events').where({ message_id: running.id, type: 'agent_1-system' }).first('id')) && running;
  }, 120_000, 250);
}

describe('replicas: a workspace container killed behind Hangar', function () {
  this.timeout(240_000);

  it('ends the running turn interrupted, starts the container again, and runs the next message', async () => {
    const { db } = harness().database;
    const org = await newOrg();
    const api = as(org.org_api_key);
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'killed', coding_agent: 'agent_1', message: '!sleep 120000' } });
    expect(created.status).to.equal(201);
    const id = created.body.replica.id as string;
    const container = createDocker().getContainer(`hangar-ws-${id}`);
    const first = await agentStarted(id);
    const startedBefore = (await container.inspect()).State.StartedAt;

    await container.kill();

    const ended = await until('the cut turn to end', async () => {
      const row = (await db('replica_messages').where({ id: first.id }).first()) as { status: string; error: string | null };
      return row.status !== 'running' && row;
    }, 60_000, 250);
    expect(ended.status).to.equal('interrupted');
    expect(ended.error).to.match(/container stopped while the agent ran/).and.to.match(/its session is kept: the chat's next message continues where it stopped/);
    const cutSession = (await db('replica_agent_events').where({ message_id: first.id, type: 'agent_1-system' }).first('payload')).payload.session_id as string;
    expect((await db('replica_chats').where({ replica_id: id }).first('agent_session_id')).agent_session_id).to.equal(cutSession);
    const info = await until('the container to run again', async () => {
      const found = await container.inspect();
      return found.State.Running && found.State.StartedAt !== startedBefore && found;
    }, 60_000, 250).catch((err: Error) => {
      // What the worker did about it, for the failure's message.
      const said = harness().logs.filter((line) => line.includes(id) || line.includes('workspace-reconciler')).slice(-20);
      throw new Error(`${err.message}; the worker said:\n${said.join('\n')}`);
    });
    expect(info.State.Running).to.equal(true);
    expect((await db('replicas').where({ id }).first()).status).to.equal('active');

    const sent = await api.post(`/v1/replica/${id}/messages`, { message: 'after the kill' });
    expect(sent.status, JSON.stringify(sent.body)).to.be.oneOf([200, 201, 202]);
    const next = await until('the next message to end', async () => {
      const row = (await db('replica_messages').where({ id: sent.body.message_id }).first()) as { status: string; error: string | null } | undefined;
      return row && !['queued', 'running'].includes(row.status) && row;
    }, 60_000, 250);
    expect(next, JSON.stringify(next)).to.include({ status: 'completed' });
    // The test agent counts the session's turns: the cut one is the first.
    const said = await db('replica_agent_events').where({ message_id: sent.body.message_id, type: 'agent_1-assistant' }).orderBy('id').select('payload');
    expect(said.map((e: { payload: any }) => e.payload.message.content[0].text)).to.include('turn 2 (1 earlier)');

    expect((await api.delete(`/v1/replica/${id}`)).status).to.equal(200);
    await until('the container to be removed', async () => (await container.inspect().then(() => false, () => true)), 60_000, 250);
  });

  it('lets an automation run whose turn was cut continue it once, and complete', async () => {
    const { db } = harness().database;
    const org = await newOrg();
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'cut-run' })).body.environment.id;
    const automation = (await api.post('/v1/automations', { name: 'Cut', prompt: 'first part\n!sleep 120000', environment_id: env, triggers: [{ type: 'custom', config: {} }] })).body.automation;
    const fired = (await api.post(`/v1/automations/${automation.id}/trigger`, {})).body;
    const id = fired.workspace_id as string;
    const first = await agentStarted(id);

    await createDocker().getContainer(`hangar-ws-${id}`).kill();

    const execution = await until('the run to end', async () => {
      const { executions } = (await api.get(`/v1/automations/${automation.id}/executions`)).body;
      return ['completed', 'failed'].includes(executions[0]?.status) && executions[0];
    }, 120_000, 500);
    expect(execution.status, execution.error).to.equal('completed');
    const messages = (await db('replica_messages').where({ replica_id: id }).orderBy('created_at').select('id', 'chat_id', 'content', 'status', 'error')) as Array<{ id: string; chat_id: string; content: string; status: string; error: string | null }>;
    expect(messages.map((m) => [m.id === first.id, m.chat_id === first.chat_id, m.status])).to.deep.equal([
      [true, true, 'interrupted'],
      [false, true, 'completed'],
    ]);
    expect(messages[1]!.content).to.equal(CONTINUE_PROMPT);
    const said = await db('replica_agent_events').where({ message_id: messages[1]!.id, type: 'agent_1-assistant' }).orderBy('id').select('payload');
    expect(said.map((e: { payload: any }) => e.payload.message.content[0].text)).to.include('turn 2 (1 earlier)');
    // The run's path through its continuation, for the replay tests.
    if (process.env.HANGAR_RECORD_HISTORIES) await recordPath(harness().temporal.address, 'automationRunWorkflow', automationRunWorkflowId(execution.id), 'continues-cut-turn');
    expect((await api.delete(`/v1/replica/${id}`)).status).to.equal(200);
  });
});
