/**
 * Workspace figures, measured through the whole service on this machine:
 *  - create → active: POST /v1/replica (X-Api-Version 2026-05-17) until the replica is active,
 *    cold (a new container and volume), and from a warm pool (an environment whose pool keeps
 *    BENCH_WARM_POOL_SIZE ready workspaces, default 2; each create waits for a ready one first,
 *    so the figure is the claim, not the refill). Targets: cold ≤ 3 s, warm ≤ 0.5 s.
 *  - events-stream latency: from the agent writing an output line in its container (its own
 *    timestamp) to a client of GET /v1/replica/{id}/events receiving the chat.turn.delta.
 *
 *   npm run bench:replicas            # 10 workspaces
 *   BENCH_CALLS=20 npm run bench:replicas
 */
import { startHarness } from '../test/support/harness';
import { sseData } from '../test/support/sse';
import { summary } from './stats';

const CALLS = Number(process.env.BENCH_CALLS ?? 10);

function describe(samples: number[]) {
  const s = summary(samples);
  return `p50 ${s.p50.toFixed(0)} ms  p95 ${s.p95.toFixed(0)} ms  (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`;
}

async function main() {
  const harness = await startHarness({ HANGAR_HOOK_TIMEOUT_MS: '90000', HANGAR_WARM_POOL_SIZE: process.env.BENCH_WARM_POOL_SIZE ?? '2' });
  const org = await harness.admin.createOrganization({ name: 'bench' });
  const headers = { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' };
  const ids: string[] = [];
  try {
    const createToActive: number[] = [];
    const streamLatency: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      const res = await fetch(`${harness.baseUrl}/v1/replica`, {
        method: 'POST',
        headers: { ...headers, 'X-Api-Version': '2026-05-17' },
        body: JSON.stringify({ name: `bench-${i}`, message: 'hello' }),
      });
      const id = ((await res.json()) as { replica: { id: string } }).replica.id;
      ids.push(id);
      // Follow the events stream from its start; the status event says when it is active.
      const events = await fetch(`${harness.baseUrl}/v1/replica/${id}/events?after=0`, { headers });
      let active = false;
      for await (const event of sseData<{ type: string; payload: any }>(events)) {
        if (!active && event.type === 'replica.status.changed' && event.payload.status === 'active') {
          active = true;
          createToActive.push(performance.now() - started);
          await fetch(`${harness.baseUrl}/v1/replica/${id}/messages`, { method: 'POST', headers, body: JSON.stringify({ message: 'probe line' }) });
        }
        if (event.type === 'chat.turn.delta' && JSON.stringify(event.payload).includes('probe line')) {
          streamLatency.push(Date.now() - Date.parse(event.payload.event.timestamp));
          break;
        }
      }
    }
    // From a warm pool: an environment with its pool enabled, one claim per ready workspace.
    const env = (await (await fetch(`${harness.baseUrl}/v1/environments`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench-pool' }) })).json()) as { environment: { id: string } };
    const base = `${harness.baseUrl}/v1/environments/${env.environment.id}`;
    await fetch(`${base}/warm-hooks/save`, { method: 'POST', headers, body: JSON.stringify({ content: 'echo warmed > ~/warmed.txt' }) });
    await fetch(`${base}/warm-pools`, { method: 'PUT', headers, body: JSON.stringify({ enabled: true }) });
    const readyCount = async () => ((await (await fetch(`${base}/warm-hooks`, { headers })).json()) as { warm_pool: { ready_count: number } }).warm_pool.ready_count;
    const warmToActive: number[] = [];
    let warmClaims = 0;
    for (let i = 0; i < CALLS; i++) {
      const deadline = Date.now() + 180_000;
      while ((await readyCount()) < 1) {
        if (Date.now() > deadline) throw new Error('the warm pool did not refill within 3 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
      const started = performance.now();
      const res = await fetch(`${harness.baseUrl}/v1/replica`, {
        method: 'POST',
        headers: { ...headers, 'X-Api-Version': '2026-05-17' },
        body: JSON.stringify({ name: `bench-warm-${i}`, environment_id: env.environment.id, message: 'hello' }),
      });
      const id = ((await res.json()) as { replica: { id: string } }).replica.id;
      ids.push(id);
      const events = await fetch(`${harness.baseUrl}/v1/replica/${id}/events?after=0`, { headers });
      for await (const event of sseData<{ type: string; payload: { status?: string } }>(events)) {
        if (event.type === 'replica.status.changed' && event.payload.status === 'active') {
          warmToActive.push(performance.now() - started);
          break;
        }
      }
      const row = await harness.database.db('replicas').where({ id }).first('workspace_key');
      if (row?.workspace_key && row.workspace_key !== id) warmClaims++;
    }
    await fetch(`${base}/warm-pools`, { method: 'PUT', headers, body: JSON.stringify({ enabled: false }) });

    console.log(`workspaces, ${CALLS} each`);
    console.log(`  create → active (cold, new container)   ${describe(createToActive)}   target ≤ 3000 ms`);
    console.log(`  create → active (from a warm pool)      ${describe(warmToActive)}   target ≤ 500 ms  (${warmClaims}/${CALLS} claimed a warm workspace)`);
    console.log(`  agent output → events-stream client     ${describe(streamLatency)}`);
  } finally {
    for (const id of ids) await fetch(`${harness.baseUrl}/v1/replica/${id}`, { method: 'DELETE', headers });
    await harness.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
