/**
 * The real coding-agent CLIs through Hangar, against the same CLI or request without Hangar, on
 * this machine. A local model server (test/support/modelServer) stands in for the provider, in
 * a process of its own (bench/modelProcess.ts) on 0.0.0.0 so workspace containers reach it
 * through the Docker host; Hangar's AI gateway forwards to it (HANGAR_AGENT_N_BASE_URL). Hangar
 * (API, worker, gateway) runs in this process, as in the other benches. One workspace (a
 * repository bound to an environment, organization credentials) serves both figures.
 *
 *  1. First-event latency. Hangar: from POST /v1/replica/{id}/messages (a new chat each time,
 *     so no turn resumes a session) to the first chat.turn.delta of that chat received by a
 *     client of GET /v1/replica/{id}/events subscribed before the POST. Direct: the same CLI
 *     in the same container, started by `docker exec` as `hangar` in ~/workspaces/<repo> with
 *     the command line the agent's adapter builds (its base URL the model server instead of
 *     the gateway, a dummy key, its files written beforehand), from starting the exec to its
 *     first stdout line. The model answers 'ok': one model request per turn. Direct and
 *     Hangar turns alternate (which goes first swaps every round), so machine noise hits
 *     both. Untimed warm-ups: the workspace's first turn (the API creates no replica without
 *     a message) and one direct run. A direct run that exits non-zero or never reached the
 *     model fails the bench. Figure: p50/p95 of both and hangar/direct at p50 (target ≤ 1.2);
 *     for CLIs with configuration files, a diagnostic: how long writing them by docker exec
 *     takes (the direct runs do it before theirs, in a home of their own; Hangar writes them
 *     only when the workspace's differ, which after the first turn they do not).
 *  2. Gateway throughput for a streamed answer: an Anthropic Messages stream of
 *     BENCH_STREAM_MB MB of text (16 characters per text delta event, as the model server
 *     cuts it), fetched from this process through the gateway (`POST
 *     /v1/ai-gateway/agent_1/v1/messages` with the workspace's placeholder key) and directly
 *     from the model server, alternately. MB/s = body bytes / time from the response
 *     headers to the body's last byte; median of BENCH_STREAM_RUNS runs each, and the ratio
 *     gateway/direct (target ≥ 0.9). The model server awaits one write per event, which
 *     bounds both rates: the ratio says whether the gateway keeps up with that, not its ceiling.
 *
 *   npm run bench:agents                               # agent_1 (Claude Code), 10 turns each
 *   BENCH_AGENT=agent_2 BENCH_CALLS=5 npm run bench:agents   # agent_2|agent_4|agent_5
 *   BENCH_STREAM_MB=8 BENCH_STREAM_RUNS=9 npm run bench:agents
 *
 * Needs PostgreSQL (DATABASE_URL's server), Docker with the hangar-sandbox image and the
 * Temporal CLI (`npm run setup`).
 */
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { adapterFor, type AgentCommand } from '../src/agents/adapters';
import { AGENTS, type AgentId, type ThinkingLevel } from '../src/agents/catalog';
import { createSecretBox } from '../src/crypto/secretBox';
import { sealedField } from '../src/crypto/sealedFields';
import { gatewayKey } from '../src/domain/gatewayKey';
import { workspaceKey } from '../src/domain/replicas';
import { createDocker } from '../src/sandbox';
import { DOCKER_HOST_NAME } from '../src/domain/dockerHost';
import { FrameDemuxer } from '../src/sandbox/stream';
import { workspaceName } from '../src/sandbox/workspace';
import { execExitCode } from '../src/sandbox/workspace/exec';
import { createBareRepo } from '../test/support/gitRepo';
import { startHarness, type Harness } from '../test/support/harness';
import { sseData } from '../test/support/sse';
import { until } from '../test/support/wait';
import { startModelProcess, type ModelProcess } from './modelProcess';
import { summary } from './stats';

/** A model id each CLI accepts for a custom provider (as the agent tests use). */
const MODELS: Partial<Record<AgentId, string>> = { agent_1: 'agent_1-large', agent_2: 'agent_2-large', agent_4: 'qwen/qwen3-coder', agent_5: 'qwen/qwen3-coder' };
const AGENT = (process.env.BENCH_AGENT ?? 'agent_1') as AgentId;
const MODEL = MODELS[AGENT];
const CALLS = Number(process.env.BENCH_CALLS ?? 10);
const STREAM_MB = Number(process.env.BENCH_STREAM_MB ?? 4);
const STREAM_RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 5);
const PROMPT = 'Reply with ok.';
/** The prompt the model answers with the long text (figure 2). */
const LONG_PROMPT = 'bench: stream the long answer';
const HOME = '/home/hangar';
/**
 * The direct runs' home, inside the workspace's: their configuration (the model server as the
 * provider) must not replace the one Hangar keeps for its own turns in the real home.
 */
const DIRECT_HOME = `${HOME}/.bench-direct`;
const V = { 'X-Api-Version': '2026-05-17' };

/** The workspace both figures use, and what a direct run needs to mirror its turns. */
interface Workspace {
  id: string;
  container: Docker.Container;
  cwd: string;
  thinkingLevel: ThinkingLevel | null;
  /** The workspace's placeholder key for the AI gateway. */
  gatewayKey: string;
}

type Api = (method: string, path: string, body?: unknown) => Promise<any>;

function apiClient(harness: Harness, key: string): Api {
  return async (method, path, body) => {
    const res = await fetch(`${harness.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...V },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** An organization with a repository bound to an environment, and credentials for the agent and for agent_1 (figure 2). */
async function benchOrg(harness: Harness) {
  const org = await harness.admin.createOrganization({ name: `bench-${AGENT}` });
  const api = apiClient(harness, org.org_api_key);
  const repo = await createBareRepo('app', { 'README.md': '# app\n' });
  const repository = await harness.admin.addRepository({ organizationId: org.organization_id, url: repo.url });
  const env = (await api('POST', '/v1/environments', { name: `bench-${AGENT}`, repository_id: repository.id })).environment as { id: string };
  for (const agent of new Set([AGENT, 'agent_1'])) await api('POST', `/v1/organization/credentials/${agent}`, { kind: 'api_key', secret: `bench-${agent}-secret` });
  return { api, key: org.org_api_key, environmentId: env.id };
}

/** The last message of the replica ended; its status. */
async function lastTurnEnded(harness: Harness, replicaId: string): Promise<string> {
  return until(
    `the first turn of ${replicaId} to end`,
    async () => {
      const row = await harness.database.db('replica_messages').where({ replica_id: replicaId }).whereIn('status', ['completed', 'failed', 'interrupted']).first('status');
      return row?.status as string | undefined;
    },
    300_000,
    200,
  );
}

/**
 * A workspace, active, its first turn (the API wants a message at creation) over: that turn
 * also warms the CLI's caches in the container.
 */
async function openWorkspace(harness: Harness, api: Api, environmentId: string): Promise<Workspace> {
  const created = await api('POST', '/v1/replica', { name: `bench-${AGENT.replace('_', '-')}`, environment_id: environmentId, coding_agent: AGENT, model: MODEL, message: PROMPT });
  const id = created.replica.id as string;
  const first = await lastTurnEnded(harness, id);
  if (first !== 'completed') throw new Error(`the workspace's first turn ended ${first}`);
  const row = (await harness.database.repos.replicas.find(id))!;
  if (row.status !== 'active') throw new Error(`the workspace is ${row.status}`);
  const engineSecret = createSecretBox(harness.config.encryptionKeys).open(row.engine_secret_sealed!, sealedField('replicas', 'engine_secret_sealed', row.id));
  return {
    id,
    container: createDocker().getContainer(workspaceName(workspaceKey(row))),
    cwd: `${HOME}/workspaces/${row.repositories[0]!.name}`,
    thinkingLevel: row.thinking_level,
    gatewayKey: gatewayKey(id, engineSecret),
  };
}

interface ExecRun {
  /** From starting the exec to its first stdout line; NaN when it printed none. */
  firstLineMs: number;
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `argv` as `hangar` in the container to its end, timing its first stdout line. */
async function execIn(container: Docker.Container, argv: string[], opts: { env?: Record<string, string>; cwd?: string; stdin?: string } = {}): Promise<ExecRun> {
  const started = performance.now();
  const exec = await container.exec({
    Cmd: argv,
    User: 'hangar',
    WorkingDir: opts.cwd ?? HOME,
    Env: Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${v}`),
    AttachStdin: opts.stdin !== undefined,
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = (await exec.start({ hijack: true, stdin: opts.stdin !== undefined })) as Duplex;
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  let firstLineMs = NaN;
  const demuxer = new FrameDemuxer((kind, payload) => {
    if (kind === 'stdout' && Number.isNaN(firstLineMs) && payload.includes(0x0a)) firstLineMs = performance.now() - started;
    out[kind].push(payload);
  });
  const ended = new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  if (opts.stdin !== undefined) stream.end(opts.stdin);
  await ended;
  return { firstLineMs, exitCode: await execExitCode(exec), stdout: Buffer.concat(out.stdout).toString(), stderr: Buffer.concat(out.stderr).toString() };
}

/** Writes a command's files into the container home, as `hangar`. */
async function writeFiles(container: Docker.Container, command: AgentCommand): Promise<void> {
  for (const file of command.files) {
    const path = file.path.replace(/^~\//, `${DIRECT_HOME}/`);
    const run = await execIn(container, ['bash', '-c', 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"', 'write', path], { stdin: file.content });
    if (run.exitCode !== 0) throw new Error(`writing ${path} failed: ${run.stderr}`);
  }
}

/** The command line the adapter builds for a turn, pointed at the model server instead of the gateway. */
function directCommand(ws: Workspace, models: ModelProcess): AgentCommand {
  return adapterFor(AGENT).command({
    prompt: PROMPT,
    model: MODEL ?? null,
    thinkingLevel: ws.thinkingLevel,
    planMode: false,
    goalMode: false,
    fastMode: false,
    chatId: randomUUID(),
    resumeSessionId: null,
    cwd: ws.cwd,
    gateway: { baseUrl: `http://${DOCKER_HOST_NAME}:${models.port}/${AGENT}`, key: 'bench-direct-key' },
    settings: { systemPrompt: null, mcpServers: {} },
  });
}

/**
 * One direct turn: the CLI in the container, its first stdout line timed; checks it reached the
 * model. Also how long writing its files took (NaN for none), outside the timed span.
 */
async function directTurn(ws: Workspace, models: ModelProcess): Promise<{ firstLineMs: number; filesMs: number }> {
  const command = directCommand(ws, models);
  const writing = performance.now();
  await writeFiles(ws.container, command);
  const filesMs = command.files.length ? performance.now() - writing : NaN;
  const before = await models.generations();
  const run = await execIn(ws.container, command.argv, { env: { ...command.env, HOME: DIRECT_HOME }, cwd: ws.cwd, stdin: command.stdin });
  const generations = (await models.generations()) - before;
  if (run.exitCode !== 0 || generations === 0 || Number.isNaN(run.firstLineMs)) {
    throw new Error(`the direct ${AGENT} run failed (exit ${run.exitCode}, ${generations} model requests): ${run.stderr.slice(-2000)}${run.stdout.slice(-1000)}`);
  }
  return { firstLineMs: run.firstLineMs, filesMs };
}

/** One Hangar turn in a new chat: POST to its first chat.turn.delta on the events stream; waits for the turn to end. */
async function hangarTurn(harness: Harness, api: Api, key: string, ws: Workspace): Promise<number> {
  const chatId = (await api('POST', `/v1/replica/${ws.id}/chats`, { provider: AGENT })).id as string;
  // The response's headers come once the subscription is in place.
  const events = await fetch(`${harness.baseUrl}/v1/replica/${ws.id}/events`, { headers: { authorization: `Bearer ${key}` } });
  if (!events.ok) throw new Error(`events stream: ${events.status}`);
  const started = performance.now();
  await api('POST', `/v1/replica/${ws.id}/messages`, { message: PROMPT, chat_id: chatId, coding_agent: AGENT, ...(MODEL ? { model: MODEL } : {}) });
  let firstEventMs = NaN;
  for await (const event of sseData<{ type: string; payload: { chatId?: string; isComplete?: boolean } }>(events)) {
    if (event.payload.chatId !== chatId) continue;
    if (event.type === 'chat.turn.delta' && Number.isNaN(firstEventMs)) firstEventMs = performance.now() - started;
    if (event.type === 'chat.turn.completed') {
      if (!event.payload.isComplete) throw new Error(`a Hangar ${AGENT} turn did not complete (replica ${ws.id}, chat ${chatId})`);
      break;
    }
  }
  if (Number.isNaN(firstEventMs)) throw new Error(`a Hangar ${AGENT} turn ended without a chat.turn.delta`);
  return firstEventMs;
}

/** CALLS rounds of one direct and one Hangar turn, the order swapped every round. */
async function firstEventLatency(harness: Harness, api: Api, key: string, ws: Workspace, models: ModelProcess) {
  const direct: number[] = [];
  const files: number[] = [];
  const hangar: number[] = [];
  // Untimed: the first direct run of the CLI with this configuration warms what it caches.
  await directTurn(ws, models);
  for (let i = 0; i < CALLS; i++) {
    const runDirect = async () => {
      const run = await directTurn(ws, models);
      direct.push(run.firstLineMs);
      if (!Number.isNaN(run.filesMs)) files.push(run.filesMs);
    };
    const runHangar = async () => hangar.push(await hangarTurn(harness, api, key, ws));
    if (i % 2 === 0) {
      await runDirect();
      await runHangar();
    } else {
      await runHangar();
      await runDirect();
    }
  }
  return { direct: summary(direct), hangar: summary(hangar), files: files.length ? summary(files) : null };
}

/** Body bytes per second, from the response headers to the last byte, of a streamed answer. */
async function streamRate(url: string, headers: Record<string, string>): Promise<{ mbPerSecond: number; bytes: number }> {
  const body = JSON.stringify({ model: MODELS.agent_1, max_tokens: 64_000, stream: true, messages: [{ role: 'user', content: LONG_PROMPT }] });
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers }, body });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  const started = performance.now();
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Uint8Array).byteLength;
  const seconds = (performance.now() - started) / 1000;
  return { mbPerSecond: bytes / 1024 / 1024 / seconds, bytes };
}

const median = (samples: number[]) => summary(samples).p50;

/** STREAM_RUNS rounds of one direct and one gateway fetch, the order swapped every round. */
async function gatewayThroughput(harness: Harness, ws: Workspace, models: ModelProcess) {
  const viaGateway = () => streamRate(`${harness.baseUrl}/v1/ai-gateway/agent_1/v1/messages`, { 'x-api-key': ws.gatewayKey });
  const direct = () => streamRate(`${models.url}/agent_1/v1/messages`, { 'x-api-key': 'bench-direct-key' });
  const rates = { gateway: [] as number[], direct: [] as number[] };
  let bytes = 0;
  for (let i = 0; i < STREAM_RUNS; i++) {
    const order = i % 2 === 0 ? (['direct', 'gateway'] as const) : (['gateway', 'direct'] as const);
    for (const which of order) {
      const run = await (which === 'gateway' ? viaGateway() : direct());
      rates[which].push(run.mbPerSecond);
      bytes = run.bytes;
    }
  }
  return { gateway: median(rates.gateway), direct: median(rates.direct), bytes };
}

const ms = (n: number) => `${n.toFixed(0).padStart(5)} ms`;

function report(latency: Awaited<ReturnType<typeof firstEventLatency>>, throughput: Awaited<ReturnType<typeof gatewayThroughput>>): void {
  const { hangar, direct, files } = latency;
  console.log(`\n1. first-event latency, ${AGENT} (${AGENTS[AGENT].executable}), model ${MODEL}, ${CALLS} turns each, alternating`);
  console.log('   hangar: POST /v1/replica/{id}/messages → first chat.turn.delta on GET /v1/replica/{id}/events');
  console.log('   direct: docker exec of the same command line in the same container → first stdout line');
  console.log(`  hangar  p50 ${ms(hangar.p50)}  p95 ${ms(hangar.p95)}  (min ${hangar.min.toFixed(0)}, max ${hangar.max.toFixed(0)})`);
  console.log(`  direct  p50 ${ms(direct.p50)}  p95 ${ms(direct.p95)}  (min ${direct.min.toFixed(0)}, max ${direct.max.toFixed(0)})`);
  console.log(`  ratio hangar/direct at p50 ${(hangar.p50 / direct.p50).toFixed(2)}  (target ≤ 1.2)`);
  // Hangar writes them in the timed span before every turn; the direct runs write them beforehand.
  if (files) console.log(`  diagnostic: writing the CLI's configuration file(s) by docker exec, before each direct run  p50 ${ms(files.p50)}`);
  console.log(`\n2. streamed answer throughput: Anthropic Messages stream of ${STREAM_MB} MB of text (${(throughput.bytes / 1024 / 1024).toFixed(1)} MB on the wire), median of ${STREAM_RUNS} runs each`);
  console.log('   MB/s = body bytes / (last byte − response headers), fetched from the host');
  console.log(`  gateway  ${throughput.gateway.toFixed(1).padStart(7)} MB/s   POST /v1/ai-gateway/agent_1/v1/messages`);
  console.log(`  direct   ${throughput.direct.toFixed(1).padStart(7)} MB/s   the model server itself`);
  console.log(`  ratio gateway/direct ${(throughput.gateway / throughput.direct).toFixed(2)}  (target ≥ 0.9)`);
}

async function main() {
  if (!MODEL) throw new Error(`BENCH_AGENT must be agent_1, agent_2, agent_4 or agent_5 (got ${AGENT})`);
  const models = await startModelProcess({ longPrompt: LONG_PROMPT, longBytes: STREAM_MB * 1024 * 1024 });
  let harness: Harness | undefined;
  let cleanup = async () => {};
  try {
    harness = await startHarness({
      ...Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`HANGAR_AGENT_${n}_BASE_URL`, `http://127.0.0.1:${models.port}/agent_${n}`])),
      // The real CLIs instead of the image's test agent.
      HANGAR_AGENT_EXECUTABLE: '',
      // The workspace must not fall asleep while direct runs (which Hangar does not see) go on.
      HANGAR_WORKSPACE_IDLE_SECONDS: '3600',
    });
    const { api, key, environmentId } = await benchOrg(harness);
    const ws = await openWorkspace(harness, api, environmentId);
    cleanup = async () => void (await api('DELETE', `/v1/replica/${ws.id}`).catch(() => undefined));
    const latency = await firstEventLatency(harness, api, key, ws, models);
    const throughput = await gatewayThroughput(harness, ws, models);
    report(latency, throughput);
  } finally {
    await cleanup();
    await harness?.close();
    await models.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
