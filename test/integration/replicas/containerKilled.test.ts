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

const V = { 'X-Api-Version': '2026-05-17' };

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
    const first = await until('the first turn to run its agent', async () =>
      (await db('replica_messages').where({ replica_id: id, status: 'running' }).whereNotNull('agent_session').first()) as { id: string } | undefined, 120_000, 250);
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
});
