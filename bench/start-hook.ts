/**
 * Start-hook test latency through the whole service (HTTP → Temporal workflow → activity →
 * sandbox) against a bare `docker run --rm` of the same script in the same image, measured
 * in one run on this machine. Prints p50/p95 of each and the ratio (target ≤ 1.5, stretch ≤ 1.0).
 *
 *   npm run bench:start-hook            # 30 calls each
 *   BENCH_CALLS=50 npm run bench:start-hook
 */
import { spawn } from 'node:child_process';
import { startHarness } from '../test/support/harness';
import { summary } from './stats';

const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const SCRIPT = 'echo "hello from the hook"; ls ~ > /dev/null';

async function time(fn: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function dockerRun(image: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['run', '--rm', '--user', '1000', image, 'bash', '-c', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code) => (code === 0 && out.includes('hello') ? resolve() : reject(new Error(`docker run exited ${code}`))));
  });
}

async function main() {
  const harness = await startHarness({ HANGAR_HOOK_TIMEOUT_MS: '90000' });
  try {
    const org = await harness.admin.createOrganization({ name: 'bench' });
    const url = `${harness.baseUrl}/v1/environments/global/start-hooks/test`;
    const callService = async () => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: SCRIPT }),
      });
      const body = (await res.json()) as { test?: { exit_code: number; output: string } };
      if (res.status !== 200 || body.test?.exit_code !== 0 || !body.test.output.includes('hello')) {
        throw new Error(`unexpected answer ${res.status} ${JSON.stringify(body)}`);
      }
    };

    // Warm both paths (bundle, pool, image layers in the page cache).
    for (let i = 0; i < 3; i++) {
      await callService();
      await dockerRun(harness.config.sandboxImage);
    }

    // Interleave the two so background load on the machine affects both alike. The pool
    // refills in the background; a short think time between calls, as a person clicking
    // "test" would leave, is given to both sides.
    const service: number[] = [];
    const docker: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      await harness.worker.sandbox.warm();
      service.push(await time(callService));
      docker.push(await time(() => dockerRun(harness.config.sandboxImage)));
    }
    const s = summary(service);
    const d = summary(docker);
    const fmt = (n: number) => `${n.toFixed(0)} ms`;
    console.log(`start-hook test, ${CALLS} calls each, script: ${SCRIPT}`);
    console.log(`  service  POST /v1/environments/global/start-hooks/test   p50 ${fmt(s.p50)}  p95 ${fmt(s.p95)}  (min ${fmt(s.min)}, max ${fmt(s.max)})`);
    console.log(`  baseline docker run --rm ${harness.config.sandboxImage}          p50 ${fmt(d.p50)}  p95 ${fmt(d.p95)}  (min ${fmt(d.min)}, max ${fmt(d.max)})`);
    console.log(`  ratio service/baseline: p50 ${(s.p50 / d.p50).toFixed(2)}  p95 ${(s.p95 / d.p95).toFixed(2)}  (target ≤ 1.5, stretch ≤ 1.0)`);

    // Back to back, no think time: the pool cannot keep up, so this shows the cost when
    // calls arrive faster than containers start.
    await harness.worker.sandbox.warm();
    const burst: number[] = [];
    for (let i = 0; i < CALLS; i++) burst.push(await time(callService));
    const b = summary(burst);
    console.log(`  service, back to back (pool of ${harness.config.sandboxPoolSize} drained)  p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  ratio to baseline p50 ${(b.p50 / d.p50).toFixed(2)}`);
  } finally {
    await harness.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
