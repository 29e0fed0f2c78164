/**
 * SIGTERM of the worker during agent turns, as an orchestrator stops it for a deploy. The turns
 * (the real agent_1 CLI) last longer than the grace period (HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS,
 * 15 s here): the worker hands them over and exits without waiting for them, their agents go on
 * in their workspaces, and a new worker follows each to its end. Every run completes, none is
 * interrupted or counted by the circuit breaker, each workspace runs its next message, and the
 * automation keeps firing.
 */
import { expect } from 'chai';
import { CIRCUIT_BREAKER_FAILURES } from '../../src/domain/automations/run';
import { until } from '../support/wait';
import { cluster } from './support/cluster';
import { automationWith, call, countsFor, deleteWorkspaces, deliver, nextMessagesRun, report, sendBatch, settled, turnsRunning } from './support/traffic';

/** As many as trip the circuit breaker, were the handed-over runs counted as the automation's failures. */
const RUNS = CIRCUIT_BREAKER_FAILURES;
const TURN_MS = 60_000;
const all202 = (n: number) => Array.from({ length: n }, () => 202);

describe('faults: SIGTERM of the worker during agent turns', function () {
  this.timeout(600_000);

  it('hands the running turns over at once, and the next worker follows each to its end', async () => {
    const grace = Number(cluster().env.HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS) * 1000;
    expect(TURN_MS, 'the premise: the turns outlast the grace period').to.be.above(grace);
    const { key, organizationId, automation } = await automationWith(`!sleep ${TURN_MS}`, 'stop');
    expect(await sendBatch(automation.webhook_token, 0, RUNS)).to.deep.equal(all202(RUNS));
    await turnsRunning(automation.id, organizationId, RUNS);

    const stopping = Date.now();
    const exit = await cluster().stopWorker();
    const stoppedMs = Date.now() - stopping;
    expect(exit.code, cluster().worker!.output().slice(-3000)).to.equal(0);
    // The turns were handed over, not waited for: the worker is gone while they still run.
    const atStop = await countsFor(automation.id, organizationId);
    await cluster().startWorker();

    const done = await settled(automation.id, organizationId, RUNS, 300_000);
    const next = await nextMessagesRun(key, done.replicaIds, 120_000);
    const enabled = (await call(key, 'GET', `/v1/automations/${automation.id}`)).body.automation.enabled;
    const again = await deliver(automation.webhook_token, { n: 'after' });
    report('worker SIGTERM', { graceMs: grace, turnMs: TURN_MS, stoppedInMs: stoppedMs, turnsAtStop: atStop.turns, executions: done.byStatus, turns: done.turns, next, enabledAfter: enabled, webhookAfter: again });
    expect(atStop.turns).to.deep.equal({ running: RUNS });
    expect(done.byStatus).to.deep.equal({ completed: RUNS });
    expect(done.turns).to.deep.equal({ completed: RUNS });
    expect(done.workspaces).to.equal(RUNS);
    expect(next).to.deep.equal({ completed: RUNS });
    expect(enabled).to.equal(true);
    expect(again).to.equal(202);

    const after = await until('the run after the stop to have its workspace', async () => {
      const counts = await countsFor(automation.id, organizationId);
      return counts.workspaces === RUNS + 1 && counts;
    }, 120_000, 500);
    await deleteWorkspaces(key, after.replicaIds, 120_000);
  });
});
