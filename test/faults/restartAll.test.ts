/**
 * The hardest case: everything Hangar runs is killed at once (API, worker and Temporal, kill -9),
 * as a host reboot or `npm start` stopped hard does, while agent turns run (the real agent_1 CLI
 * in a shell wait). Only the workspaces live on. The agents' next model calls find no gateway:
 * the supervisor's relay in each workspace holds them. Everything is started again on the same
 * data; the held calls go through, the next worker follows each turn to its end, and every run
 * completes with nothing run twice.
 */
import { expect } from 'chai';
import { workspaceName } from '../../src/sandbox/workspace';
import { execInContainer } from '../support/containerExec';
import { until } from '../support/wait';
import { cluster } from './support/cluster';
import { automationWith, countsFor, deleteWorkspaces, nextMessagesRun, report, sendBatch, settled, turnsRunning } from './support/traffic';

const RUNS = 4;
const TURN_MS = 15_000;

/** How many model calls the relay in a workspace holds now; null when it does not answer. */
async function held(replicaId: string): Promise<number | null> {
  const out = await execInContainer(workspaceName(replicaId), 'hangar-turn relay-status', cluster().workerDocker).catch(() => '');
  try {
    return (JSON.parse(out) as { held: number }).held;
  } catch {
    return null;
  }
}

describe('faults: a restart of everything with agent turns running', function () {
  this.timeout(600_000);

  it('holds the agents\' model calls while Hangar is down, and completes every run once it is back', async () => {
    const { key, organizationId, automation } = await automationWith(`!sleep ${TURN_MS}`, 'restart-all');
    expect(await sendBatch(automation.webhook_token, 0, RUNS)).to.deep.equal(Array.from({ length: RUNS }, () => 202));
    await turnsRunning(automation.id, organizationId, RUNS);
    const { replicaIds } = await countsFor(automation.id, organizationId);
    const callsBefore = cluster().models.modelCalls.length;

    await Promise.all([cluster().killApi(), cluster().killWorker(), cluster().killTemporal()]);
    // Each agent ends its wait and calls its model: with no gateway, the relay holds the call.
    const holding = await until('every agent\'s model call to be held in its workspace', async () => {
      const counts = await Promise.all(replicaIds.map(held));
      return counts.every((n) => (n ?? 0) >= 1) && counts;
    }, 120_000, 500);
    expect(cluster().models.modelCalls.length, 'no call reached the model while Hangar was down').to.equal(callsBefore);

    await cluster().startTemporal();
    await cluster().startApi();
    await cluster().startWorker();
    const counts = await settled(automation.id, organizationId, RUNS, 300_000);
    const afterWait = cluster().models.modelCalls.filter((c) => c.allToolResults.some((r) => r.output.includes(`waited ${TURN_MS / 1000} s`)));
    const next = await nextMessagesRun(key, counts.replicaIds, 180_000);
    report('restart of everything', { runs: RUNS, turnMs: TURN_MS, heldPerWorkspace: holding, executions: counts.byStatus, turns: counts.turns, callsAfterTheWait: afterWait.length, nextMessages: next });
    expect(counts.executions).to.equal(RUNS);
    expect(counts.byStatus).to.deep.equal({ completed: RUNS });
    expect(counts.turns).to.deep.equal({ completed: RUNS });
    expect(counts.maxTurnsPerWorkspace).to.equal(1);
    // Each agent's held call went through once the gateway was back, and its turn went on from there.
    expect(afterWait.length).to.be.at.least(RUNS);
    expect(next).to.deep.equal({ completed: RUNS });

    await deleteWorkspaces(key, counts.replicaIds, 120_000);
  });
});
