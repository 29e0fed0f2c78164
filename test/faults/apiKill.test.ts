/**
 * kill -9 of the API process while a client sends webhooks in a loop, each with an
 * Idempotency-Key of its own. Every 202 has its execution; a request that got no answer may
 * or may not have one (counted apart); retried with its key after the restart, each event has
 * exactly one.
 */
import { expect } from 'chai';
import { cluster } from './support/cluster';
import { automationWith, deleteWorkspaces, deliver, report, settled } from './support/traffic';

const EVENTS = Number(process.env.HANGAR_FAULT_RUNS ?? 20);

describe('faults: kill -9 of the API process while webhooks arrive', function () {
  this.timeout(600_000);

  it('gives every 202 its execution, and a retried key exactly one', async () => {
    const { key, organizationId, automation } = await automationWith('done', 'api-kill');
    const { db } = cluster().database;
    const outcomes = new Map<string, number | null>();
    let killed: Promise<unknown> | null = null;
    // Two clients, each sending one event after another: the kill lands with requests in flight.
    const client = async (lane: number) => {
      for (let n = lane; n < EVENTS; n += 2) {
        if (n === Math.floor(EVENTS / 3) && !killed) killed = cluster().killApi();
        const id = `event-${n}`;
        outcomes.set(id, await deliver(automation.webhook_token, { id }, { idempotencyKey: id, timeoutMs: 5000 }));
      }
    };
    await Promise.all([client(0), client(1)]);
    await killed;
    const answered = [...outcomes].filter(([, s]) => s === 202).map(([id]) => id);
    const unanswered = [...outcomes].filter(([, s]) => s === null).map(([id]) => id);
    expect(answered.length + unanswered.length, JSON.stringify([...outcomes])).to.equal(EVENTS);
    expect(unanswered.length, 'requests sent while the API was down').to.be.above(0);

    const perEvent = async () => {
      const rows = (await db('automation_executions').where({ automation_id: automation.id }).select(db.raw("trigger_payload->>'id' as id"))) as { id: string }[];
      return rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.id]: (acc[r.id] ?? 0) + 1 }), {});
    };
    const beforeRetry = await perEvent();
    // Every 202 has its execution already; an unanswered request may have one or not.
    for (const id of answered) expect(beforeRetry[id], id).to.equal(1);
    const unansweredRecorded = unanswered.filter((id) => beforeRetry[id] === 1).length;

    await cluster().startApi();
    const retried = await Promise.all(unanswered.map((id) => deliver(automation.webhook_token, { id }, { idempotencyKey: id })));
    expect(retried).to.deep.equal(unanswered.map(() => 202));
    const afterRetry = await perEvent();
    expect(afterRetry).to.deep.equal(Object.fromEntries([...outcomes.keys()].map((id) => [id, 1])));

    const counts = await settled(automation.id, organizationId, EVENTS, 300_000);
    report('api kill', { sent: EVENTS, answered202: answered.length, unanswered: unanswered.length, unansweredRecorded, retried: unanswered.length, executions: counts.byStatus, workspaces: counts.workspaces });
    expect(counts.executions).to.equal(EVENTS);
    expect(counts.workspaces).to.equal(EVENTS);
    expect(counts.byStatus).to.deep.equal({ completed: EVENTS });
    await deleteWorkspaces(key, counts.replicaIds, 120_000);
  });
});
