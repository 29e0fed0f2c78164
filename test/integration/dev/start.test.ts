/**
 * `npm start` end to end: the one-process dev server on the embedded database, with its
 * Temporal child process, seeded credentials, Ctrl-C and a second start on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { DevCredentials } from '../../../src/bin/dev';
import { freePort } from '../../../src/temporal/devServer';
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

  async function start(ports: { api: number; temporal: number; ui: number }): Promise<DevCredentials> {
    output = '';
    const env: NodeJS.ProcessEnv = {
      ...process.env,
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
});
