/**
 * The production API as it ships: `npm run build` bundles src/bin/api.ts into one file
 * (dependencies stay in node_modules), and `node dist/api.js` must serve what the source does:
 * its API, its documentation assets and the console's files, found beside the package.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { buildApi } from '../../../scripts/buildApi';
import { ROOT, startEntryProcess, stopEntryProcess, type EntryProcess } from '../../support/entryProcess';
import { harness } from '../../support/harness';
import { newOrg } from '../../support/http';


describe('the built API (npm run build)', function () {
  this.timeout(60_000);
  let out: string;
  let api: EntryProcess | undefined;
  let url: string;

  before(async () => {
    // Built beside the package, as the image does, so that it resolves node_modules and the console from there.
    out = mkdtempSync(join(ROOT, '.hangar', 'build-'));
    const bundle = await buildApi(join(out, 'api.js'));
    api = await startEntryProcess(['--enable-source-maps', bundle], {
      cwd: tmpdir(),
      env: { ...harness().env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      ready: 'api listening',
    });
    url = `http://127.0.0.1:${api.line.port as number}`;
  });

  after(async () => {
    if (api) await stopEntryProcess(api.child);
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
