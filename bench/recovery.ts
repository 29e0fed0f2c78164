/**
 * Recovery after a worker kill, on the production shape of the fault suite (separate API and
 * worker processes, a file-backed Temporal dev server, PostgreSQL; test/faults/support): a
 * batch of automation runs whose agent turns last BENCH_TURN_MS is sent, and once half of the
 * turns run, the worker is killed with SIGKILL and a new one started. Printed, from the kill:
 * when the new worker polls, when a turn first runs again (a message started after the kill),
 * and when every run of the batch has finished; against the baseline, the same batch's time
 * from its first event to its last finished run without a fault, measured in the same run.
 *
 *   npx tsx bench/recovery.ts
 *   BENCH_RUNS=12 BENCH_TURN_MS=6000 npx tsx bench/recovery.ts
 */
import { cluster, startCluster, stopCluster } from '../test/faults/support/cluster';
import { automationWith, sendBatch, settled, turnsRunning } from '../test/faults/support/traffic';
import { until } from '../test/support/wait';

const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 4000);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function batch(name: string) {
  const made = await automationWith(`!sleep ${TURN_MS}`, name);
  const started = Date.now();
  const answers = await sendBatch(made.automation.webhook_token, 0, RUNS);
  if (answers.some((a) => a !== 202)) throw new Error(`not every event was accepted: ${answers.join(',')}`);
  return { ...made, started };
}

async function main() {
  await startCluster();
  try {
    const { db } = cluster().database;

    const baseline = await batch('recovery-baseline');
    await settled(baseline.automation.id, baseline.organizationId, RUNS, 600_000);
    const baselineMs = Date.now() - baseline.started;

    const faulty = await batch('recovery-kill');
    await turnsRunning(faulty.automation.id, faulty.organizationId, Math.ceil(RUNS / 2));
    const killedAt = new Date();
    await cluster().killWorker();
    await cluster().startWorker();
    const workerBackMs = Date.now() - killedAt.getTime();
    // A turn that starts after the kill: the new worker has taken work again.
    await until(
      'a turn to start after the kill',
      async () => {
        const [row] = await db('replica_messages as m')
          .join('replicas as r', 'r.id', 'm.replica_id')
          .where('r.organization_id', faulty.organizationId)
          .where('m.started_at', '>', killedAt)
          .count({ n: '*' });
        return Number(row!.n) > 0;
      },
      600_000,
      100,
    );
    const progressMs = Date.now() - killedAt.getTime();
    const counts = await settled(faulty.automation.id, faulty.organizationId, RUNS, 600_000);
    const finishedMs = Date.now() - killedAt.getTime();

    console.log(`recovery after a worker kill: ${RUNS} runs, agent turns of ${seconds(TURN_MS)}, killed with ${Math.ceil(RUNS / 2)}+ turns running`);
    console.log(`  baseline (no fault)   first event -> all ${RUNS} runs finished   ${seconds(baselineMs)}`);
    console.log(`  kill -> new worker polling                          ${seconds(workerBackMs)}`);
    console.log(`  kill -> first turn running again                    ${seconds(progressMs)}`);
    console.log(`  kill -> all ${RUNS} runs finished                          ${seconds(finishedMs)}   (runs by status ${JSON.stringify(counts.byStatus)})`);
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
