/**
 * kill -9 of the Temporal server (file-backed) with runs in flight, webhooks arriving while it
 * is down, and a restart on the same file and port: the same counts as after a worker kill.
 */
import { expect } from 'chai';
import { cluster } from './support/cluster';
import { automationWith, deleteWorkspaces, nextMessagesRun, report, sendBatch, settled, snapshot, turnsRunning } from './support/traffic';

const RUNS = Number(process.env.HANGAR_FAULT_RUNS ?? 20);

describe('faults: kill -9 of the Temporal server with runs in flight', function () {
  this.timeout(600_000);

  it('loses and doubles nothing across the restart on the same data', async () => {
    const { key, organizationId, automation } = await automationWith('!sleep 6000', 'temporal-kill');
    const first = await sendBatch(automation.webhook_token, 0, RUNS / 2);
    await turnsRunning(automation.id, organizationId, 2);
    const second = await sendBatch(automation.webhook_token, RUNS / 2, RUNS / 4);
    const atKill = await snapshot(automation.id, organizationId);
    await cluster().killTemporal();
    // Webhooks while Temporal is down are accepted (committed to the inbox) and answered within
    // the start wait; the sweeper starts their runs once it is back.
    const started = Date.now();
    const during = await sendBatch(automation.webhook_token, RUNS / 2 + RUNS / 4, RUNS / 4);
    const duringMs = Date.now() - started;
    await cluster().startTemporal();
    const answers = [...first, ...second, ...during];
    const accepted = answers.filter((s) => s === 202).length;
    expect(accepted, `answers: ${answers.join(',')}`).to.equal(RUNS);
    // Within GitHub's 10-second delivery timeout, while Temporal cannot be reached.
    expect(duringMs).to.be.below(10_000);

    const counts = await settled(automation.id, organizationId, accepted, 300_000);
    const next = await nextMessagesRun(key, counts.replicaIds, 180_000);
    report('temporal kill', { sent: RUNS, accepted, sentWhileDown: during.length, answeredWhileDownMs: duringMs, atKill, executions: counts.byStatus, workspaces: counts.workspaces, turns: counts.turns, nextMessages: next });
    expect(counts.executions).to.equal(accepted);
    expect(counts.workspaces).to.equal(accepted);
    expect(counts.executionWorkspaces).to.equal(accepted);
    expect(counts.unfinished).to.equal(0);
    expect(counts.preparing).to.equal(0);
    expect(counts.maxTurnsPerWorkspace).to.equal(1);
    expect(next).to.deep.equal({ completed: accepted });

    await deleteWorkspaces(key, counts.replicaIds, 120_000);
  });
});
