import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';

describe('automation schedules: the cron loop', function () {
  this.timeout(180_000);

  it('fires a schedule due within a minute, runs it, moves the next fire time, and ends with the automation', async () => {
    const org = await newOrg();
    const api = as(org.org_api_key);
    const created = await api.post('/v1/automations', {
      name: 'every minute',
      prompt: '!write cron.txt fired',
      environment_id: org.global_environment_id,
      triggers: [{ type: 'cron', config: { schedule: '* * * * *', timezone: 'Europe/Berlin' } }],
    });
    expect(created.status).to.equal(201);
    const id = created.body.automation.id;
    const { db } = harness().database;

    const execution = await until('a cron fire to run to completion', async () => {
      const row = await db('automation_executions').where({ automation_id: id }).whereRaw("trigger_payload->>'trigger' = 'cron'").first();
      return row?.status === 'completed' ? row : undefined;
    }, 150_000);
    expect(execution.trigger_payload).to.include({ trigger: 'cron', schedule: '* * * * *', timezone: 'Europe/Berlin' });
    expect(new Date(execution.trigger_payload.scheduled_at).getUTCSeconds()).to.equal(0);
    const replica = await db('replicas').where({ id: execution.workspace_id }).first();
    expect(replica.source).to.equal('automation');
    const next = (await api.get(`/v1/automations/${id}`)).body.automation.cron_next_fire_at;
    expect(new Date(next).getTime()).to.be.greaterThan(new Date(execution.trigger_payload.scheduled_at).getTime());

    // Deleting the automation stops its loop.
    expect((await api.delete(`/v1/automations/${id}`)).status).to.equal(200);
    const connection = await Connection.connect({ address: harness().temporal.address });
    try {
      const handle = new Client({ connection }).workflow.getHandle(`automation/${id}`);
      await until('the schedule loop to end', async () => (await handle.describe()).status.name === 'TERMINATED', 30_000);
    } finally {
      await connection.close();
    }
    await api.delete(`/v1/replica/${execution.workspace_id}`);
  });
});
