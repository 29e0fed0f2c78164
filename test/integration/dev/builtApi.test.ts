/**
 * The production API as it ships: `npm run build` bundles src/bin/api.ts into one file
 * (dependencies stay in node_modules), and `node dist/api.js` must serve what the source does:
 * its API, its documentation assets and the console's files, found beside the package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { buildApi } from '../../../scripts/buildApi';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';

const ROOT = join(__dirname, '..', '..', '..');

describe('the built API (npm run build)', function () {
  this.timeout(60_000);
  let out: string;
  let api: ChildProcess | undefined;
  let url: string;

  before(async () => {
    // Built beside the package, as the image does, so that it resolves node_modules and the console from there.
    out = mkdtempSync(join(ROOT, '.hangar', 'build-'));
    const bundle = await buildApi(join(out, 'api.js'));
    api = spawn(process.execPath, ['--enable-source-maps', bundle], {
      cwd: tmpdir(),
      env: { ...process.env, ...harness().env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const port = await new Promise<number>((found, failed) => {
      api!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        for (const line of output.split('\n').slice(0, -1)) {
          const record = JSON.parse(line) as { msg?: string; port?: number };
          if (record.msg === 'api listening') found(record.port!);
        }
      });
      api!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      api!.once('exit', (code) => failed(new Error(`the built API exited (${code}):\n${output.slice(-3000)}`)));
    });
    url = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    if (api && api.exitCode === null) {
      await new Promise((done) => {
        api!.once('exit', done);
        api!.kill('SIGTERM');
      });
    }
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('answers the API, its documentation and the console from one bundled file, started from another directory', async () => {
    expect((await fetch(`${url}/readyz`)).status).to.equal(200);
    const org = await newOrg('built-api');
    const environments = await fetch(`${url}/v1/environments`, { headers: { authorization: `Bearer ${org.org_api_key}` } });
    expect(environments.status).to.equal(200);
    expect(((await environments.json()) as { environments: unknown[] }).environments).to.have.length.above(0);
    expect((await fetch(`${url}/docs/assets/swagger-ui.css`)).status).to.equal(200);
    const page = await fetch(`${url}/console`);
    expect(page.status).to.equal(200);
    expect(await page.text()).to.include('<script type="module"');
    expect((await fetch(`${url}/console/vendor/xterm.mjs`)).status).to.equal(200);
  });
});
