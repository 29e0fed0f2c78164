/**
 * The production deployment, proven (`npm run test:deploy`): docker-compose.yml on images built
 * from the project's own files (`npm run images`), Temporal as separate frontend, history,
 * matching and worker services on PostgreSQL, two Hangar workers and the API, reached through
 * the published ports only. What stands in for the internet: a local model server on the host,
 * which the API's AI gateway reaches as agent_1's provider.
 *
 * Each phase's time is printed at the end.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startModelServer, type ModelServer } from '../support/modelServer';
import { reservePort } from '../support/harness';
import { until } from '../support/wait';
import { sseData } from '../support/sse';
import { deployment, sh, type Deployment } from './compose';
import { openWebSocket, previewHost, raw, startApp } from '../integration/previews/support';

const V = { 'X-Api-Version': '2026-05-17' };

interface Organization {
  organization_id: string;
  org_api_key: string;
}

interface Execution {
  id: string;
  status: 'pending' | 'creating' | 'running' | 'completed' | 'failed';
  workspace_id: string | null;
  trigger_payload: Record<string, unknown>;
  error: string | null;
}

describe('the production deployment: docker compose on the project’s own images', function () {
  this.timeout(30 * 60_000);

  const phases: Array<[string, number]> = [];
  async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await fn();
    } finally {
      phases.push([name, (Date.now() - started) / 1000]);
    }
  }

  let models: ModelServer;
  let deploy: Deployment;
  let org: Organization;
  const credential = `sk-deploy-${randomUUID()}`;
  /** A setting that reaches the api only through the deployment's settings file (HANGAR_ENV_FILE). */
  const metricsToken = `metrics-${randomUUID()}`;
  /** A media file the API stored, for the restore to find again. */
  let stored: { id: string; bytes: Buffer };
  /** Organizations made besides `org`, whose networks go with the deployment. */
  const otherOrganizations: string[] = [];
  /** Holds the model's answers while a fault phase kills something under running turns. */
  let gate: Promise<void> = Promise.resolve();

  async function call(method: string, path: string, body?: unknown, key = org?.org_api_key): Promise<{ status: number; body: any }> {
    const res = await fetch(deploy.apiUrl + path, {
      method,
      headers: { ...V, ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  const ready = () => until('the API to answer /readyz', async () => (await fetch(`${deploy.apiUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(() => null))?.status === 200, 10 * 60_000, 1000);

  before(async function () {
    await phase('images (npm run images)', () => sh('bash', ['scripts/images/build.sh'], { timeoutMs: 20 * 60_000 }));
    models = await startModelServer({ host: '0.0.0.0' });
    models.script(async (call) => {
      await gate;
      return `deployed answer to: ${call.prompt.slice(0, 60)}`;
    });
    deploy = await deployment({
      apiPort: await reservePort(),
      uiPort: await reservePort(),
      // The provider: the model server on this host, for the AI gateway in the API's container.
      override: [
        'services:',
        '  api:',
        '    extra_hosts: ["host.docker.internal:host-gateway"]',
        '    environment:',
        `      HANGAR_AGENT_1_BASE_URL: http://host.docker.internal:${models.port}/agent_1`,
        '',
      ].join('\n'),
      settings: `# the deployment's own settings\nHANGAR_METRICS_TOKEN=${metricsToken}\nLOG_LEVEL=info\n`,
    });
    await phase('docker compose up -d, until /readyz', async () => {
      await deploy.compose(['up', '-d'], { timeoutMs: 15 * 60_000 });
      await ready();
    });
    org = JSON.parse(await deploy.compose(['exec', '-T', 'api', 'node', '--import', 'tsx', 'src/bin/hangar.ts', 'admin', 'create-org', '--name', 'Deployed']));
    expect((await call('POST', '/v1/organization/credentials/agent_1', { kind: 'api_key', secret: credential })).status).to.be.oneOf([200, 201]);
  });

  after(async function () {
    this.timeout(10 * 60_000);
    console.log('\n  phases (seconds):');
    for (const [name, seconds] of phases) console.log(`    ${seconds.toFixed(1).padStart(7)}  ${name}`);
    if (deploy) {
      // The workers remove what they made once the workspaces are deleted; the rest goes with the project.
      const ids = org ? await workspaceIds().catch(() => []) : [];
      for (const id of ids) await call('DELETE', `/v1/replica/${id}`).catch(() => undefined);
      const left = async () => {
        const names: string[] = [];
        for (const id of ids) if ((await sh('docker', ['ps', '-aq', '--filter', `name=^hangar-ws-${id}$`])).trim()) names.push(`hangar-ws-${id}`);
        return names;
      };
      await until('the deployment’s workspace containers to go', async () => (await left()).length === 0, 120_000, 1000).catch(() => undefined);
      for (const name of await left()) await sh('docker', ['rm', '-f', name]).catch(() => undefined);
      await deploy.compose(['down', '-v', '--remove-orphans'], { timeoutMs: 5 * 60_000 }).catch((err: Error) => console.log(`  compose down: ${err.message}`));
      // Sandboxes a killed worker kept warm (its successor removes them; the last one's go here).
      for (const owner of [`${deploy.project}-worker-1`, `${deploy.project}-worker-2`]) {
        const ids = (await sh('docker', ['ps', '-aq', '--filter', `label=dev.hangar.owner=${owner}`])).trim().split('\n').filter(Boolean);
        if (ids.length) await sh('docker', ['rm', '-f', ...ids]).catch(() => undefined);
      }
      // What a failed case left of the other organizations' workspaces goes too.
      for (const id of otherOrganizations) {
        const left = (await sh('docker', ['ps', '-aq', '--filter', `label=dev.hangar.organization=${id}`])).trim().split('\n').filter(Boolean);
        if (left.length) await sh('docker', ['rm', '-f', ...left]).catch(() => undefined);
      }
      for (const id of [...(org ? [org.organization_id] : []), ...otherOrganizations]) await sh('docker', ['network', 'rm', `hangar-org-${id}`]).catch(() => undefined);
    }
    await models?.close();
  });

  it('runs an operator’s file: every long-running service healthy, the settings file read, Node 24, logs rotated, no secret in the image', async () => {
    const health = async (service: string) => {
      const id = await deploy.containerOf(service);
      return (await sh('docker', ['inspect', '--format', '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}', id])).trim();
    };
    const services = ['postgres', 'temporal-frontend', 'api', 'worker', 'worker-2'];
    await phase('healthchecks: every long-running service healthy', () =>
      until('every service’s healthcheck to pass', async () => (await Promise.all(services.map(health))).every((s) => s === 'healthy'), 5 * 60_000, 2000).catch(async (err: Error) => {
        throw new Error(`${err.message}: ${JSON.stringify(Object.fromEntries(await Promise.all(services.map(async (s) => [s, await health(s)]))))}`);
      }),
    );
    // The settings file reached the api: its /metrics is on, behind that token.
    expect((await fetch(`${deploy.apiUrl}/metrics`)).status).to.equal(401);
    const metrics = await fetch(`${deploy.apiUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(metrics.status).to.equal(200);
    expect(await metrics.text()).to.include('# TYPE');
    // A supported Node LTS, and nothing of the checkout's local state or secrets in the image.
    expect((await deploy.compose(['exec', '-T', 'api', 'node', '--version'])).trim()).to.match(/^v24\./);
    expect((await deploy.compose(['exec', '-T', 'api', 'sh', '-c', 'ls -A /app'])).split('\n')).to.not.include.members(['.env', '.git', '.hangar']);
    // Temporal on a role of its own: it owns its two databases, and Hangar's refuses it.
    const owners = await deploy.compose(['exec', '-T', 'postgres', 'psql', '-U', 'hangar', '-d', 'postgres', '-tAc', "select datname || '=' || pg_get_userbyid(datdba) from pg_database where datname like 'temporal%' or datname = 'hangar' order by 1"]);
    expect(owners.trim().split('\n')).to.deep.equal(['hangar=hangar', 'temporal=temporal', 'temporal_visibility=temporal']);
    const intoHangar = await deploy
      .compose(['exec', '-T', '-e', `PGPASSWORD=${deploy.env.TEMPORAL_DB_PASSWORD}`, 'postgres', 'psql', '-h', '127.0.0.1', '-U', 'temporal', '-d', 'hangar', '-tAc', 'select 1'])
      .then(() => 'connected', (err: Error) => err.message);
    expect(intoHangar).to.match(/permission denied for database "hangar"/);
    for (const service of services) {
      const logging = JSON.parse(await sh('docker', ['inspect', '--format', '{{json .HostConfig.LogConfig}}', await deploy.containerOf(service)])) as { Type: string; Config: Record<string, string> };
      expect(logging, service).to.deep.equal({ Type: 'json-file', Config: { 'max-file': '5', 'max-size': '20m' } });
    }
  });

  /** Every workspace of the deployment's organization. */
  async function workspaceIds(): Promise<string[]> {
    return ((await call('GET', '/v1/replica?limit=100')).body.replicas as Array<{ id: string }>).map((r) => r.id);
  }

  /** Follows a workspace's events until its first turn ends; whether it completed. */
  async function firstTurnOf(replicaId: string): Promise<boolean> {
    const res = await fetch(`${deploy.apiUrl}/v1/replica/${replicaId}/events?after=0`, { headers: { authorization: `Bearer ${org.org_api_key}` }, signal: AbortSignal.timeout(10 * 60_000) });
    for await (const event of sseData<{ type: string; payload: { isComplete?: boolean } }>(res)) {
      if (event.type === 'chat.turn.completed') return event.payload.isComplete === true;
    }
    throw new Error('the events stream ended before the turn did');
  }

  /** The first test's workspace, which later tests use. */
  let workspace: string;

  it("runs a turn of a workspace's real agent_1 CLI through the AI gateway against the provider", async () => {
    await phase('workspace: create → agent_1 turn completed', async () => {
      const created = await call('POST', '/v1/replica', { name: 'deployed', coding_agent: 'agent_1', message: 'Say hello from the deployment.' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      workspace = created.body.replica.id;
      expect(await firstTurnOf(workspace)).to.equal(true);
    });
    const generation = models.modelCalls.find((c) => c.transcript.includes('Say hello from the deployment.'));
    expect(generation, 'the provider saw the prompt').to.not.equal(undefined);
    // The gateway swapped the workspace's placeholder for the organization's credential.
    expect(generation!.headers['x-api-key']).to.equal(credential);
  });

  it('stores media the API takes, and serves a canvas file a worker copies out of its workspace into the store the API reads', async () => {
    await phase('media: upload, link, download; canvas: a file in the workspace', async () => {
      const bytes = Buffer.from(`media from the deployment ${randomUUID()}\n`);
      const res = await fetch(`${deploy.apiUrl}/v1/replica/${workspace}/media?filename=notes.txt`, {
        method: 'POST',
        headers: { ...V, authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      const uploaded = (await res.json()) as any;
      expect(res.status, JSON.stringify(uploaded)).to.equal(201);
      const link = await call('POST', `/v1/replica/${workspace}/media/${uploaded.media.id}/links`, { disposition: 'attachment' });
      expect(link.status, JSON.stringify(link.body)).to.equal(201);
      const url = new URL(link.body.url as string);
      const download = await fetch(`${deploy.apiUrl}${url.pathname}${url.search}`);
      expect(download.status).to.equal(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).to.equal(true);
      stored = { id: uploaded.media.id, bytes };

      // The worker copies the canvas file out of the workspace into the store the API reads.
      await sh('docker', ['exec', '-u', '1000', `hangar-ws-${workspace}`, 'sh', '-c', 'mkdir -p ~/.hangar/canvas && printf "the plan\\n" > ~/.hangar/canvas/plan.md']);
      const plan = await call('GET', `/v1/replica/${workspace}/canvas/plan.md`);
      expect(plan.status, JSON.stringify(plan.body)).to.equal(200);
      expect(plan.body).to.include({ filename: 'plan.md', content: 'the plan\n' });
    });
  });

  it("keeps a workspace from the host's other ports and from another organization's workspace, with the rules the workers installed themselves", async () => {
    // No operator step: the workers installed the egress rules on this host through the engine.
    const rules = await sh('iptables', ['-w', '-S', 'HANGAR-EGRESS']);
    expect(rules).to.include(`--ctorigdstport ${new URL(deploy.apiUrl).port} -j RETURN`);
    const listener = createServer((s) => s.on('error', () => {}).end('host\n'));
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
    const probe = async (replicaId: string, address: string, port: number) =>
      (await sh('docker', ['exec', `hangar-ws-${replicaId}`, 'bash', '-c', `if timeout 5 bash -c 'exec 3<>/dev/tcp/${address}/${port}' 2>/dev/null; then echo open; else echo refused; fi`])).trim();
    try {
      await phase('isolation: a host port and another organization', async () => {
        const other = JSON.parse(await deploy.compose(['exec', '-T', 'api', 'node', '--import', 'tsx', 'src/bin/hangar.ts', 'admin', 'create-org', '--name', 'Other'])) as Organization;
        otherOrganizations.push(other.organization_id);
        const created = await call('POST', '/v1/replica', { name: 'other', coding_agent: 'agent_1', message: 'Stand by.' }, other.org_api_key);
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const theirs = created.body.replica.id as string;
        await until('the other organization’s workspace to run', async () => (await call('GET', `/v1/replica/${theirs}`, undefined, other.org_api_key)).body?.replica?.status === 'active', 5 * 60_000, 1000);
        await sh('docker', ['exec', '-d', `hangar-ws-${theirs}`, 'node', '-e', "require('net').createServer((s) => s.on('error', () => {}).end('b')).listen(8099)"]);
        const theirAddress = (await sh('docker', ['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', `hangar-ws-${theirs}`])).trim();
        await until('their server to listen', async () => (await probe(theirs, '127.0.0.1', 8099)) === 'open', 30_000, 500);
        const port = (listener.address() as { port: number }).port;
        expect(await probe(workspace, 'host.docker.internal', port), 'a port on the host').to.equal('refused');
        expect(await probe(workspace, theirAddress, 8099), "another organization's workspace").to.equal('refused');
        expect(await probe(workspace, 'host.docker.internal', Number(new URL(deploy.apiUrl).port)), "Hangar's API").to.equal('open');
        expect((await call('DELETE', `/v1/replica/${theirs}`, undefined, other.org_api_key)).status).to.be.oneOf([200, 202, 204]);
        await until('the other workspace’s container to go', async () => !(await sh('docker', ['ps', '-aq', '--filter', `name=^hangar-ws-${theirs}$`])).trim(), 120_000, 1000);
      });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('runs a worker service scaled to two on one engine, neither removing the other’s sandboxes', async () => {
    const owner = `${deploy.project}-worker-1`;
    const sandboxesOf = async () => (await sh('docker', ['ps', '-q', '--no-trunc', '--filter', `label=dev.hangar.owner=${owner}`])).trim().split('\n').filter(Boolean);
    const before = await until('the worker’s hook sandboxes to be warm', async () => {
      const ids = await sandboxesOf();
      return ids.length > 0 && ids;
    }, 120_000, 1000);
    const healthOf = async (id: string) => (await sh('docker', ['inspect', '--format', '{{.State.Health.Status}}', id])).trim();
    await phase('docker compose up --scale worker=2, then back to 1', async () => {
      await deploy.compose(['up', '-d', '--no-recreate', '--scale', 'worker=2', 'worker']);
      const workers = await until('two healthy workers', async () => {
        const ids = (await deploy.compose(['ps', '-q', 'worker'])).trim().split('\n').filter(Boolean);
        return ids.length === 2 && (await Promise.all(ids.map(healthOf))).every((h) => h === 'healthy') && ids;
      }, 5 * 60_000, 2000);
      // The second started beside the first: the first's sandboxes are still there, and each worker made its own.
      const during = await sandboxesOf();
      expect(during, 'the first worker’s sandboxes').to.include.members(before);
      const creators = new Set(await Promise.all(during.map(async (id) => (await sh('docker', ['inspect', '--format', '{{index .Config.Labels "dev.hangar.creator"}}', id])).trim())));
      expect([...creators].map((c) => workers.some((w) => c.startsWith(w))), 'each sandbox names its worker’s container').to.not.include(false);
      await deploy.compose(['up', '-d', '--no-recreate', '--scale', 'worker=1', 'worker']);
      await until('one worker again', async () => (await deploy.compose(['ps', '-q', 'worker'])).trim().split('\n').filter(Boolean).length === 1, 120_000, 1000);
    });
  });

  it('serves a public and a members-only preview of a server in a workspace, and a terminal in it, through the published port', async () => {
    await phase('previews (HTTP, WebSocket, members-only) and a terminal', async () => {
      await startApp(`hangar-ws-${workspace}`, 'deployed');
      const tokenOf = (url: string) => /^http:\/\/\d+-([0-9a-f]{32})\./.exec(url)![1]!;
      const open = await call('POST', `/v1/workspaces/${workspace}/previews`, { port: 3000 });
      expect(open.status, JSON.stringify(open.body)).to.equal(201);
      const publicHost = previewHost(tokenOf(open.body.preview.url));
      const get = await raw(deploy.apiUrl, 'GET', '/from/outside', { headers: publicHost });
      expect(get.status, get.text).to.equal(200);
      expect(get.json()).to.include({ app: 'deployed', url: '/from/outside' });
      const socket = await openWebSocket(deploy.apiUrl, '/ws', publicHost);
      expect(socket.status, socket.body).to.equal(101);
      expect(await socket.roundTrip('hi')).to.equal('echo:hi');
      socket.close();

      const members = await call('POST', `/v1/workspaces/${workspace}/previews`, { port: 3001, authenticated: true });
      expect(members.status, JSON.stringify(members.body)).to.equal(201);
      const membersHost = previewHost(tokenOf(members.body.preview.url), 3001);
      expect((await raw(deploy.apiUrl, 'GET', '/who', { headers: membersHost })).status).to.equal(401);
      const member = await raw(deploy.apiUrl, 'GET', '/who', { headers: { ...membersHost, 'x-hangar-api-key': org.org_api_key } });
      expect(member.status, member.text).to.equal(200);
      expect(member.headers['x-app-port']).to.equal('3001');

      // The terminal is held by the workspace's worker; the API reaches it over the database.
      const session = await call('POST', `/v1/workspaces/${workspace}/terminal/sessions`, { cols: 80, rows: 24 });
      expect(session.status, JSON.stringify(session.body)).to.equal(201);
      const sessionId = session.body.session.id as string;
      const stream = await fetch(`${deploy.apiUrl}/v1/workspaces/${workspace}/terminal/sessions/${sessionId}/stream`, { headers: { authorization: `Bearer ${org.org_api_key}` } });
      expect((await call('POST', `/v1/workspaces/${workspace}/terminal/sessions/${sessionId}/input`, { data: 'echo deployed-$((6*7))\r', generation: 0, sequence: 0 })).status).to.equal(200);
      let output = '';
      for await (const event of sseData<{ data?: string }>(stream)) {
        output += event.data ?? '';
        if (output.includes('deployed-42')) break;
      }
      expect(output).to.include('deployed-42');
      expect((await call('DELETE', `/v1/workspaces/${workspace}/terminal/sessions/${sessionId}`)).status).to.equal(200);
    });
  });

  let automationId: string;
  let webhook: string;
  const executions = async (): Promise<Execution[]> => (await call('GET', `/v1/automations/${automationId}/executions?limit=100`)).body.executions;

  it('runs an automation fired by its custom webhook to completion', async () => {
    const environments = (await call('GET', '/v1/environments')).body.environments as Array<{ id: string; is_global?: boolean }>;
    const created = await call('POST', '/v1/automations', {
      name: 'Deployed hook',
      prompt: 'Handle the deployment event.',
      environment_id: (environments.find((e) => e.is_global) ?? environments[0])!.id,
      triggers: [{ type: 'custom', config: {} }],
      agent_provider: 'agent_1',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    automationId = created.body.automation.id;
    webhook = created.body.automation.webhook_token;
    await phase('automation: webhook → run completed', async () => {
      expect((await call('POST', `/v1/automations/webhook/${webhook}`, { event: 'first' }, '')).status).to.equal(202);
      const done = await until('the run to end', async () => {
        const [run] = await executions();
        return run && (run.status === 'completed' || run.status === 'failed') ? run : undefined;
      }, 10 * 60_000, 1000);
      expect(done.status, done.error ?? '').to.equal('completed');
    });
  });

  it('finds that run in the Temporal UI by HangarAutomationId', async () => {
    const [run] = await executions();
    const query = encodeURIComponent(`HangarAutomationId = "${automationId}"`);
    const found = await phase('Temporal UI: the run by HangarAutomationId', () =>
      until('the run in the UI server’s visibility', async () => {
        const res = await fetch(`${deploy.uiUrl}/api/v1/namespaces/default/workflows?query=${query}`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
        if (!res?.ok) return undefined;
        const ids = (((await res.json()) as { executions?: Array<{ execution: { workflowId: string } }> }).executions ?? []).map((e) => e.execution.workflowId);
        return ids.includes(`run/${run!.id}`) ? ids : undefined;
      }, 120_000, 1000),
    );
    expect(found).to.include(`run/${run!.id}`);
  });

  /** A workspace takes another message and completes its turn (no workflow wedged). */
  async function takesNextMessage(replicaId: string): Promise<boolean> {
    const res = await fetch(`${deploy.apiUrl}/v1/replica/${replicaId}/events`, { headers: { authorization: `Bearer ${org.org_api_key}` }, signal: AbortSignal.timeout(10 * 60_000) });
    expect(res.status, `the events of ${replicaId}: ${res.ok ? '' : await res.text()}`).to.equal(200);
    const sent = await call('POST', `/v1/replica/${replicaId}/messages`, { message: 'One more thing after the fault.' });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    // Its own turn: started for this message, then completed on that chat.
    const seen: string[] = [];
    let chatId: string | undefined;
    for await (const event of sseData<{ type: string; payload: { isComplete?: boolean; messageId?: string; chatId?: string; message?: string } }>(res)) {
      seen.push(event.type === 'error' ? `error: ${event.payload.message}` : event.type);
      if (event.type === 'chat.turn.started' && event.payload.messageId === sent.body.message_id) chatId = event.payload.chatId;
      if (event.type === 'chat.turn.completed' && chatId && event.payload.chatId === chatId) {
        if (event.payload.isComplete !== true) throw new Error(`the turn of ${replicaId} did not complete: ${seen.join(', ')}`);
        return true;
      }
    }
    throw new Error(`the events stream of ${replicaId} ended before the turn did, after ${seen.join(', ') || 'no event'}`);
  }

  for (const [service, label] of [
    ['temporal-history', 'the Temporal history service'],
    ['postgres', 'PostgreSQL'],
    ['worker', 'a Hangar worker'],
  ] as const) {
    it(`gives every accepted event exactly one run, none stuck, when ${label} is killed with runs in flight`, async () => {
      const before = (await executions()).length;
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      const events = [1, 2, 3].map((n) => `${service}-${n}`);
      try {
        await phase(`fault: kill ${service} under 3 runs, until all end`, async () => {
          for (const event of events) expect((await call('POST', `/v1/automations/webhook/${webhook}`, { event }, '')).status).to.equal(202);
          // In flight: a turn is waiting on the model.
          await until('a run to reach the model', async () => models.modelCalls.some((c) => events.some((e) => c.transcript.includes(e))), 10 * 60_000, 500);
          await sh('docker', ['kill', await deploy.containerOf(service)]);
          release();
          await deploy.compose(['up', '-d']);
          await ready();
          await until(`the runs of ${events.join(', ')} to end`, async () => {
            const runs = await executions().catch(() => undefined);
            const mine = runs?.filter((r) => events.includes(String(r.trigger_payload.event)));
            return mine && mine.length >= events.length && mine.every((r) => r.status === 'completed' || r.status === 'failed') ? mine : undefined;
          }, 15 * 60_000, 2000);
        });
      } finally {
        release();
      }
      const runs = await executions();
      expect(runs).to.have.length(before + events.length);
      for (const event of events) {
        const mine = runs.filter((r) => r.trigger_payload.event === event);
        expect(mine, `the runs of ${event}`).to.have.length(1);
        const [run] = mine;
        // A killed worker's turns are followed on by its successor: every run completes.
        expect([event, run!.status, run!.error]).to.deep.equal([event, 'completed', null]);
      }
      if (service === 'worker') {
        await phase('after the worker kill: every run’s workspace takes its next message', async () => {
          for (const run of runs.filter((r) => events.includes(String(r.trigger_payload.event)))) {
            expect(await takesNextMessage(run.workspace_id!), `the workspace of ${String(run.trigger_payload.event)}`).to.equal(true);
          }
        });
      }
    });
  }

  it('keeps the same keys, workspaces and runs through docker compose down and up', async () => {
    const replicasBefore = (await workspaceIds()).sort();
    const runsBefore = (await executions()).map((r) => [r.id, r.status]).sort();
    expect(replicasBefore.length).to.be.greaterThan(0);
    await phase('docker compose down, up, until /readyz', async () => {
      await deploy.compose(['down'], { timeoutMs: 5 * 60_000 });
      await deploy.compose(['up', '-d'], { timeoutMs: 15 * 60_000 });
      await ready();
    });
    const replicasAfter = await call('GET', '/v1/replica?limit=100');
    expect(replicasAfter.status, 'the same org key opens the API').to.equal(200);
    expect((replicasAfter.body.replicas as Array<{ id: string }>).map((r) => r.id).sort()).to.deep.equal(replicasBefore);
    expect((await executions()).map((r) => [r.id, r.status]).sort()).to.deep.equal(runsBefore);
    // The credential sealed before opens after: one more turn reaches the provider with it.
    await phase('after up: a webhook run completes', async () => {
      expect((await call('POST', `/v1/automations/webhook/${webhook}`, { event: 'after-restart' }, '')).status).to.equal(202);
      const done = await until('the run after the restart to end', async () => {
        const run = (await executions()).find((r) => r.trigger_payload.event === 'after-restart');
        return run && (run.status === 'completed' || run.status === 'failed') ? run : undefined;
      }, 10 * 60_000, 1000).catch(async (err: Error) => {
        // What the run, its workspace and the workers said, for the failure's message.
        const run = (await executions()).find((r) => r.trigger_payload.event === 'after-restart');
        const workspace = run?.workspace_id ? (await call('GET', `/v1/replica/${run.workspace_id}`)).body : null;
        const logs = await deploy.compose(['logs', '--no-color', '--tail', '60', 'worker', 'worker-2']).catch((e: Error) => e.message);
        throw new Error(`${err.message}; run: ${JSON.stringify(run)}; workspace: ${JSON.stringify(workspace)}; workers:\n${logs}`);
      });
      expect(done.status, done.error ?? '').to.equal('completed');
    });
  });
  it('restores a backup of both databases and the blobs into emptied volumes (docs/operations.md, "Backup and restore")', async () => {
    const replicasBefore = (await workspaceIds()).sort();
    const runsBefore = (await executions()).map((r) => [r.id, r.status]).sort();
    const dir = mkdtempSync(join(tmpdir(), 'hangar-backup-'));
    const env = { ...deploy.env, COMPOSE: deploy.command.join(' ') };
    try {
      await phase('backup (scripts/compose/backup.sh), until /readyz', async () => {
        await sh('bash', ['scripts/compose/backup.sh', dir], { env, timeoutMs: 10 * 60_000 });
        await ready();
      });
      await phase('docker compose down -v, restore (scripts/compose/restore.sh), until /readyz', async () => {
        await deploy.compose(['down', '-v'], { timeoutMs: 5 * 60_000 });
        await sh('bash', ['scripts/compose/restore.sh', dir], { env, timeoutMs: 15 * 60_000 });
        await ready();
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await workspaceIds()).sort(), 'the workspaces').to.deep.equal(replicasBefore);
    expect((await executions()).map((r) => [r.id, r.status]).sort(), 'the runs').to.deep.equal(runsBefore);
    // The blob came back with the volume, and a link signed with the same keys opens it.
    const link = await call('POST', `/v1/replica/${workspace}/media/${stored.id}/links`, { disposition: 'attachment' });
    expect(link.status, JSON.stringify(link.body)).to.equal(201);
    const url = new URL(link.body.url as string);
    const download = await fetch(`${deploy.apiUrl}${url.pathname}${url.search}`);
    expect(download.status).to.equal(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(stored.bytes)).to.equal(true);
    // Temporal's state came back too: the workspace's workflow takes a message, and its turn reaches the provider with the sealed credential.
    await phase('after the restore: the workspace takes its next message', async () => {
      expect(await takesNextMessage(workspace)).to.equal(true);
    });
  });
});
