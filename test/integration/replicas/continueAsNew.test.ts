import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { createDocker } from '../../../src/sandbox';
import { harness } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';

describe('replicas: the workspace workflow keeps its history bounded', function () {
  this.timeout(240_000);

  it('continues as new past the history limit and keeps serving the same workspace', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const created = await request('POST', '/v1/replica', {
      key: org.org_api_key,
      headers: { 'X-Api-Version': '2026-05-17' },
      body: { name: 'long-lived', message: '!write turn-0.txt 0' },
    });
    const id = created.body.replica.id;
    const { db } = harness().database;
    const finished = (messageId: string) =>
      until('the turn to finish', async () => ['completed', 'failed'].includes((await db('replica_messages').where({ id: messageId }).first())?.status), 60_000);
    const connection = await Connection.connect({ address: harness().temporal.address });
    const client = new Client({ connection });
    const runs = async () => {
      let count = 0;
      for await (const _ of client.workflow.list({ query: `WorkflowId = 'workspace/${id}'` })) count++;
      return count;
    };
    try {
      // Each turn adds history; the limit (50 events in tests) forces continue-as-new.
      await finished((await db('replica_messages').where({ replica_id: id }).first()).id);
      for (let turn = 1; (await runs()) < 2; turn++) {
        expect(turn, 'the workflow never continued as new').to.be.below(20);
        const sent = await api.post(`/v1/replica/${id}/messages`, { message: `!write turn-${turn}.txt ${turn}` });
        await finished(sent.body.message_id);
        // Give the idle workflow its chance to hand over before the next message.
        await until('the workflow to be idle', async () => (await client.workflow.getHandle(`workspace/${id}`).query<{ runningChats: string[] }>('state')).runningChats.length === 0);
      }
      // The new run still owns the workspace: a message after the hand-over is acted on.
      await api.post(`/v1/replica/${id}/messages`, { message: '!write after.txt continued' });
      const container = createDocker().getContainer(`hangar-ws-${id}`);
      await until('the agent to act after continue-as-new', async () => {
        const exec = await container.exec({ Cmd: ['test', '-f', '/home/hangar/after.txt'], User: '1000', AttachStdout: true });
        const stream = await exec.start({});
        await new Promise((resolve) => stream.on('end', resolve).resume());
        return (await exec.inspect()).ExitCode === 0;
      }, 60_000);
      expect((await api.get(`/v1/replica/${id}`)).body.replica.status).to.equal('active');
    } finally {
      await connection.close();
      await api.delete(`/v1/replica/${id}`);
    }
  });
});
