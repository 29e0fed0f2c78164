/**
 * PostgreSQL cut mid-traffic: the API and the worker reach it through a relay the case cuts
 * (every open connection dropped, new ones refused) while agent turns run. Requests answer 503
 * with the Error body within a bounded time, /readyz names the database, webhooks are refused
 * with 503 (the sender retries), and once the relay is back the same processes answer again and
 * the runs that were in flight finish.
 */
import { expect } from 'chai';
import { until } from '../support/wait';
import { cluster } from './support/cluster';
import { automationWith, call, deleteWorkspaces, deliver, nextMessagesRun, report, sendBatch, settled, snapshot, turnsRunning } from './support/traffic';

const RUNS = 6;
/** How long the database stays away: longer than a turn's heartbeat timeout (20 s) would be a different case. */
const OUTAGE_MS = 10_000;

describe('faults: PostgreSQL cut mid-traffic', function () {
  this.timeout(600_000);

  it('answers 503 with the Error body, reports it on /readyz, recovers without a restart, and finishes the runs in flight', async () => {
    const { key, organizationId, automation } = await automationWith('!sleep 8000', 'database-cut');
    const first = await sendBatch(automation.webhook_token, 0, RUNS);
    expect(first).to.deep.equal(first.map(() => 202));
    await turnsRunning(automation.id, organizationId, RUNS);
    const atCut = await snapshot(automation.id, organizationId);

    await cluster().cutDatabase();
    const cutAt = Date.now();
    const started = Date.now();
    const down = await call(key, 'GET', '/v1/environments');
    const answeredMs = Date.now() - started;
    expect(down.status, JSON.stringify(down.body)).to.equal(503);
    expect(down.body).to.have.keys(['error', 'details']);
    expect(down.body.error).to.equal('Service unavailable');
    expect(JSON.stringify(down.body)).not.to.match(/at .*\.ts:\d+|ECONNREFUSED|127\.0\.0\.1|\n/);
    // Bounded by the pool's 10 s acquire timeout, not a hang; the rest is room for a busy machine.
    expect(answeredMs).to.be.below(60_000);
    const ready = await fetch(`${cluster().baseUrl}/readyz`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.include({ details: 'unreachable: database' });
    // A webhook cannot be recorded: it is refused (503), not accepted and lost.
    const refused = await deliver(automation.webhook_token, { n: RUNS });
    expect(refused).to.equal(503);

    // The outage lasts a set time (the fault's own length, not a condition to wait for).
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - cutAt))));
    await cluster().restoreDatabase();
    const back = Date.now();
    await until('the API to answer again', async () => (await call(key, 'GET', '/v1/environments')).status === 200, 60_000, 250);
    const recoveredMs = Date.now() - back;
    expect((await fetch(`${cluster().baseUrl}/readyz`)).status).to.equal(200);

    const counts = await settled(automation.id, organizationId, RUNS, 240_000);
    const next = await nextMessagesRun(key, counts.replicaIds, 180_000);
    report('database cut', { inFlight: RUNS, atCut, answered503InMs: answeredMs, webhookWhileDown: refused, recoveredInMs: recoveredMs, executions: counts.byStatus, turns: counts.turns, nextMessages: next });
    expect(counts.executions).to.equal(RUNS);
    expect(counts.workspaces).to.equal(RUNS);
    expect(counts.byStatus).to.deep.equal({ completed: RUNS });
    expect(counts.turns).to.deep.equal({ completed: RUNS });
    expect(next).to.deep.equal({ completed: RUNS });

    await deleteWorkspaces(key, counts.replicaIds, 120_000);
  });
});
