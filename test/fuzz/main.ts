/**
 * `npm run fuzz`: starts Hangar on the real stack (the integration harness: PostgreSQL,
 * Temporal, a worker with Docker), makes two organizations, reads `/openapi.json` from the
 * running API and sends generated requests, mostly bad ones, for a bounded time. Fails (exit 1,
 * printing each distinct failing request) on a 5xx, an error answer without the JSON Error body,
 * a request with no answer, another organization's records reached or named, or an API that
 * stops answering its health check between batches.
 *
 *   npm run fuzz                                             # 60 s, a random seed (printed)
 *   HANGAR_FUZZ_SECONDS=300 HANGAR_FUZZ_SEED=1234 npm run fuzz
 *   HANGAR_FUZZ_SEED=1234 HANGAR_FUZZ_CASES=17,802 npm run fuzz   # replay those cases only
 *
 * Each case is generated from its own seed (the run's seed and its index), so a case replays
 * alone and whatever the concurrency. Record ids differ between runs; the shape does not.
 * Settings for the Hangar under test: every `HANGAR_*` variable other than `HANGAR_FUZZ_*` and
 * `HANGAR_TEST_*` is passed to it, over the defaults in `HARNESS_ENV`.
 */
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { harness, startSharedHarness, stopSharedHarness } from '../support/harness';
import { operationCases, EXPENSIVE, type FuzzRequest } from './cases';
import { closeClient, send, type Answer } from './client';
import { operationsOf } from './openapi';
import { judge, sameAsMissing, type Tenants } from './oracle';
import { setUpTenants } from './tenants';
import { allIds } from './values';

/** Settings the fuzz run gives Hangar (a limit that would refuse the flood of requests goes off here). */
const HARNESS_ENV: Record<string, string> = {
  // Thousands of made-up keys from one address would soon meet only 429s; the limiter has its own tests.
  HANGAR_RATE_LIMIT: 'off',
};

const SECONDS = Number(process.env.HANGAR_FUZZ_SECONDS ?? 60);
const SEED = process.env.HANGAR_FUZZ_SEED ? Number(process.env.HANGAR_FUZZ_SEED) : randomInt(2 ** 31);
const REPLAY = (process.env.HANGAR_FUZZ_CASES ?? '')
  .split(',')
  .filter(Boolean)
  .map(Number);
const CONCURRENCY = Number(process.env.HANGAR_FUZZ_CONCURRENCY ?? 4);
/** Prints the answers per operation and kind of change at the end (to see what the run reached). */
const VERBOSE = process.env.HANGAR_FUZZ_VERBOSE === '1';
/** Prints every request and the start of its answer. */
const TRACE = process.env.HANGAR_FUZZ_TRACE === '1';
const TIMEOUT_MS = Number(process.env.HANGAR_FUZZ_TIMEOUT_MS ?? 30_000);
/** The API must answer its health check and an authenticated read after every batch. */
const BATCH = 250;

const say = (line: string) => void process.stdout.write(`${line}\n`);

interface Failure {
  index: number;
  reason: string;
  req: FuzzRequest;
  answer: Answer;
  serverLog: string[];
}

/** The seed of case `index`: the run's seed mixed with the index (a 32-bit hash step). */
function caseSeed(index: number): number {
  let h = (SEED ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`);
const printable = (text: string) => JSON.stringify(text).slice(1, -1);

function describe(f: Failure): string {
  const body = f.req.body === undefined ? '' : typeof f.req.body === 'string' ? f.req.body : f.req.body.toString('latin1');
  return [
    `FAIL case ${f.index} [${f.req.op} · ${f.req.kind}]: ${f.reason}`,
    `  replay: HANGAR_FUZZ_SEED=${SEED} HANGAR_FUZZ_CASES=${f.index} npm run fuzz`,
    f.req.raw !== undefined
      ? `  raw request: ${clip(printable(f.req.raw), 600)}`
      : [
          `  request: ${f.req.method} ${clip(f.req.path, 400)}`,
          `  headers: ${clip(JSON.stringify(f.req.headers), 400)}`,
          ...(body ? [`  body: ${clip(printable(body), 600)}`] : []),
        ].join('\n'),
    `  answer: ${f.answer.status} ${f.answer.contentType || '(no content type)'} ${clip(printable(f.answer.body), 400)}${f.answer.failure ? ` [${f.answer.failure}]` : ''}`,
    ...f.serverLog.map((line) => `  server: ${clip(line, 1500)}`),
  ].join('\n');
}

/** Same bug, same signature: the reason without numbers and ids, the operation and the kind of change. */
const signature = (f: Failure) => `${f.req.op}|${f.req.kind.split(' ')[0]}|${f.answer.status}|${f.reason.replace(/[0-9a-f-]{36}|\d+/g, '#').slice(0, 80)}`;

async function healthy(baseUrl: string, key: string): Promise<string | null> {
  for (const [path, auth] of [
    ['/healthz', undefined],
    ['/v1/environments', key],
  ] as const) {
    try {
      const res = await fetch(baseUrl + path, { headers: auth ? { authorization: `Bearer ${auth}` } : {}, signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      if (res.status !== 200) return `${path} answered ${res.status}`;
    } catch (err) {
      return `${path} did not answer: ${(err as Error).message}`;
    }
  }
  return null;
}

function harnessEnv(): Record<string, string> {
  const passed = Object.entries(process.env).filter(([k, v]) => k.startsWith('HANGAR_') && !/^HANGAR_(FUZZ|TEST)_/.test(k) && v !== undefined) as Array<[string, string]>;
  return { ...HARNESS_ENV, ...Object.fromEntries(passed) };
}

async function main(): Promise<number> {
  say(`fuzz: seed ${SEED}${REPLAY.length > 0 ? `, replaying cases ${REPLAY.join(', ')}` : `, ${SECONDS} s`}, ${CONCURRENCY} at a time`);
  const inFlight = new Map<number, FuzzRequest>();
  let dying = false;
  const died = (what: string) => (err: unknown) => {
    if (dying) return;
    dying = true;
    say(`fuzz: the process died (${what}): ${(err as Error)?.stack ?? String(err)}`);
    for (const [index, req] of inFlight) say(`  in flight: case ${index} [${req.op} · ${req.kind}] ${req.method} ${clip(req.path, 300)}`);
    say(`  replay: HANGAR_FUZZ_SEED=${SEED} HANGAR_FUZZ_CASES=${[...inFlight.keys()].join(',')} npm run fuzz`);
    // Still remove the run's database, containers and Temporal server, within reason.
    void Promise.race([stopSharedHarness(), new Promise((resolve) => setTimeout(resolve, 30_000))]).finally(() => process.exit(1));
  };
  process.on('uncaughtException', died('uncaught exception'));
  process.on('unhandledRejection', died('unhandled rejection'));
  // Interrupted (Ctrl-C, a CI timeout) or read through a pipe that closed: finish the requests
  // in flight and clean up, rather than leave the database and the Temporal server behind.
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void (interrupted = true));
  process.stdout.on('error', () => undefined);
  // A library printing on its own (knex warns about a value it then ignores) is worth seeing,
  // with the requests that may have caused it.
  for (const method of ['log', 'warn', 'error'] as const) {
    console[method] = (...args: unknown[]) => say(`fuzz: the server printed "${args.map(String).join(' ')}" while in flight: ${[...inFlight].map(([i, r]) => `case ${i} ${r.method} ${clip(r.path, 120)}`).join('; ') || 'nothing'}`);
  }

  const started = Date.now();
  await startSharedHarness(harnessEnv());
  /** Failing cases by signature (up to ten each; the first is printed when it happens). */
  const failures = new Map<string, number[]>();
  let sent = 0;
  let unsendable = 0;
  const statuses = new Map<string, number>();
  const perOperation = new Map<string, Map<string, number>>();
  try {
    const { baseUrl } = harness();
    const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const operations = operationsOf(doc);
    const { own, other, pools } = await setUpTenants((line) => say(`fuzz: ${line}`));
    const tenants: Tenants = { keys: { own: own.key, ownPersonal: own.personalKey, ownEngine: own.engine, other: other.key }, ownIds: allIds(own.ids), otherIds: allIds(other.ids), adopted: new Set() };
    say(`fuzz: ${operations.length} operations (${operations.filter((o) => o.id in EXPENSIVE).length} only with requests refused before work), set up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const cases = fc.oneof(...operations.map((op) => operationCases(op, pools, tenants.keys)));

    const deadline = Date.now() + SECONDS * 1000;
    const queue = REPLAY.length > 0 ? [...REPLAY] : null;
    let next = 0;
    let deadProcess: string | null = null;
    let fuzzerError: unknown = null;
    const take = (): number | null => {
      if (deadProcess || fuzzerError || interrupted) return null;
      if (queue) return queue.shift() ?? null;
      return Date.now() < deadline ? next++ : null;
    };
    const logs = harness().logs;
    const runOne = async (index: number) => {
      let req: FuzzRequest;
      try {
        req = fc.sample(cases, { seed: caseSeed(index), numRuns: 1 })[0]!;
      } catch (err) {
        fuzzerError = new Error(`the fuzzer could not build case ${index}: ${(err as Error).stack}`);
        return;
      }
      inFlight.set(index, req);
      const answer = await send(baseUrl, req, TIMEOUT_MS);
      inFlight.delete(index);
      if (answer === 'unsendable') return void unsendable++;
      sent++;
      if (answer.failure?.startsWith('ECONNREFUSED')) deadProcess = `the API refused a connection (case ${index})`;
      const bucket = answer.status === 0 ? 'none' : `${answer.status}`;
      statuses.set(bucket, (statuses.get(bucket) ?? 0) + 1);
      if (VERBOSE) {
        const key = `${req.op} · ${req.kind.split(' ')[0]}`;
        const seen = perOperation.get(key) ?? new Map<string, number>();
        seen.set(bucket, (seen.get(bucket) ?? 0) + 1);
        perOperation.set(key, seen);
      }
      if (answer.status < 300 && req.headers.authorization !== `Bearer ${other.key}`) {
        const sentText = `${req.path} ${req.body?.toString() ?? ''}`.toLowerCase();
        for (const id of tenants.otherIds) if (sentText.includes(id)) tenants.adopted.add(id);
      }
      let reason = judge(req, answer, tenants);
      // An id the fuzzing organization took for a record of its own (a chat id) may now name it.
      const adoptedIn = (r: FuzzRequest) => [...tenants.adopted].some((id) => r.path.includes(id) || (r.body?.toString() ?? '').includes(id));
      if (!reason && req.twin && answer.status < 500 && (req.mustNotSucceed || !adoptedIn(req))) {
        const twin = await send(baseUrl, req.twin, TIMEOUT_MS);
        if (twin !== 'unsendable') reason = judge(req.twin, twin, tenants) ?? sameAsMissing(answer, twin);
      }
      if (TRACE) say(`trace ${index} [${req.op} · ${req.kind}] ${req.method} ${clip(req.path, 160)} → ${answer.status} ${clip(printable(answer.body), 300)}`);
      if (!reason) return;
      const requestId = String(answer.headers['x-request-id'] ?? '');
      const serverLog = requestId ? logs.filter((line) => line.includes(requestId) && /"level":"(error|warn)"/.test(line)) : [];
      const failure = { index, reason, req, answer, serverLog };
      const earlier = failures.get(signature(failure)) ?? [];
      if (earlier.length === 0) say(describe(failure));
      failures.set(signature(failure), [...earlier.slice(0, 9), index]);
    };
    let batchEnd = BATCH;
    const worker = async () => {
      for (let index = take(); index !== null; index = take()) {
        await runOne(index);
        if (sent + unsendable >= batchEnd) {
          batchEnd += BATCH;
          // Bounded memory over a long run: the harness keeps every log line.
          logs.splice(0, Math.max(0, logs.length - 20_000));
          const problem = await healthy(baseUrl, own.key);
          if (problem) deadProcess = problem;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, CONCURRENCY) }, worker));
    if (fuzzerError) throw fuzzerError;
    if (interrupted) say('fuzz: interrupted');
    const finalProblem = deadProcess ?? (await healthy(baseUrl, own.key));
    const seconds = (Date.now() - started) / 1000;
    const counts = (m: Map<string, number>) => [...m].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}×${n}`).join(' ');
    if (VERBOSE) for (const key of [...perOperation.keys()].sort()) say(`  ${key}: ${counts(perOperation.get(key)!)}`);
    say(`fuzz: ${sent} requests (${unsendable} Node would not send) in ${seconds.toFixed(0)} s; answers ${counts(statuses)}`);
    if (finalProblem) {
      say(`FAIL the API stopped answering: ${finalProblem}`);
      return 1;
    }
  } finally {
    closeClient();
    await stopSharedHarness();
  }
  if (failures.size === 0) {
    say(`fuzz: no failures (seed ${SEED})`);
    // Cut short is not a pass.
    return interrupted ? 130 : 0;
  }
  say(`fuzz: ${failures.size} distinct failures (seed ${SEED}):`);
  for (const [sig, indices] of failures) say(`  ${sig}: cases ${indices.join(', ')}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`fuzz: ${(err as Error)?.stack ?? String(err)}`);
    process.exit(1);
  },
);
