/**
 * `npm start` end to end: the one-process dev server on the embedded database, with its
 * Temporal child process, seeded credentials, Ctrl-C and a second start on the same data; and a
 * kill -9 of it under an agent turn, whose next start takes the turn over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { DevCredentials } from '../../../src/bin/dev';
import { freePort } from '../../../src/temporal/devServer';
import { workspaceName } from '../../../src/sandbox/workspace';
import { execInContainer } from '../../support/containerExec';
import { until } from '../../support/wait';

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('npm start (the one-process dev server)', function () {
  this.timeout(240_000);
  let dataDir: string;
  let child: ChildProcess | null = null;
  let output = '';

  async function start(ports: { api: number; temporal: number; ui: number }, settings: Record<string, string> = {}): Promise<DevCredentials> {
    output = '';
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...settings,
      HANGAR_DATA_DIR: dataDir,
      PORT: String(ports.api),
      HANGAR_TEMPORAL_PORT: String(ports.temporal),
      HANGAR_TEMPORAL_UI_PORT: String(ports.ui),
      HANGAR_SANDBOX_POOL_SIZE: '1',
      HANGAR_SANDBOX_OWNER: `hangar-tests-dev-${process.pid}`,
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
    delete env.HANGAR_ENCRYPTION_KEYS;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/bin/dev.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => (output += d));
    child.stderr!.on('data', (d: Buffer) => (output += d));
    await until('the API to be ready', async () => {
      if (child!.exitCode !== null) throw new Error(`dev exited early:\n${output}`);
      const res = await fetch(`http://127.0.0.1:${ports.api}/readyz`);
      return res.status === 200 && output.includes('Org API key');
    }, 90_000);
    return JSON.parse(readFileSync(join(dataDir, 'dev-credentials.json'), 'utf8')) as DevCredentials;
  }

  async function stop(): Promise<number | null> {
    const c = child!;
    child = null;
    const exited = new Promise<number | null>((resolve) => c.once('exit', (code) => resolve(code)));
    c.kill('SIGINT');
    return exited;
  }

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'hangar-dev-'));
  });

  after(async () => {
    if (child) await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** kill -9, as a crash or an out-of-memory kill takes the whole process. */
  async function kill(): Promise<void> {
    const c = child!;
    child = null;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await exited;
  }

  it('seeds an organization, serves the API and the Temporal UI, stops cleanly and reuses its data', async () => {
    const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort() };
    const first = await start(ports);
    expect(first.base_url).to.equal(`http://localhost:${ports.api}`);
    expect(first.temporal_ui_url).to.equal(`http://127.0.0.1:${ports.ui}`);
    expect(output).to.include(first.org_api_key);
    expect(output).to.include(first.temporal_ui_url!);
    expect(existsSync(join(dataDir, 'pgdata'))).to.equal(true);

    const api = `http://127.0.0.1:${ports.api}`;
    const headers = { authorization: `Bearer ${first.org_api_key}`, 'content-type': 'application/json' };
    const list = (await (await fetch(`${api}/v1/environments`, { headers })).json()) as any;
    expect(list.environments[0]).to.include({ is_global: true, organization_id: first.organization_id });
    const created = await fetch(`${api}/v1/environments`, { method: 'POST', headers, body: JSON.stringify({ name: 'kept' }) });
    expect(created.status).to.equal(201);
    const personal = await fetch(`${api}/v1/environments?scope=user`, { headers: { authorization: `Bearer ${first.personal_api_key}` } });
    expect(personal.status).to.equal(200);
    const hook = await fetch(`${api}/v1/environments/global/start-hooks/test`, { method: 'POST', headers, body: JSON.stringify({ content: 'echo dev-ok' }) });
    expect(((await hook.json()) as any).test).to.include({ exit_code: 0 });
    expect((await fetch(first.temporal_ui_url!)).status).to.equal(200);

    expect(await stop()).to.equal(0);
    expect(await portAnswers(ports.temporal), 'the Temporal child process is gone').to.equal(false);
    expect(await portAnswers(ports.api)).to.equal(false);

    const second = await start(ports);
    expect(second.org_api_key).to.equal(first.org_api_key);
    const again = (await (await fetch(`${api}/v1/environments`, { headers })).json()) as any;
    expect(again.environments.map((e: { name: string }) => e.name)).to.include('kept');
    expect(await stop()).to.equal(0);
  });

  it('takes an agent turn over after a kill -9 of the whole process, with every event once', async () => {
    const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort() };
    // The image's test agent, which waits at a gate the test opens after the restart.
    const settings = { HANGAR_AGENT_EXECUTABLE: 'hangar-test-agent' };
    const credentials = await start(ports, settings);
    const api = `http://127.0.0.1:${ports.api}`;
    const headers = { authorization: `Bearer ${credentials.org_api_key}`, 'content-type': 'application/json', 'x-api-version': '2026-05-17' };
    const gate = '/home/hangar/.go-on';
    const message = ['before the kill', `!run while [ ! -e ${gate} ]; do sleep 0.2; done`, 'after the kill'].join('\n');
    const created = await fetch(`${api}/v1/replica`, { method: 'POST', headers, body: JSON.stringify({ name: 'killed-dev', coding_agent: 'agent_1', message }) });
    expect(created.status).to.equal(201);
    const id = ((await created.json()) as any).replica.id as string;
    const said = async () => {
      const history = (await (await fetch(`${api}/v1/replica/${id}/history?limit=100`, { headers })).json()) as any;
      return (history.events ?? []).map((e: any) => (e.type === 'agent_1-assistant' ? e.payload.message.content.map((c: any) => c.text ?? c.name).join(' ') : e.type));
    };
    await until('the agent to wait at its gate', async () => (await said()).includes('Bash'), 120_000, 250);

    await kill();
    expect(await portAnswers(ports.temporal), 'the premise: the Temporal child outlives a kill -9').to.equal(true);
    await start(ports, settings);
    await execInContainer(workspaceName(id), `touch ${gate}`);
    const events = await until('the turn to end', async () => {
      const now = await said();
      return now.includes('agent_1-result') && now;
    }, 180_000, 500);
    expect(events.filter((e: string) => e === 'before the kill')).to.have.length(1);
    expect(events.filter((e: string) => e === 'after the kill')).to.have.length(1);
    expect(events.filter((e: string) => e === 'agent_1-result')).to.have.length(1);
    const replica = (await (await fetch(`${api}/v1/replica/${id}`, { headers })).json()) as any;
    expect(replica.replica.chats.map((c: any) => c.processing)).to.deep.equal([false]);
    expect((await fetch(`${api}/v1/replica/${id}`, { method: 'DELETE', headers })).status).to.equal(200);
    expect(await stop()).to.equal(0);
  });
});
