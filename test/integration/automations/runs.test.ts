/**
 * Automation runs through the public API with real PostgreSQL, Temporal and Docker: a manual
 * trigger records an execution and starts `run/{executionId}`, which creates a workspace
 * (source `automation`) whose first message is the prompt plus the trigger payload; the
 * hangar-test-agent really runs it and the execution ends completed (or failed, with the
 * agent's error). Run history, fresh workspaces per fire and the access rules.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { CUSTOM } from './support';

const db = () => harness().database.db;

async function execution(id: string) {
  return db()('automation_executions').where({ id }).first();
}

/** The organization's Global environment (automations take its id, not the alias). */
async function globalEnv(organizationId: string): Promise<string> {
  return (await db()('environments').where({ organization_id: organizationId, is_global: true }).first('id')).id;
}

async function finished(id: string) {
  return until(`execution ${id} to finish`, async () => {
    const e = await execution(id);
    return e && (e.status === 'completed' || e.status === 'failed') ? e : undefined;
  }, 150_000, 500);
}

describe('automation runs: manual trigger and run history', function () {
  this.timeout(300_000);
  const created: Array<{ key: string; id: string }> = [];

  after(async () => {
    for (const r of created) await as(r.key).delete(`/v1/replica/${r.id}`);
  });

  it('runs the prompt with the trigger payload in a new automation workspace per fire, and lists executions', async () => {
    const org = await newOrg('runs');
    const api = as(org.org_api_key);
    const env = await globalEnv(org.organization_id);
    const automation = (
      await api.post('/v1/automations', { name: 'Writer', prompt: '!write ran.txt from-automation', environment_id: env, triggers: [CUSTOM], workspace_auto_stop_minutes: 3 })
    ).body.automation;
    expect(automation, 'automation created').to.have.property('id');

    const payload = { ticket: 'ENG-7', nested: { n: 1 } };
    const fired = await api.post(`/v1/automations/${automation.id}/trigger`, { payload });
    expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
    expect(Object.keys(fired.body).sort()).to.deep.equal(['execution_id', 'workspace_id']);
    const { execution_id: executionId, workspace_id: workspaceId } = fired.body;
    expect(workspaceId, 'workspace recorded within the wait').to.be.a('string');
    created.push({ key: org.org_api_key, id: workspaceId });

    const done = await finished(executionId);
    expect(done.status, done.error).to.equal('completed');
    expect(done.error).to.equal(null);
    expect(done.completed_at).to.be.instanceOf(Date);
    expect(done.workspace_id).to.equal(workspaceId);

    // workspace_auto_stop_minutes is the workspace's inactivity timeout.
    const connection = await Connection.connect({ address: harness().temporal.address });
    try {
      const history = await new Client({ connection }).workflow.getHandle(`workspace/${workspaceId}`).fetchHistory();
      const [input] = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
      expect(defaultPayloadConverter.fromPayload<{ idleMs: number }>(input!).idleMs).to.equal(3 * 60_000);
    } finally {
      await connection.close();
    }

    const replica = await db()('replicas').where({ id: workspaceId }).first();
    expect(replica).to.include({ source: 'automation', organization_id: org.organization_id, user_id: null, lifecycle_policy: 'default', size: 'small' });
    expect(replica.config).to.deep.include({ capabilities: { pr_followups: false, read_only_contents: false } });
    const [first] = await db()('replica_messages').where({ replica_id: workspaceId }).orderBy('created_at');
    expect(first.status).to.equal('completed');
    expect(first.content).to.include('!write ran.txt from-automation');
    expect(first.content).to.include('## Trigger Payload');
    // The payload as JSON in a fenced block (key order is jsonb's, so compare parsed).
    const block = /## Trigger Payload\n\n```json\n([\s\S]*?)\n```/.exec(first.content);
    expect(block, first.content).to.not.equal(null);
    expect(JSON.parse(block![1]!)).to.deep.equal(payload);

    const list = await api.get(`/v1/automations/${automation.id}/executions`);
    expect(list.status).to.equal(200);
    expect(list.body).to.include({ total: 1, page: 1, limit: 20, totalPages: 1 });
    expect(list.body.executions[0]).to.deep.include({
      id: executionId,
      automation_id: automation.id,
      organization_id: org.organization_id,
      workspace_id: workspaceId,
      trigger_payload: payload,
      status: 'completed',
      error: null,
    });
    expect(Object.keys(list.body.executions[0]).sort()).to.deep.equal(
      ['id', 'automation_id', 'organization_id', 'workspace_id', 'triggered_at', 'trigger_payload', 'status', 'config', 'error', 'completed_at'].sort(),
    );

    // A second fire (no body at all) is a new execution with a new workspace; no payload section.
    const again = await api.post(`/v1/automations/${automation.id}/trigger`);
    expect(again.status, JSON.stringify(again.body)).to.equal(200);
    expect(again.body.execution_id).to.not.equal(executionId);
    const second = await finished(again.body.execution_id);
    created.push({ key: org.org_api_key, id: second.workspace_id });
    expect(second.status, second.error).to.equal('completed');
    expect(second.workspace_id).to.be.a('string').and.not.equal(workspaceId);
    const [secondFirst] = await db()('replica_messages').where({ replica_id: second.workspace_id }).orderBy('created_at');
    expect(secondFirst.content).to.not.include('## Trigger Payload');

    const both = (await api.get(`/v1/automations/${automation.id}/executions?limit=1`)).body;
    expect(both).to.include({ total: 2, page: 1, limit: 1, totalPages: 2 });
    expect(both.executions.map((e: { id: string }) => e.id)).to.deep.equal([again.body.execution_id]);
  });

  it('ends a failing run failed with the agent\'s error', async () => {
    const org = await newOrg('runs-fail');
    const api = as(org.org_api_key);
    const env = await globalEnv(org.organization_id);
    const automation = (await api.post('/v1/automations', { name: 'Breaks', prompt: '!fail boom', environment_id: env, triggers: [CUSTOM] })).body.automation;
    const fired = await api.post(`/v1/automations/${automation.id}/trigger`, {});
    expect(fired.status).to.equal(200);
    const done = await finished(fired.body.execution_id);
    if (done.workspace_id) created.push({ key: org.org_api_key, id: done.workspace_id });
    expect(done.status).to.equal('failed');
    expect(done.error).to.include('boom');
    expect(done.completed_at).to.be.instanceOf(Date);
    const list = (await api.get(`/v1/automations/${automation.id}/executions`)).body;
    expect(list.executions[0]).to.include({ status: 'failed' });

    // Circuit breaker: the fifth failure in a row disables the automation (manual fires still run).
    for (let i = 2; i <= 5; i++) {
      expect((await api.get(`/v1/automations/${automation.id}`)).body.automation.enabled, `enabled before failure ${i}`).to.equal(true);
      const again = await api.post(`/v1/automations/${automation.id}/trigger`);
      const run = await finished(again.body.execution_id);
      if (run.workspace_id) created.push({ key: org.org_api_key, id: run.workspace_id });
      expect(run.status).to.equal('failed');
    }
    expect((await api.get(`/v1/automations/${automation.id}`)).body.automation.enabled).to.equal(false);
  });

  it('answers 404 and 403 like the other automation routes', async () => {
    const org = await newOrg('runs-access');
    const other = await newOrg('runs-other');
    const personal = as(org.admin.personal_api_key);
    const env = await globalEnv(org.organization_id);
    const mine = (
      await personal.post('/v1/automations', { name: 'Mine', prompt: 'hi', environment_id: env, triggers: [CUSTOM], scope: 'user' })
    ).body.automation;
    expect(mine.user_id).to.be.a('string');
    const orgAutomation = (await as(org.org_api_key).post('/v1/automations', { name: 'Org', prompt: 'hi', environment_id: env, triggers: [CUSTOM] })).body.automation;

    for (const path of [`/v1/automations/${randomUUID()}`, `/v1/automations/${orgAutomation.id}`]) {
      const key = path.endsWith(orgAutomation.id) ? other.org_api_key : org.org_api_key;
      const t = await as(key).post(`${path}/trigger`, {});
      expect(t.status).to.equal(404);
      expect(errorOf(t).error).to.equal('Automation not found');
      expect((await as(key).get(`${path}/executions`)).status).to.equal(404);
    }
    // An organization key cannot reach a personal automation.
    expect((await as(org.org_api_key).post(`/v1/automations/${mine.id}/trigger`, {})).status).to.equal(403);
    expect((await as(org.org_api_key).get(`/v1/automations/${mine.id}/executions`)).status).to.equal(403);
    // Nothing was recorded by the refused calls.
    // (PostgreSQL answers a count as a string, the embedded database as a number.)
    const [{ n }] = await db()('automation_executions').whereIn('automation_id', [mine.id, orgAutomation.id]).count({ n: '*' });
    expect(Number(n)).to.equal(0);
    // The owner can read its (empty) history.
    const list = await personal.get(`/v1/automations/${mine.id}/executions`);
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.equal({ executions: [], total: 0, page: 1, limit: 20, totalPages: 0 });
  });
});
