/**
 * Hangar on two real Docker engines. Host A is this machine: its engine, and the suite's own
 * worker. Host B is another machine (test/support/engineHost.ts): a network namespace with its
 * own dockerd, bridges and iptables, where a worker process of its own runs (src/bin/worker.ts,
 * as production starts it) and reaches PostgreSQL, Temporal and Redis only through relays on
 * the link, and enforces network isolation on its own host. Two API processes (the suite's and
 * a second one) share the database and Temporal.
 *
 * What it proves: new workspaces spread over both hosts and their containers exist on their
 * host's engine only; on host B's workspace every operation (create, turns, events, terminal,
 * previews over HTTP and WebSocket through host B's relay, sleep and wake, delete) works through
 * either API process; a workspace there reaches the API but neither host A's containers nor the
 * PostgreSQL relay beside the API; stopping host B's worker puts its workspace in `error` naming
 * the host within the host timeout, and new workspaces go to host A.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { expect } from 'chai';
import type Docker from 'dockerode';
import { readServerSentEvents } from '../../../client/src';
import { HOST_LABEL } from '../../../activities/hosts';
import { createDocker } from '../../../src/sandbox';
import { workspaceName } from '../../../src/sandbox/workspace';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { execInContainer } from '../../support/containerExec';
import { startEngineHost, type EngineHost } from '../../support/engineHost';
import { startEntryProcess, stopEntryProcess, type EntryProcess } from '../../support/entryProcess';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { openWebSocket, previewHost, raw, startApp, tokenOf } from '../previews/support';

const V = { 'X-Api-Version': '2026-05-17' };
const HOST_TIMEOUT_SECONDS = 10;
/** Engine host 2 (another test uses 3). */
const ENGINE_HOST = 2;
/**
 * The API as host B's workspaces reach it: the link's near address, where the PostgreSQL relay
 * listens too. The egress allowlist names the API's port only, so the relay stays refused.
 */
const API_ADDRESS = `10.216.${ENGINE_HOST}.1`;
/** Host B's preview relay (its own network namespace: no port here is in the way). */
const RELAY_PORT = 9470;

/**
 * A first turn that shows the workspace reaches the API from its host: `status=ok` is in the
 * tool's output only when /healthz answered (the prompt, echoed in events, does not hold it).
 */
const REACH_THE_API = `!run curl -sf "$HANGAR_API_URL/healthz" | tr -d '{}"' | tr : =`;

const hostAndPort = (address: string) => {
  const url = new URL(address.includes('://') ? address : `tcp://${address}`);
  return { host: url.hostname, port: Number(url.port) };
};

/** `open` when a TCP connection from the container to address:port succeeds within 5 s. */
async function probe(docker: Docker, container: string, address: string, port: number): Promise<'open' | 'refused'> {
  const out = await execInContainer(container, `if timeout 5 bash -c 'exec 3<>/dev/tcp/${address}/${port}' 2>/dev/null; then echo open; else echo refused; fi`, docker);
  return out.trim().split('\n').pop() === 'open' ? 'open' : 'refused';
}

/** Whether this process reaches address:port. */
function reaches(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

describe('workers: two Docker engines, two workers, two API processes', function () {
  this.timeout(300_000);

  const suffix = randomBytes(3).toString('hex');
  const hostA = `engine-a-${suffix}`;
  const hostB = `engine-b-${suffix}`;
  const ownerB = `hangar-tests-engineb-${suffix}`;
  let engine: EngineHost | null = null;
  let workerB: EntryProcess | null = null;
  let second: ApiProcessHandle | null = null;
  let org: Awaited<ReturnType<typeof newOrg>>;
  let pgRelayPort = 0;
  const onHost: Record<string, string> = {};
  const dockerA = createDocker();

  const call = async (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${org.org_api_key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  };
  const row = async (id: string) =>
    (await harness().database.db('replicas').where({ id }).first('status', 'host_id', 'config')) as { status: string; host_id: string | null; config: { provisioning_error?: { message: string } } } | undefined;
  const statusIs = (id: string, status: string, ms = 120_000) => until(`${id} to be ${status}`, async () => (await row(id))?.status === status, ms);
  const turnsDone = (id: string, count: number) =>
    until(`${count} turn(s) of ${id} to finish`, async () => {
      const rows = await harness().database.db('replica_messages').where({ replica_id: id }).pluck('status');
      return rows.length === count && rows.every((s: string) => ['completed', 'failed', 'interrupted'].includes(s)) && rows;
    }, 120_000);
  const create = async (base: string, name: string, message: string) => {
    const created = await call(base, 'POST', '/v1/replica', { name, coding_agent: 'agent_1', message }, V);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    return created.body.replica.id as string;
  };
  const containersOn = async (docker: Docker) => (await docker.listContainers({ all: true })).flatMap((c) => c.Names.map((n) => n.replace(/^\//, '')));

  before(async function () {
    // The first run loads the 1.5 GB sandbox image into host B's engine (about 35 s).
    this.timeout(300_000);
    engine = await startEngineHost(ENGINE_HOST);
    await engine.loadImage(harness().config.sandboxImage, dockerA);
    expect(engine.nearAddress).to.equal(API_ADDRESS);

    // What host B's worker reaches of this machine: the relays on the link.
    const env = harness().env;
    const database = new URL(env.DATABASE_URL!);
    pgRelayPort = await engine.expose({ host: database.hostname, port: Number(database.port || 5432) });
    database.host = `${engine.nearAddress}:${pgRelayPort}`;
    const temporal = hostAndPort(harness().temporal.address);
    const temporalPort = await engine.expose(temporal);
    const redis = new URL(env.REDIS_URL!);
    redis.host = `${engine.nearAddress}:${await engine.expose({ host: redis.hostname, port: Number(redis.port || 6379) })}`;

    await harness().restartWorker({ workerHostId: hostA, hostTimeoutMs: HOST_TIMEOUT_SECONDS * 1000 });
    workerB = await startEntryProcess(['--import', 'tsx', 'src/bin/worker.ts'], {
      ready: 'worker running',
      spawner: (command, args, options) => engine!.spawn(command, args, options),
      env: {
        ...env,
        DATABASE_URL: database.toString(),
        TEMPORAL_ADDRESS: `${engine.nearAddress}:${temporalPort}`,
        REDIS_URL: redis.toString(),
        DOCKER_HOST: engine.dockerHost,
        HANGAR_WORKER_HOST_ID: hostB,
        HANGAR_HOST_TIMEOUT_SECONDS: String(HOST_TIMEOUT_SECONDS),
        HANGAR_SANDBOX_OWNER: ownerB,
        HANGAR_SANDBOX_POOL_SIZE: '0',
        HANGAR_WORKER_METRICS_PORT: '0',
        // Its own networks' range, distinct from host A's (10.213.0.0/16 by default).
        HANGAR_WORKSPACE_SUBNETS: '10.214.0.0/16',
        HANGAR_WORKSPACE_API_URL: `http://${API_ADDRESS}:${harness().config.port}`,
        // Enforced by this worker on its own host (it is root in host B's network namespace,
        // so its rules go into that host's netfilter); the API's private address is allowed.
        HANGAR_NETWORK_ISOLATION: 'enforce',
        HANGAR_WORKSPACE_EGRESS_ALLOW: `${API_ADDRESS}:${harness().config.port}`,
        // Its preview relay, on host B's own address: the API processes here cannot reach its
        // workspaces' addresses (no route to host B's bridges), only this.
        HANGAR_WORKER_RELAY_PORT: String(RELAY_PORT),
        HANGAR_WORKER_RELAY_URL: `http://${engine.farAddress}:${RELAY_PORT}`,
        LOG_LEVEL: 'info',
      },
    });
    second = await startApiProcess({ HANGAR_WORKSPACE_IDLE_SECONDS: '600' });
    org = await newOrg('two-engines');
  });

  after(async function () {
    this.timeout(120_000);
    if (workerB) await stopEntryProcess(workerB.child);
    await second?.close();
    await engine?.remove();
    await harness().restartWorker();
  });

  it('spreads new workspaces over both hosts, each container on its own host\'s engine', async () => {
    // One after the other, so the second placement sees the first. Made through the second
    // process, whose long idle timeout keeps them active (the suite's is 20 s).
    const first = await create(second!.url, 'engines-1', REACH_THE_API);
    await until('the first workspace to be placed', async () => (await row(first))?.host_id, 60_000);
    const secondId = await create(second!.url, 'engines-2', REACH_THE_API);
    for (const id of [first, secondId]) {
      await statusIs(id, 'active');
      onHost[(await row(id))!.host_id!] = id;
    }
    expect(Object.keys(onHost).sort(), 'one workspace on each host').to.deep.equal([hostA, hostB].sort());

    const onA = workspaceName(onHost[hostA]!);
    const onB = workspaceName(onHost[hostB]!);
    const namesA = await containersOn(dockerA);
    const namesB = await containersOn(engine!.docker);
    expect(namesA).to.include(onA).and.not.include(onB);
    expect(namesB).to.include(onB).and.not.include(onA);
    expect((await engine!.docker.getContainer(onB).inspect()).Config.Labels[HOST_LABEL]).to.equal(hostB);
    expect((await dockerA.getContainer(onA).inspect()).Config.Labels[HOST_LABEL]).to.equal(hostA);
  });

  it("lets host B's workspace reach the API but not host A's containers or the PostgreSQL relay", async () => {
    const onB = workspaceName(onHost[hostB]!);
    const onA = workspaceName(onHost[hostA]!);
    expect(await probe(engine!.docker, onB, API_ADDRESS, harness().config.port)).to.equal('open');

    // The relay answers from host B itself (its worker uses it) and from a container on host B's
    // default bridge, which Hangar's rules do not cover: only those rules stop the workspace.
    const plain = await engine!.docker.createContainer({ Image: harness().config.sandboxImage, Entrypoint: ['sleep', '60'], HostConfig: { AutoRemove: true } });
    await plain.start();
    try {
      expect(await probe(engine!.docker, plain.id, engine!.nearAddress, pgRelayPort)).to.equal('open');
    } finally {
      await plain.remove({ force: true }).catch(() => undefined);
    }
    expect(await probe(engine!.docker, onB, engine!.nearAddress, pgRelayPort)).to.equal('refused');

    // A listener in host A's workspace, which this machine reaches.
    const addressA = Object.values((await dockerA.getContainer(onA).inspect()).NetworkSettings.Networks)[0]!.IPAddress;
    const listener = await dockerA.getContainer(onA).exec({ Cmd: ['node', '-e', "require('net').createServer((s) => s.end('a\\n')).listen(8099)"], User: '1000' });
    await listener.start({ Detach: true });
    await until('the listener in host A\'s workspace', async () => reaches(addressA, 8099), 15_000);
    expect(await probe(engine!.docker, onB, addressA, 8099)).to.equal('refused');
  });

  it("serves every operation on host B's workspace through either API process", async () => {
    const [one, two] = [harness().baseUrl, second!.url];
    const id = onHost[hostB]!;
    const container = workspaceName(id);

    // Its first turn ran on host B and reached the API from there; its events replay on the other process.
    expect(await turnsDone(id, 1)).to.deep.equal(['completed']);
    const stream = await fetch(`${one}/v1/replica/${id}/events?after=0`, { headers: { authorization: `Bearer ${org.org_api_key}` } });
    expect(stream.status).to.equal(200);
    let replayed = '';
    for await (const message of readServerSentEvents(stream.body!)) {
      replayed += message.data;
      if ((JSON.parse(message.data) as { type: string }).type === 'chat.turn.completed') break;
    }
    expect(replayed).to.include('status=ok');

    // A message through the second process; the agent acts in the container on host B.
    const sent = await call(two, 'POST', `/v1/replica/${id}/messages`, { message: '!write engines.txt from-b' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(await turnsDone(id, 2)).to.deep.equal(['completed', 'completed']);
    expect(await execInContainer(container, 'find ~ -name engines.txt -exec cat {} +', engine!.docker)).to.include('from-b');
    const history = await call(one, 'GET', `/v1/replica/${id}/history`);
    expect(history.status).to.equal(200);
    expect(JSON.stringify(history.body)).to.include('engines.txt');

    // A terminal opened through one process (by host B's worker), followed and typed into through both.
    const opened = await call(one, 'POST', `/v1/workspaces/${id}/terminal/sessions`, { cols: 100, rows: 30 });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(201);
    const session = `/v1/workspaces/${id}/terminal/sessions/${opened.body.session.id}`;
    const owner = (await harness().database.db('terminal_sessions').where({ id: opened.body.session.id }).first('owner')).owner as string;
    expect(owner.startsWith(`${ownerB}-`), `terminal owner ${owner}`).to.equal(true);
    const terminal = await fetch(`${two}${session}/stream`, { headers: { authorization: `Bearer ${org.org_api_key}`, accept: 'text/event-stream' } });
    expect(terminal.status).to.equal(200);
    let output = '';
    const reading = (async () => {
      for await (const message of readServerSentEvents(terminal.body!)) {
        if (message.event === 'output') output += (JSON.parse(message.data) as { data: string }).data;
        if (output.includes('two-84')) return;
      }
    })();
    expect((await call(two, 'POST', `${session}/input`, { data: 'echo one-$((6*7)) $(hostname)\n', generation: 0, sequence: 0 })).status).to.equal(200);
    expect((await call(one, 'POST', `${session}/input`, { data: 'echo two-$((6*14))\n', generation: 0, sequence: 1 })).status).to.equal(200);
    await Promise.race([reading, until('both outputs through the second process', async () => output.includes('one-42') && output.includes('two-84'), 30_000, 50)]);
    expect((await call(two, 'DELETE', session)).status).to.equal(200);

    // A preview of an app in that container answers through both API processes, HTTP and
    // WebSocket: neither can reach the container's address, so each goes through host B's relay.
    await startApp(container, 'on-b', engine!.docker);
    const shared = await call(one, 'POST', `/v1/workspaces/${id}/previews`, { port: 3000 });
    expect(shared.status, JSON.stringify(shared.body)).to.be.oneOf([200, 201]);
    const host = previewHost(tokenOf(shared.body.preview.url as string));
    for (const base of [one, two]) {
      const answer = await until(`the app on host B to answer through ${base}`, async () => {
        const res = await raw(base, 'POST', `/hello?via=${encodeURIComponent(base)}`, { headers: host, body: 'ping' });
        return res.status === 200 ? (res.json() as Record<string, unknown>) : undefined;
      }, 30_000, 200);
      expect(answer).to.deep.include({ app: 'on-b', method: 'POST', url: `/hello?via=${encodeURIComponent(base)}`, body: 'ping' });
    }
    const socket = await openWebSocket(two, '/socket', host);
    expect(socket.status).to.equal(101);
    expect(await socket.roundTrip('across')).to.equal('echo:across');
    socket.close();

    // Sleep through one process stops the container on host B; wake through the other starts it.
    expect((await call(two, 'POST', `/v1/replica/${id}/sleep`)).status).to.equal(200);
    await statusIs(id, 'sleeping', 60_000);
    expect((await engine!.docker.getContainer(container).inspect()).State.Running).to.equal(false);
    const woken = await call(one, 'POST', `/v1/replica/${id}/wake`);
    expect(woken.body).to.deep.equal({ success: true, waking: true });
    await statusIs(id, 'active', 60_000);
    expect((await engine!.docker.getContainer(container).inspect()).State.Running).to.equal(true);
    expect(await execInContainer(container, 'find ~ -name engines.txt -exec cat {} +', engine!.docker)).to.include('from-b');

    // Delete through the second process removes the container from host B's engine.
    expect((await call(two, 'DELETE', `/v1/replica/${id}`)).status).to.equal(200);
    expect((await call(one, 'GET', `/v1/replica/${id}`)).status).to.equal(404);
    await until('the container to be gone from host B', async () => !(await containersOn(engine!.docker)).includes(container), 60_000);
  });

  it("puts host B's workspace in error within the host timeout once its worker stops, and places new ones on host A", async () => {
    // Host B holds nothing now, host A one workspace: the next goes to host B.
    const onB = await create(second!.url, 'engines-3', '!write where.txt b');
    await statusIs(onB, 'active');
    expect((await row(onB))!.host_id, 'placed on the less loaded host').to.equal(hostB);
    expect(await turnsDone(onB, 1)).to.deep.equal(['completed']);

    expect(await stopEntryProcess(workerB!.child)).to.equal(0);
    workerB = null;
    expect((await harness().database.db('worker_hosts').where({ id: hostB }).first('stopped_at')).stopped_at, 'a clean stop marks the host').to.not.equal(null);

    const sentAt = Date.now();
    const sent = await call(harness().baseUrl, 'POST', `/v1/replica/${onB}/messages`, { message: '!write after.txt lost' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const failed = await until('the workspace on host B to go to error', async () => {
      const r = await row(onB);
      return r?.status === 'error' && r;
    }, HOST_TIMEOUT_SECONDS * 1000 + 60_000);
    const elapsed = Date.now() - sentAt;
    expect(failed.config.provisioning_error?.message).to.include(`"${hostB}"`).and.include('did not pick up its work');
    expect(elapsed, 'within the host timeout and a workflow task or two').to.be.below(HOST_TIMEOUT_SECONDS * 1000 + 30_000);
    expect(elapsed).to.be.at.least(HOST_TIMEOUT_SECONDS * 1000 - 1000);

    const next = await create(harness().baseUrl, 'engines-after', '!write where.txt a');
    await statusIs(next, 'active');
    expect((await row(next))!.host_id).to.equal(hostA);
    expect(await containersOn(dockerA)).to.include(workspaceName(next));
    expect(await turnsDone(next, 1)).to.deep.equal(['completed']);
  });
});
