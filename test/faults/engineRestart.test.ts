/**
 * The Docker engine restarts under a worker's workspaces: some idle, some with an agent turn
 * running. The engine is one of its own (test/support/engineHost.ts: another "machine" with its
 * own dockerd), since restarting the machine's engine would stop every other test's containers;
 * the fault cluster's worker moves there for these cases. Stopped cleanly (SIGTERM, as
 * `systemctl restart docker`) and killed (SIGKILL, a crash), then started again on the same
 * data. The turns the restart cut end `interrupted`, their agent's session kept, and each run
 * continues its turn once (Claude Code resumes a session cut short) and completes. Afterwards
 * every workspace is `active` with a running container that takes its next message, or in
 * `error` with a message that names its container; none is `active` over a stopped container, no
 * turn or run is left running, and deleting leaves no container behind.
 */
import { expect } from 'chai';
import { createDocker } from '../../src/sandbox';
import { workspaceName } from '../../src/sandbox/workspace';
import { startEngineHost, type EngineHost } from '../support/engineHost';
import { until } from '../support/wait';
import { cluster } from './support/cluster';
import { automationWith, deleteWorkspaces, nextMessagesRun, report, sendBatch, settled, turnsRunning } from './support/traffic';

const IDLE = 2;
const BUSY = 2;
const IMAGE = process.env.HANGAR_SANDBOX_IMAGE || 'hangar-sandbox:latest';

/** Each workspace's record and its container as the engine sees it. */
async function workspacesNow(replicaIds: string[]) {
  const rows = (await cluster().database.db('replicas').whereIn('id', replicaIds).select('id', 'status', 'config')) as { id: string; status: string; config: { provisioning_error?: { message?: string } } | null }[];
  return Promise.all(
    rows.map(async ({ id, status, config }) => {
      const info = await cluster().workerDocker.getContainer(workspaceName(id)).inspect().catch(() => null);
      return { id, status, error: config?.provisioning_error?.message ?? null, container: info ? (info.State.Running ? 'running' : 'stopped') : 'missing' };
    }),
  );
}

const tally = (values: string[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

describe('faults: the Docker engine restarts under its workspaces', function () {
  this.timeout(600_000);
  let host: EngineHost;

  before(async function () {
    this.timeout(300_000);
    host = await startEngineHost(3);
    // Kept in the host's data root between runs: only a machine's first run copies it.
    await host.loadImage(IMAGE, createDocker());
    await cluster().moveWorker(host);
  });

  after(async function () {
    this.timeout(180_000);
    await cluster().moveWorker(null);
    await host?.remove();
  });

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal}: each workspace comes back and takes a message or says it is in error; no turn left running`, async () => {
      const quiet = await automationWith('done at once', `engine-idle-${signal.toLowerCase()}`);
      const busy = await automationWith('!sleep 120000', `engine-busy-${signal.toLowerCase()}`);
      const idleAnswers = await sendBatch(quiet.automation.webhook_token, 0, IDLE);
      const idleCounts = await settled(quiet.automation.id, quiet.organizationId, IDLE, 240_000);
      const busyAnswers = await sendBatch(busy.automation.webhook_token, 0, BUSY);
      // Cut mid-wait: each agent's session holds its tool call, which the continuation finds done.
      await turnsRunning(busy.automation.id, busy.organizationId, BUSY, 240_000, { inToolCall: true });
      expect([...idleAnswers, ...busyAnswers]).to.deep.equal(Array(IDLE + BUSY).fill(202));

      const restartedAt = Date.now();
      await host.stopEngine(signal);
      await host.startEngine();
      const engineBackMs = Date.now() - restartedAt;

      // The busy runs end (their turns cut, then continued), and every workspace is either running again or in error.
      const busyCounts = await settled(busy.automation.id, busy.organizationId, BUSY, 120_000);
      const replicaIds = [...idleCounts.replicaIds, ...busyCounts.replicaIds];
      let now: Awaited<ReturnType<typeof workspacesNow>> = [];
      try {
        await until(
          'every workspace to be running again or in error',
          async () => (now = await workspacesNow(replicaIds)).every((w) => (w.status === 'active' && w.container === 'running') || w.status === 'error'),
          120_000,
          500,
        );
      } catch (err) {
        throw new Error(`${(err as Error).message}; workspaces: ${JSON.stringify(now)}`);
      }
      const recoveredMs = Date.now() - restartedAt;
      const active = now.filter((w) => w.status === 'active').map((w) => w.id);
      const next = await nextMessagesRun(quiet.key, active.filter((id) => idleCounts.replicaIds.includes(id)), 120_000);
      const nextBusy = await nextMessagesRun(busy.key, active.filter((id) => busyCounts.replicaIds.includes(id)), 180_000);
      const busyExecutions = (await cluster().database.db('automation_executions').where({ automation_id: busy.automation.id }).select('status', 'interrupted')) as { status: string; interrupted: boolean }[];
      const after = await workspacesNow(replicaIds);
      report(`engine restart (${signal})`, {
        engineBackMs,
        recoveredMs,
        workspaces: tally(after.map((w) => `${w.status}/${w.container}`)),
        busyTurns: busyCounts.turns,
        busyExecutions: tally(busyExecutions.map((e) => `${e.status}${e.interrupted ? ' (interrupted)' : ''}`)),
        nextMessages: { idle: next, busy: nextBusy },
      });

      // Never a silent `active`: an active workspace has a running container, and one in error says why.
      for (const w of after) {
        if (w.status === 'active') expect(w.container, `workspace ${w.id}`).to.equal('running');
        else expect([w.status, w.error ?? ''].join(': ')).to.match(/^error: .*(container|engine)/);
      }
      // The turns the restart cut ended interrupted; each run continued its agent's session once and completed.
      expect(busyCounts.turns).to.deep.equal({ interrupted: BUSY, completed: BUSY });
      expect(busyCounts.maxTurnsPerWorkspace).to.equal(2);
      expect(busyExecutions.map((e) => [e.status, e.interrupted])).to.deep.equal(Array(BUSY).fill(['completed', false]));
      expect(busyCounts.unfinished).to.equal(0);
      // Here the engine came back, so every workspace did too, and took its next message.
      expect(active).to.have.length(IDLE + BUSY);
      expect(next).to.deep.equal({ completed: IDLE });
      expect(nextBusy).to.deep.equal({ completed: BUSY });

      await deleteWorkspaces(quiet.key, idleCounts.replicaIds, 120_000);
      await deleteWorkspaces(busy.key, busyCounts.replicaIds, 120_000);
    });
  }
});
