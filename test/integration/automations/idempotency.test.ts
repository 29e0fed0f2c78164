/**
 * The crash windows of a run, replayed deliberately: each activity is run a second time as
 * Temporal would retry it after a worker died just before its result was recorded (with the
 * write that recorded it lost too, where there is one). Real database, real fake-GitHub API;
 * only the activity context is a mock.
 */
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { createAutomationCheckActivities } from '../../../activities/automationChecks';
import { createAutomationEventActivities } from '../../../activities/automationEvents';
import { createAutomationRunActivities } from '../../../activities/automationRuns';
import { createWorkspaceRecords } from '../../../src/worker/workspaceRecords';
import { createGithubChecksClient } from '../../../src/integrations/github/checks';
import { createAutomationInbox } from '../../../src/services/automations/inbox';
import { createLogger } from '../../../src/logger';
import { createSecretBox } from '../../../src/crypto/secretBox';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { fakeGithub, harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import type { RunWorkspace } from '../../../workflows/shared';
import { CUSTOM, PR_OPENED } from './support';

const db = () => harness().database.db;
const logger = createLogger({ level: 'error', write: () => undefined });
const retried = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, ...args: A) => new MockActivityEnvironment({ attempt: 2 }).run(fn, ...args);

async function setup(triggers: unknown[], extra: Record<string, unknown> = {}) {
  const org = await newOrg('idempotency');
  const api = as(org.org_api_key);
  const env = (await db()('environments').where({ organization_id: org.organization_id, is_global: true }).first('id')).id;
  const automation = (await api.post('/v1/automations', { name: 'Once', prompt: 'Say hi.', environment_id: env, triggers, ...extra })).body.automation;
  expect(automation, 'created').to.have.property('id');
  return { org, api, automation };
}

async function pendingExecution(automationId: string, organizationId: string, payload: Record<string, unknown> = {}) {
  const id = randomUUID();
  await db()('automation_executions').insert({ id, automation_id: automationId, organization_id: organizationId, trigger_payload: JSON.stringify(payload), status: 'creating', config: '{}' });
  return id;
}

describe('automation runs survive retried activities', function () {
  this.timeout(120_000);

  it('a workspace created but not recorded before the worker died is found again, not created twice', async () => {
    const { org, api, automation } = await setup([CUSTOM]);
    const { config, database } = harness();
    const records = createWorkspaceRecords({
      repos: database.repos,
      secretBox: createSecretBox(config.encryptionKeys),
      events: createReplicaEventEmitter(database.repos.replicaEvents, database.bus),
      timings: { idleMs: config.workspaceIdleMs, archiveAfterMs: config.workspaceArchiveAfterMs, historyLimit: config.workspaceHistoryLimit },
    });
    const runs = createAutomationRunActivities({ repos: database.repos, records, logger });
    const executionId = await pendingExecution(automation.id, org.organization_id);
    const first = ((await retried(runs.createRunWorkspace, executionId)) as RunWorkspace).workspace.replicaId;
    // The worker "died" after writing the workspace: the execution never learnt its id.
    await db()('automation_executions').where({ id: executionId }).update({ workspace_id: null, status: 'creating' });
    const second = ((await retried(runs.createRunWorkspace, executionId)) as RunWorkspace).workspace.replicaId;
    expect(second).to.equal(first);
    const workspaces = await db()('replicas').where({ organization_id: org.organization_id });
    expect(workspaces.map((w) => w.id)).to.deep.equal([first]);
    expect(await db()('replica_messages').where({ replica_id: first })).to.have.length(1);
    await api.delete(`/v1/replica/${first}`);
  });

  it('a check created but not recorded is found by its external id, not created twice', async () => {
    const { org, automation } = await setup([PR_OPENED], { vcs_check_names: ['hangar/once'] });
    const github = fakeGithub();
    const checks = createAutomationCheckActivities({
      repos: harness().database.repos,
      github: createGithubChecksClient({ apiUrl: github.url, appId: github.appId, privateKeyPem: github.privateKeyPem }),
      logger,
    });
    const headSha = randomUUID().replace(/-/g, '').padEnd(40, 'a');
    const repo = await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/acme/once-${randomUUID()}` });
    const payload = { provider: 'github', repository: { full_name: 'acme/once' }, pull_request: { number: 3, head: { sha: headSha } }, repository_id: repo.id, installation_id: 9 };
    const executionId = await pendingExecution(automation.id, org.organization_id, payload);
    // The run came from that pull request's event: only such a run reports checks.
    await db()('automation_events').insert({ automation_id: automation.id, debounce_key: `pr:${repo.id}:3`, execution_id: executionId, payload: JSON.stringify(payload) });
    expect(await retried(checks.openRunChecks, executionId)).to.equal(1);
    await db()('automation_checks').where({ execution_id: executionId }).delete();
    expect(await retried(checks.openRunChecks, executionId)).to.equal(1);
    const posts = github.calls.filter((c) => c.method === 'POST' && c.path === '/repos/acme/once/check-runs');
    expect(posts).to.have.length(1);
    expect(await retried(checks.completeRunChecks, executionId, true, null)).to.equal(1);
    // Completed: a retry has nothing left to complete.
    expect(await retried(checks.completeRunChecks, executionId, true, null)).to.equal(0);
    expect([...github.checkRuns.values()].filter((r) => r.head_sha === headSha).map((r) => [r.status, r.conclusion])).to.deep.equal([['completed', 'success']]);
  });

  it('a debounce window closed but not acknowledged returns the same execution when closed again', async () => {
    const { org, automation } = await setup([CUSTOM], { debounce_seconds: 1 });
    const key = { automation_id: automation.id, debounce_key: 'custom', window_no: 1 };
    await db()('automation_debounce_windows').insert(key);
    await db()('automation_events').insert([
      { ...key, payload: JSON.stringify({ n: 1 }), received_at: db().raw("clock_timestamp() - interval '5 seconds'") },
      { ...key, payload: JSON.stringify({ n: 2 }), received_at: db().raw("clock_timestamp() - interval '5 seconds'") },
    ]);
    const events = createAutomationEventActivities({ repos: harness().database.repos, logger });
    const input = { automationId: automation.id, debounceKey: 'custom', windowNo: 1, executionId: randomUUID() };
    const first = await retried(events.closeDebounceWindow, input);
    const second = await retried(events.closeDebounceWindow, input);
    expect(first).to.deep.equal({ state: 'closed', executionId: input.executionId });
    expect(second).to.deep.equal(first);
    const executions = await db()('automation_executions').where({ automation_id: automation.id });
    expect(executions.map((e) => [e.id, e.trigger_payload, e.organization_id])).to.deep.equal([[input.executionId, { n: 2 }, org.organization_id]]);
  });

  it('answers without waiting out a Temporal that does not answer: the events are committed and the starts go on', async () => {
    const { automation } = await setup([CUSTOM]);
    const pending: Array<() => void> = [];
    // Starts that hang, as the Temporal client's do while it retries a cluster that is down.
    const hanging = () => new Promise<void>((resolve) => pending.push(resolve));
    const inbox = createAutomationInbox({ repos: harness().database.repos, temporal: { startAutomationRun: hanging, startDebounceWindow: hanging }, logger, startWaitMs: 300 });
    // The starts never answer: that accept returns at all is the point (it gives up after startWaitMs).
    const direct = await inbox.accept([{ automationId: automation.id, key: 'custom', payload: { n: 1 }, trigger: 'custom' }]);
    expect(pending).to.have.length(1);
    const execution = await db()('automation_executions').where({ id: (direct.accepted[0] as { executionId: string }).executionId }).first();
    expect(execution).to.deep.include({ automation_id: automation.id, trigger_payload: { n: 1 } });
    for (const resolve of pending) resolve();
  });

  it('accepts events while Temporal cannot be reached, and their workflows start once it can', async () => {
    const { org, automation } = await setup([CUSTOM], { debounce_seconds: 1 });
    const { org: otherOrg, automation: immediate } = await setup([CUSTOM]);
    const unreachable = async () => {
      throw new Error('Temporal is unreachable');
    };
    // The API's inbox, with its Temporal calls failing as they do while the cluster is down.
    const inbox = createAutomationInbox({ repos: harness().database.repos, temporal: { startAutomationRun: unreachable, startDebounceWindow: unreachable }, logger });
    const windowed = await inbox.accept([{ automationId: automation.id, key: 'custom', payload: { n: 1 }, trigger: 'custom' }]);
    const joined = await inbox.accept([{ automationId: automation.id, key: 'custom', payload: { n: 2 }, trigger: 'custom' }]);
    const direct = await inbox.accept([{ automationId: immediate.id, key: 'custom', payload: { n: 3 }, trigger: 'custom' }]);
    expect(windowed.accepted).to.deep.equal([{ windowNo: 1, opened: true }]);
    expect(joined.accepted).to.deep.equal([{ windowNo: 1, opened: false }]);
    expect(direct.accepted[0]).to.have.property('executionId');

    // The worker's sweeper starts what was left unstarted: one run per window, one per direct event.
    const window = await until('the window to close', async () => {
      const w = await db()('automation_debounce_windows').where({ automation_id: automation.id }).first();
      return w?.state === 'closed' ? w : undefined;
    }, 30_000, 200);
    expect(window.event_count).to.equal(2);
    const executions = await db()('automation_executions').whereIn('automation_id', [automation.id, immediate.id]);
    expect(executions.map((e) => e.trigger_payload)).to.have.deep.members([{ n: 2 }, { n: 3 }]);
    await until('both runs to begin', async () => {
      const rows = await db()('automation_executions').whereIn('automation_id', [automation.id, immediate.id]).pluck('status');
      return rows.length === 2 && rows.every((st) => st !== 'pending');
    }, 30_000, 200);
    const keyOf = { [automation.id]: org.org_api_key, [immediate.id]: otherOrg.org_api_key };
    const created = await until('both workspaces', async () => {
      const rows = (await db()('automation_executions').whereIn('automation_id', [automation.id, immediate.id])).filter((e) => e.workspace_id);
      return rows.length === 2 ? rows : undefined;
    }, 60_000, 200);
    for (const e of created) expect((await as(keyOf[e.automation_id]!).delete(`/v1/replica/${e.workspace_id}`)).status).to.equal(200);
  });
});
