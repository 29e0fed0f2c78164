/**
 * A rolling restart of the workers under a steady stream of runs, as a deploy does it: two
 * workers on one host, each stopped (SIGTERM) and started again in turn while webhooks keep
 * arriving and agent turns (the real agent_1 CLI, each longer than the grace period) run. A
 * stopping worker hands its turns over to the one still up, or to its own successor: nothing
 * fails, nothing runs twice, and every accepted event has exactly one completed run.
 */
import { expect } from 'chai';
import { cluster, type HangarProcess } from './support/cluster';
import { automationWith, countsFor, deleteWorkspaces, deliver, report, settled, turnsRunning } from './support/traffic';

/** A run's turn: longer than the grace period (15 s), so no turn ends while its worker stops. */
const TURN_MS = 20_000;
/** The stream's pace: one webhook this often while the workers restart. */
const EVERY_MS = 1500;

describe('faults: a rolling restart of the workers under a steady stream of runs', function () {
  this.timeout(600_000);

  it('fails nothing: every run completes, its turn handed over as its worker stops', async () => {
    const grace = Number(cluster().env.HANGAR_WORKER_SHUTDOWN_GRACE_SECONDS) * 1000;
    expect(TURN_MS, 'the premise: the turns outlast the grace period').to.be.above(grace);
    const { key, organizationId, automation } = await automationWith(`!sleep ${TURN_MS}`, 'rolling');
    let peer: HangarProcess = await cluster().startPeerWorker('peer-1');

    // The stream: one webhook every EVERY_MS until the roll is over.
    const answers: Array<number | null> = [];
    let streaming = true;
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        answers.push(await deliver(automation.webhook_token, { n }));
        await new Promise((r) => setTimeout(r, EVERY_MS));
      }
    })();

    // Each worker in turn, once turns are running on the host: stopped (it hands its turns
    // over and exits), then started again before the next one goes.
    const stops: Array<{ worker: string; runningAtStop: number; exit: number | null; stoppedInMs: number }> = [];
    const roll = async (name: string, stop: () => Promise<{ code: number | null }>, start: () => Promise<void>) => {
      const runningAtStop = await turnsRunning(automation.id, organizationId, 2);
      const stopping = Date.now();
      const { code } = await stop();
      stops.push({ worker: name, runningAtStop, exit: code, stoppedInMs: Date.now() - stopping });
      await start();
    };
    try {
      await roll('worker', () => cluster().stopWorker(), () => cluster().startWorker());
      await roll('peer', () => cluster().stopProcess(peer), async () => void (peer = await cluster().startPeerWorker('peer-2')));
    } finally {
      streaming = false;
      await stream;
    }

    const accepted = answers.filter((a) => a === 202).length;
    const counts = await settled(automation.id, organizationId, accepted, 300_000);
    report('rolling restart', { sent: answers.length, accepted, turnMs: TURN_MS, stops, executions: counts.byStatus, workspaces: counts.workspaces, turns: counts.turns });
    expect(answers, 'every webhook was accepted while the workers restarted').to.deep.equal(answers.map(() => 202));
    expect(stops.map((s) => s.exit)).to.deep.equal([0, 0]);
    expect(counts.executions).to.equal(accepted);
    expect(counts.workspaces).to.equal(accepted);
    expect(counts.executionWorkspaces).to.equal(accepted);
    expect(counts.maxTurnsPerWorkspace).to.equal(1);
    expect(counts.byStatus).to.deep.equal({ completed: accepted });
    expect(counts.turns).to.deep.equal({ completed: accepted });

    await cluster().stopProcess(peer);
    await deleteWorkspaces(key, (await countsFor(automation.id, organizationId)).replicaIds, 120_000);
  });
});
