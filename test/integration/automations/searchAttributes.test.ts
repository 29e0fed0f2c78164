/**
 * What an operator sees in the Temporal UI: every workflow Hangar starts carries its
 * organization (and automation, execution, replica and trigger where it has one) as search
 * attributes, plus human names in the memo. Runs are fired by the manual trigger and found
 * through the dev server's visibility, which is eventually consistent (polled with a deadline).
 */
import { Client, Connection, type WorkflowExecutionInfo } from '@temporalio/client';
import { expect } from 'chai';
import { SEARCH_ATTRIBUTES } from '../../../workflows/shared';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { CUSTOM } from './support';

describe('automations: Temporal search attributes and memo', function () {
  this.timeout(300_000);
  let connection: Connection;
  let client: Client;
  const replicas: Array<{ key: string; id: string }> = [];

  before(async () => {
    connection = await Connection.connect({ address: harness().temporal.address });
    client = new Client({ connection, namespace: harness().config.temporalNamespace });
  });

  after(async () => {
    for (const r of replicas) await as(r.key).delete(`/v1/replica/${r.id}`);
    await connection?.close();
  });

  async function list(query: string): Promise<WorkflowExecutionInfo[]> {
    const found: WorkflowExecutionInfo[] = [];
    for await (const info of client.workflow.list({ query })) found.push(info);
    return found;
  }

  /** The executions `query` finds once every one of `ids` is visible (waits for visibility). */
  async function listed(query: string, ids: string[]): Promise<Map<string, WorkflowExecutionInfo>> {
    return until(`${query} to list ${ids.join(', ')}`, async () => {
      const found = new Map((await list(query)).map((info) => [info.workflowId, info]));
      return ids.every((id) => found.has(id)) ? found : undefined;
    }, 60_000, 500);
  }

  async function globalEnv(organizationId: string): Promise<string> {
    return (await harness().database.db('environments').where({ organization_id: organizationId, is_global: true }).first('id')).id;
  }

  async function automationIn(org: { organization_id: string; org_api_key: string }, name: string) {
    const created = await as(org.org_api_key).post('/v1/automations', {
      name,
      prompt: '!write seen.txt searchable',
      environment_id: await globalEnv(org.organization_id),
      triggers: [CUSTOM],
      workspace_auto_stop_minutes: 3,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.automation as { id: string };
  }

  it('finds an automation\'s runs and their workspaces by automation, by organization and by replica', async () => {
    const org = await newOrg('search-attributes');
    const other = await newOrg('search-attributes-other');
    const automation = await automationIn(org, 'Searchable writer');
    const sibling = await automationIn(org, 'Sibling');
    const foreign = await automationIn(other, 'Foreign');

    const fires: Array<{ executionId: string; workspaceId: string }> = [];
    for (let i = 0; i < 2; i++) {
      const fired = await as(org.org_api_key).post(`/v1/automations/${automation.id}/trigger`, {});
      expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
      expect(fired.body.workspace_id, 'workspace recorded within the wait').to.be.a('string');
      replicas.push({ key: org.org_api_key, id: fired.body.workspace_id });
      fires.push({ executionId: fired.body.execution_id, workspaceId: fired.body.workspace_id });
    }
    const runIds = fires.map((f) => `run/${f.executionId}`);
    const workspaceIds = fires.map((f) => `workspace/${f.workspaceId}`);

    // By automation: its schedule loop, both runs and the workspaces they started, nothing else.
    const mine = [`automation/${automation.id}`, ...runIds, ...workspaceIds];
    const byAutomation = await listed(`HangarAutomationId = "${automation.id}"`, mine);
    expect([...byAutomation.keys()].sort()).to.deep.equal([...mine].sort());
    for (const [i, { executionId }] of fires.entries()) {
      const run = byAutomation.get(runIds[i]!)!;
      expect(run.type).to.equal('automationRunWorkflow');
      expect(run.typedSearchAttributes.get(SEARCH_ATTRIBUTES.organizationId)).to.equal(org.organization_id);
      expect(run.typedSearchAttributes.get(SEARCH_ATTRIBUTES.executionId)).to.equal(executionId);
      expect(run.typedSearchAttributes.get(SEARCH_ATTRIBUTES.trigger)).to.equal('manual');
      expect(run.memo).to.deep.equal({ automationName: 'Searchable writer' });
    }
    const manualRuns = await listed(`HangarAutomationId = "${automation.id}" AND HangarTrigger = "manual" AND WorkflowType = "automationRunWorkflow"`, runIds);
    expect([...manualRuns.keys()].sort()).to.deep.equal([...runIds].sort());

    // By organization: the sibling automation's loop too, never another organization's.
    const byOrganization = await listed(`HangarOrganizationId = "${org.organization_id}"`, [...mine, `automation/${sibling.id}`]);
    expect(byOrganization.has(`automation/${foreign.id}`), 'another organization\'s workflow').to.equal(false);
    const theirs = await listed(`HangarOrganizationId = "${other.organization_id}"`, [`automation/${foreign.id}`]);
    expect([...theirs.keys()]).to.deep.equal([`automation/${foreign.id}`]);
    expect(theirs.get(`automation/${foreign.id}`)!.memo).to.deep.equal({ automationName: 'Foreign' });

    // By replica: the workspace's workflow, labelled with the run that made it.
    const { workspaceId, executionId } = fires[0]!;
    const byReplica = await listed(`HangarReplicaId = "${workspaceId}"`, [`workspace/${workspaceId}`]);
    expect([...byReplica.keys()]).to.deep.equal([`workspace/${workspaceId}`]);
    const workspace = byReplica.get(`workspace/${workspaceId}`)!;
    expect(workspace.type).to.equal('workspaceWorkflow');
    const labels = Object.fromEntries(workspace.typedSearchAttributes.getAll().map((pair) => [pair.key.name, pair.value]));
    expect(labels).to.include({
      HangarOrganizationId: org.organization_id,
      HangarAutomationId: automation.id,
      HangarExecutionId: executionId,
      HangarReplicaId: workspaceId,
      HangarTrigger: 'manual',
    });
    expect(workspace.memo).to.deep.equal({ automationName: 'Searchable writer' });
  });
});
