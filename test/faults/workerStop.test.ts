/**
 * SIGTERM of the worker during agent turns, as an orchestrator stops it. A turn shorter than
 * the grace period (HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS, 15 s here) finishes; a longer one is
 * ended `interrupted` and not counted by the circuit breaker. A new worker then runs each
 * workspace's next message; nothing is lost or doubled, and the automation keeps firing.
 */
import { expect } from 'chai';
import { CIRCUIT_BREAKER_FAILURES } from '../../src/domain/automations/run';
import { until } from '../support/wait';
import { cluster } from './support/cluster';
import { automationWith, call, countsFor, deleteWorkspaces, deliver, nextMessagesRun, report, sendBatch, settled, turnsRunning } from './support/traffic';

const SHORT = 3;
/** As many as trip the circuit breaker, were interrupted runs counted as the automation's failures. */
const LONG = CIRCUIT_BREAKER_FAILURES;
const all202 = (n: number) => Array.from({ length: n }, () => 202);

describe('faults: SIGTERM of the worker during agent turns', function () {
  this.timeout(600_000);

  it('finishes the turns that fit the grace period, interrupts the others, and runs the next messages on a new worker', async () => {
    const grace = Number(cluster().env.HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS) * 1000;
    const short = await automationWith('!sleep 4000', 'stop-short');
    // Same organization would share the circuit breaker's view; each automation keeps its own.
    const long = await automationWith('!sleep 120000', 'stop-long');
    expect(await sendBatch(long.automation.webhook_token, 0, LONG)).to.deep.equal(all202(LONG));
    await turnsRunning(long.automation.id, long.organizationId, LONG);
    expect(await sendBatch(short.automation.webhook_token, 0, SHORT)).to.deep.equal(all202(SHORT));
    await turnsRunning(short.automation.id, short.organizationId, SHORT);

    const stopping = Date.now();
    const exit = await cluster().stopWorker();
    const stoppedMs = Date.now() - stopping;
    // Clean exit after the grace period, not after the long turns' 120 s: the bound leaves a busy
    // machine a minute to close, and still falls short of the long turns' end.
    expect(exit.code, cluster().worker!.output().slice(-3000)).to.equal(0);
    expect(grace + 60_000, 'the premise: the bound ends before the long turns would').to.be.below(120_000);
    expect(stoppedMs).to.be.below(grace + 60_000);
    // The short turns ended while the worker drained.
    const shortAtStop = await countsFor(short.automation.id, short.organizationId);
    await cluster().startWorker();

    const shortDone = await settled(short.automation.id, short.organizationId, SHORT, 180_000);
    const longDone = await settled(long.automation.id, long.organizationId, LONG, 180_000);
    const nextShort = await nextMessagesRun(short.key, shortDone.replicaIds, 120_000);
    const nextLong = await nextMessagesRun(long.key, longDone.replicaIds, 120_000);
    const { db } = cluster().database;
    const interrupted = (await db('automation_executions').where({ automation_id: long.automation.id, interrupted: true }).count({ n: '*' }))[0]!.n;
    // The breaker did not count the interrupted runs: the automation is enabled and takes events.
    const enabled = (await call(long.key, 'GET', `/v1/automations/${long.automation.id}`)).body.automation.enabled;
    const again = await deliver(long.automation.webhook_token, { n: 'after' });
    report('worker SIGTERM', {
      graceMs: grace, stoppedInMs: stoppedMs, shortTurnsAtStop: shortAtStop.turns, short: { executions: shortDone.byStatus, turns: shortDone.turns, next: nextShort },
      long: { executions: longDone.byStatus, turns: longDone.turns, interrupted: Number(interrupted), next: nextLong }, enabledAfter: enabled, webhookAfter: again,
    });
    expect(shortAtStop.turns).to.deep.equal({ completed: SHORT });
    expect(shortDone.byStatus).to.deep.equal({ completed: SHORT });
    expect(shortDone.workspaces).to.equal(SHORT);
    expect(longDone.byStatus).to.deep.equal({ failed: LONG });
    expect(longDone.turns).to.deep.equal({ interrupted: LONG });
    expect(longDone.workspaces).to.equal(LONG);
    expect(Number(interrupted)).to.equal(LONG);
    expect(nextShort).to.deep.equal({ completed: SHORT });
    expect(nextLong).to.deep.equal({ completed: LONG });
    expect(enabled).to.equal(true);
    expect(again).to.equal(202);

    // That run's turn lasts two minutes: deleting its workspace, once made, ends it.
    const after = await until('the run after the stop to have its workspace', async () => {
      const counts = await countsFor(long.automation.id, long.organizationId);
      return counts.workspaces === LONG + 1 && counts;
    }, 120_000, 500);
    await deleteWorkspaces(short.key, shortDone.replicaIds, 120_000);
    await deleteWorkspaces(long.key, after.replicaIds, 120_000);
  });
});
