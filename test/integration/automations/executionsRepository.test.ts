/**
 * The run bookkeeping the worker calls on `automation_executions`: finishing an execution and
 * the circuit breaker run as one transaction, idempotently.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createAutomationExecutionsRepository } from '../../../src/db/automationExecutionsRepository';
import { CIRCUIT_BREAKER_FAILURES } from '../../../src/domain/automations/run';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { CUSTOM } from './support';

const db = () => harness().database.db;

async function setup() {
  const org = await newOrg('executions-repository');
  const api = as(org.org_api_key);
  const env = (await db()('environments').where({ organization_id: org.organization_id, is_global: true }).first('id')).id;
  const automation = (await api.post('/v1/automations', { name: 'Books', prompt: 'Say hi.', environment_id: env, triggers: [CUSTOM] })).body.automation;
  expect(automation, 'created').to.have.property('id');
  const executions = createAutomationExecutionsRepository(db());
  const pending = async () => {
    const id = randomUUID();
    await executions.insertPending({ id, automationId: automation.id, organizationId: org.organization_id, payload: { n: 1 }, config: {} });
    return id;
  };
  return { api, automation, executions, pending };
}

describe('automation executions repository', function () {
  this.timeout(60_000);

  it('moves an execution through begin, mark and finish once, and ignores what is gone', async () => {
    const { api, automation, executions, pending } = await setup();
    const id = await pending();
    expect(await executions.begin(id)).to.equal(true);
    expect((await executions.find(id))?.status).to.equal('creating');
    expect(await executions.finish(id, true, 'ignored')).to.deep.equal({ finished: true, disabledAutomationId: null });
    const done = await executions.find(id);
    expect(done).to.include({ status: 'completed', error: null });
    expect(done?.completed_at).to.be.instanceOf(Date);
    // Finished: neither a second finish nor a mark changes it.
    expect(await executions.finish(id, false, 'late')).to.deep.equal({ finished: false, disabledAutomationId: null });
    await executions.mark(id, 'running');
    expect((await executions.find(id))?.status).to.equal('completed');

    const gone = randomUUID();
    expect(await executions.begin(gone)).to.equal(false);
    expect(await executions.find(gone)).to.equal(null);
    expect(await executions.finish(gone, false, null)).to.deep.equal({ finished: false, disabledAutomationId: null });
    await api.delete(`/v1/automations/${automation.id}`);
  });

  it(`disables the automation on the ${CIRCUIT_BREAKER_FAILURES}th failure in a row, in the finish that trips it`, async () => {
    const { api, automation, executions, pending } = await setup();
    const answers = [];
    for (let i = 0; i < CIRCUIT_BREAKER_FAILURES; i++) answers.push(await executions.finish(await pending(), false, i === 0 ? null : 'boom'));
    expect(answers.map((a) => a.finished)).to.deep.equal(Array(CIRCUIT_BREAKER_FAILURES).fill(true));
    expect(answers.map((a) => a.disabledAutomationId)).to.deep.equal([...Array(CIRCUIT_BREAKER_FAILURES - 1).fill(null), automation.id]);
    expect((await db()('automations').where({ id: automation.id }).first('enabled')).enabled).to.equal(false);
    const first = (await executions.listForAutomation(automation.id, automation.organization_id, { limit: 100, offset: 0 })).rows;
    expect(first.map((e) => e.error)).to.have.members(['the run failed', 'boom', 'boom', 'boom', 'boom']);
    // Already disabled: a further failure disables nothing again.
    expect(await executions.finish(await pending(), false, 'boom')).to.deep.equal({ finished: true, disabledAutomationId: null });
    await api.delete(`/v1/automations/${automation.id}`);
  });

  it('does not count interrupted turns (a lost or stopped worker) toward the breaker, nor let them break a streak', async () => {
    const { api, automation, executions, pending } = await setup();
    const fail = async (interrupted: boolean) => executions.finish(await pending(), false, interrupted ? 'the worker running this turn was lost' : 'boom', undefined, { interrupted });
    // Interrupted runs alone, far past the limit: the automation stays enabled.
    for (let i = 0; i < CIRCUIT_BREAKER_FAILURES * 2; i++) expect((await fail(true)).disabledAutomationId).to.equal(null);
    expect((await db()('automations').where({ id: automation.id }).first('enabled')).enabled).to.equal(true);
    // Real failures with interrupted ones between them still make a streak: the last real one trips it.
    const answers = [];
    for (let i = 0; i < CIRCUIT_BREAKER_FAILURES; i++) {
      answers.push(await fail(false));
      if (i < CIRCUIT_BREAKER_FAILURES - 1) expect((await fail(true)).disabledAutomationId).to.equal(null);
    }
    expect(answers.map((a) => a.disabledAutomationId)).to.deep.equal([...Array(CIRCUIT_BREAKER_FAILURES - 1).fill(null), automation.id]);
    const rows = await db()('automation_executions').where({ automation_id: automation.id }).select('status', 'interrupted');
    expect(rows.filter((r) => r.interrupted)).to.have.length(CIRCUIT_BREAKER_FAILURES * 2 + CIRCUIT_BREAKER_FAILURES - 1);
    expect(rows.every((r) => r.status === 'failed')).to.equal(true);
    await api.delete(`/v1/automations/${automation.id}`);
  });
});
