/**
 * The workspace workflow (`workflows/workspace.ts`) run for real on a local Temporal dev
 * server, with fake activities (test/workflows/support/workspaceHarness.ts): what it asks the
 * activities to do, on which host's queue, what it tells the runs waiting on it, and what its
 * state query answers. No Docker, no database.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import { workflowBundle } from '../../src/temporal/worker';
import { sdkLogs, startServer, until, WorkspaceTest } from './support/workspaceHarness';

describe('workspace workflow on a Temporal dev server, with fake activities', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let t: WorkspaceTest;
  let logsFrom = 0;

  before(async function () {
    this.timeout(180_000);
    env = await startServer();
    await workflowBundle();
  });

  after(async function () {
    this.timeout(60_000);
    await env?.teardown();
  });

  beforeEach(() => {
    t = new WorkspaceTest(env);
    logsFrom = sdkLogs.length;
  });

  afterEach(async function () {
    this.timeout(60_000);
    if (this.currentTest?.state === 'failed') {
      console.error('activity calls:', JSON.stringify(t.world.calls, null, 1));
      console.error('sdk logs:', sdkLogs.slice(logsFrom).map((e) => `${e.level} ${e.message} ${JSON.stringify(e.meta ?? {})}`).join('\n'));
    }
    await t.close();
  });

  it('places a new workspace on a host, provisions it there and runs its first chat turn on that host', async () => {
    t.world.placement = t.world.host('a');
    t.world.queue('c1', { id: 'm1' });
    await t.startSharedWorker();
    await t.startHostWorker('a');
    const run = await t.startListener('automation');
    const ws = await t.startWorkspace(t.input({ firstChatId: 'c1', reportTo: { workflowId: run.workflowId, messageId: 'm1' } }));

    expect(await run.hears(1)).to.deep.equal([{ ok: true, error: null }]);
    await ws.stateBecomes({ status: 'active', pendingChats: [], runningChats: [] });
    await until('the turn to be relayed to its threads', async () => t.world.callsTo('relayTurn').length === 1);
    const hostQueue = `${t.taskQueue}@a`;
    expect(t.world.callsTo('placeWorkspace').map((c) => [c.args, c.taskQueue])).to.deep.equal([[{ replicaId: t.replicaId }, t.taskQueue]]);
    expect(t.world.callsTo('provisionWorkspace').map((c) => [c.args, c.taskQueue])).to.deep.equal([[{ replicaId: t.replicaId }, hostQueue]]);
    expect(t.world.turnsRun).to.deep.equal([{ chatId: 'c1', messageId: 'm1', taskQueue: hostQueue }]);
    expect(t.world.statuses()).to.deep.equal([{ status: 'active' }]);
  });
});
