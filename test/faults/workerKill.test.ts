/**
 * kill -9 of the worker process while runs are in flight: some workspaces being created, some
 * agent turns running (the real agent_1 CLI, its turns longer than a worker's restart and the
 * heartbeat timeout together). A new worker takes over: the turns that ran at the kill are
 * followed on to their end, so every accepted webhook has exactly one execution and one
 * workspace and every run completes; nothing is left pending, creating, running or queued, every
 * workspace takes its next message (no workflow wedged), and deleting the workspaces leaves no
 * container behind.
 */
import { expect } from 'chai';
import { cluster } from './support/cluster';
import { automationWith, deleteWorkspaces, nextMessagesRun, report, sendBatch, settled, snapshot, turnsRunning } from './support/traffic';

const RUNS = Number(process.env.HANGAR_FAULT_RUNS ?? 20);

describe('faults: kill -9 of the worker with runs in flight', function () {
  this.timeout(600_000);

  it('completes every run, the turns that ran at the kill followed on by the next worker, none stuck, no container behind', async () => {
    const { key, organizationId, automation } = await automationWith('!sleep 30000', 'worker-kill');
    // Half the runs reach their agent; the other half are sent just before the kill, so their
    // workspaces are being made when the worker dies.
    const first = await sendBatch(automation.webhook_token, 0, RUNS / 2);
    await turnsRunning(automation.id, organizationId, 2);
    const second = await sendBatch(automation.webhook_token, RUNS / 2, RUNS / 2);
    const atKill = await snapshot(automation.id, organizationId);
    await cluster().killWorker();
    await cluster().startWorker();
    const accepted = [...first, ...second].filter((s) => s === 202).length;
    expect(accepted, `answers: ${[...first, ...second].join(',')}`).to.equal(RUNS);

    const counts = await settled(automation.id, organizationId, accepted, 400_000);
    const next = await nextMessagesRun(key, counts.replicaIds, 180_000);
    report('worker kill', { sent: RUNS, accepted, atKill, executions: counts.byStatus, workspaces: counts.workspaces, turns: counts.turns, nextMessages: next });
    expect(atKill.turns.running, 'the premise: turns ran at the kill').to.be.at.least(2);
    expect(counts.executions).to.equal(accepted);
    expect(counts.workspaces).to.equal(accepted);
    expect(counts.executionWorkspaces).to.equal(accepted);
    expect(counts.unfinished).to.equal(0);
    expect(counts.preparing).to.equal(0);
    expect(counts.maxTurnsPerWorkspace).to.equal(1);
    expect(counts.byStatus).to.deep.equal({ completed: accepted });
    expect(counts.turns).to.deep.equal({ completed: accepted });
    expect(next).to.deep.equal({ completed: accepted });

    await deleteWorkspaces(key, counts.replicaIds, 120_000);
  });
});
