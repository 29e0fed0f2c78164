/**
 * Throughput with one worker host against two, and the latency of placement, on the fault
 * suite's production shape (test/faults/support: separate API and worker processes, a
 * file-backed Temporal dev server, PostgreSQL). The second host is another machine from
 * test/support/engineHost.ts: its own network namespace and Docker engine, its own worker.
 *
 * Each host is sized for BENCH_HOST_WORKSPACES workspaces at once (HANGAR_HOST_MAX_WORKSPACES):
 * the runs of a batch beyond that wait for room, as on a deployment whose machines are full. A
 * batch is BENCH_RUNS custom-webhook events to an automation whose workspaces archive when their
 * turn is done (freeing their host), each run's agent turn taking BENCH_TURN_MS. Printed: runs
 * per minute through the whole pipeline (event → run → placement → workspace → agent turn →
 * run finished) with one host, then with two, and their ratio; and the placement latency, from
 * the workflow's request to the chosen host (the placement activity's log, attempts that found
 * room), p50/p95/p99 over both batches.
 *
 * Both hosts here share this machine's CPUs, disks and one PostgreSQL: the ratio shows what a
 * second host's capacity buys when the first is full, not what a second machine's CPUs add.
 *
 *   npm run bench:hosts
 *   BENCH_RUNS=24 BENCH_HOST_WORKSPACES=4 BENCH_TURN_MS=3000 npm run bench:hosts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { cluster, LOG_DIR, startCluster, stopCluster } from '../test/faults/support/cluster';
import { automationWith, call, sendBatch, settled } from '../test/faults/support/traffic';
import { startEngineHost, type EngineHost } from '../test/support/engineHost';
import { summary } from './stats';

const RUNS = Number(process.env.BENCH_RUNS ?? 16);
const PER_HOST = Number(process.env.BENCH_HOST_WORKSPACES ?? 4);
const TURN_MS = Number(process.env.BENCH_TURN_MS ?? 3000);
/** Engine host 5: the tests use 2–4. */
const ENGINE_HOST = 5;

async function batch(name: string): Promise<{ ms: number; byStatus: Record<string, number> }> {
  const made = await automationWith(`!sleep ${TURN_MS}`, name);
  const patched = await call(made.key, 'PATCH', `/v1/automations/${made.automation.id}`, { workspace_lifecycle_policy: 'archive_when_done' });
  if (patched.status !== 200) throw new Error(`the automation could not be set to archive its workspaces: ${JSON.stringify(patched.body)}`);
  const started = Date.now();
  const answers = await sendBatch(made.automation.webhook_token, 0, RUNS);
  if (answers.some((a) => a !== 202)) throw new Error(`not every event was accepted: ${answers.join(',')}`);
  const counts = await settled(made.automation.id, made.organizationId, RUNS, 900_000);
  return { ms: Date.now() - started, byStatus: counts.byStatus };
}

/** `placementMs` of every "workspace placed" line the workers logged. */
function placements(): number[] {
  const text = readFileSync(join(LOG_DIR, 'worker.log'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.includes('"msg":"workspace placed"'))
    .map((line) => {
      // Two workers append to one file: a line cut by the other's chunk is skipped.
      try {
        return (JSON.parse(line) as { placementMs?: number }).placementMs;
      } catch {
        return undefined;
      }
    })
    .filter((ms): ms is number => typeof ms === 'number');
}

async function main() {
  let host: EngineHost | null = null;
  await startCluster({ HANGAR_HOST_MAX_WORKSPACES: String(PER_HOST), HANGAR_HOST_TIMEOUT_SECONDS: '60' });
  try {
    const perMinute = (ms: number) => (RUNS / ms) * 60_000;
    const one = await batch('hosts-one');

    host = await startEngineHost(ENGINE_HOST);
    await host.loadImage(cluster().env.HANGAR_SANDBOX_IMAGE ?? 'hangar-sandbox:latest', new Docker());
    await cluster().addWorker(host);
    const two = await batch('hosts-two');
    const spread = (await cluster().database.db('replicas').whereNotNull('host_id').groupBy('host_id').select('host_id').count({ n: '*' })) as Array<{ host_id: string; n: string }>;

    const samples = placements();
    const placed = summary(samples);
    console.log(`worker hosts: ${RUNS} runs per batch, agent turns of ${(TURN_MS / 1000).toFixed(1)} s, ${PER_HOST} workspaces at most per host`);
    console.log(`  one host    ${(one.ms / 1000).toFixed(1)} s   ${perMinute(one.ms).toFixed(1)} runs/min   (runs ${JSON.stringify(one.byStatus)})`);
    console.log(`  two hosts   ${(two.ms / 1000).toFixed(1)} s   ${perMinute(two.ms).toFixed(1)} runs/min   (runs ${JSON.stringify(two.byStatus)})`);
    console.log(`  ratio (two / one)   ${(perMinute(two.ms) / perMinute(one.ms)).toFixed(2)}   (goal ≥ 1.8)`);
    console.log(`  workspaces by host  ${spread.map((r) => `${r.host_id}: ${r.n}`).join(', ')}`);
    console.log(`  placement (request → host chosen, ${samples.length} placements)   p50 ${placed.p50.toFixed(0)} ms   p95 ${placed.p95.toFixed(0)} ms   p99 ${placed.p99.toFixed(0)} ms   max ${placed.max.toFixed(0)} ms`);
    console.log('  both hosts share this machine: the ratio is what a second host\'s capacity buys when the first is full');
  } finally {
    await stopCluster();
    await host?.remove();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
