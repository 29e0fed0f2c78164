/**
 * Recovery after a worker kill, on the production shape of the fault suite (separate API and
 * worker processes, a file-backed Temporal dev server, PostgreSQL, the real agent_1 CLI against
 * a local model server; test/faults/support): a batch of automation runs whose turns wait
 * BENCH_TURN_MS in a shell is sent, and once half of the turns run, the worker is killed with
 * SIGKILL and a new one started. The agents go on in their workspaces; the new worker takes
 * their turns over. Printed, from the kill: when the new worker polls, when an agent event is
 * first recorded again (the resumed stream), and when every run of the batch has finished;
 * against the baseline, the same batch without a fault, measured from the same point (half the
 * turns running) in the same run.
 *
 *   npm run bench:recovery
 *   BENCH_RUNS=12 BENCH_TURN_MS=6000 npm run bench:recovery
 */
import { cluster, startCluster, stopCluster } from '../test/faults/support/cluster';
import { automationWith, countsFor, sendBatch, settled, turnsRunning } from '../test/faults/support/traffic';
import { until } from '../test/support/wait';

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 8000);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The newest agent event recorded for the organization's workspaces (0: none). */
async function newestEvent(organizationId: string): Promise<number> {
  const { db } = cluster().database;
  const [row] = await db('replica_agent_events as e').join('replicas as r', 'r.id', 'e.replica_id').where('r.organization_id', organizationId).max({ id: 'e.id' });
  return Number(row?.id ?? 0);
}

/**
 * A batch of RUNS runs, up to half its turns running; then `fault` (nothing for the baseline).
 * From that point: when an agent event is recorded next, and when every run has finished.
 */
async function batch(name: string, fault: () => Promise<void>) {
  const { automation, organizationId } = await automationWith(`!sleep ${TURN_MS}`, name);
  const answers = await sendBatch(automation.webhook_token, 0, RUNS);
  if (answers.some((a) => a !== 202)) throw new Error(`not every event was accepted: ${answers.join(',')}`);
  await turnsRunning(automation.id, organizationId, Math.ceil(RUNS / 2));
  const newest = await newestEvent(organizationId);
  const from = Date.now();
  await fault();
  const faultMs = Date.now() - from;
  await until('an agent event to be recorded', async () => (await newestEvent(organizationId)) > newest, 600_000, 100);
  const nextEventMs = Date.now() - from;
  const counts = await settled(automation.id, organizationId, RUNS, 600_000);
  const finishedMs = Date.now() - from;
  const { turns } = await countsFor(automation.id, organizationId);
  return { faultMs, nextEventMs, finishedMs, runs: counts.byStatus, turns };
}

async function main() {
  await startCluster();
  try {
    const baseline = await batch('recovery-baseline', async () => undefined);
    const killed = await batch('recovery-kill', async () => {
      await cluster().killWorker();
      await cluster().startWorker();
    });

    console.log(`recovery after a worker kill: ${RUNS} runs of the real agent_1 CLI, turns waiting ${seconds(TURN_MS)}, killed with ${Math.ceil(RUNS / 2)}+ turns running`);
    console.log(`  from the point of the kill                 baseline (no fault)   worker killed   ratio`);
    console.log(`  -> new worker polling                      -                     ${seconds(killed.faultMs).padEnd(15)} -`);
    console.log(`  -> an agent event recorded (again)         ${seconds(baseline.nextEventMs).padEnd(21)} ${seconds(killed.nextEventMs).padEnd(15)} ${(killed.nextEventMs / baseline.nextEventMs).toFixed(1)}x`);
    console.log(`  -> all ${RUNS} runs finished                     ${seconds(baseline.finishedMs).padEnd(21)} ${seconds(killed.finishedMs).padEnd(15)} ${(killed.finishedMs / baseline.finishedMs).toFixed(1)}x`);
    console.log(`  runs by status: baseline ${JSON.stringify(baseline.runs)}, killed ${JSON.stringify(killed.runs)}; turns: killed ${JSON.stringify(killed.turns)}`);
  } finally {
    await stopCluster();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
