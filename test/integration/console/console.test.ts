/**
 * The web console (console/, served at /console) in headless Chromium against the real API:
 * signing in, creating an automation through its form, following a run's events, typing into
 * a terminal. Every wait is on a condition in the page.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createReplicaEventEmitter } from '../../../src/events/replicaEvents';
import { harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { insertRun, insertWorkspace, launchBrowser, signedIn, startTerminalRig, type TerminalRig } from './support';

describe('the web console', function () {
  let browser: Browser;
  const pages: Page[] = [];
  /** Script errors and Content-Security-Policy refusals seen by any page of a test. */
  const problems: string[] = [];
  const watch = (page: Page) => {
    pages.push(page);
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) problems.push(msg.text());
    });
    return page;
  };

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(async function () {
    for (const page of pages.splice(0)) await page.close();
    const seen = problems.splice(0);
    if (this.currentTest?.state === 'passed') expect(seen, 'errors in the page').to.deep.equal([]);
  });

  const newPage = async () => watch(await browser.newPage({ viewport: { width: 1280, height: 800 } }));
  const open = async (key: string) => signedIn(await newPage(), key);

  it('is served with a strict Content-Security-Policy, its assets with their types, and stays out of the API document', async () => {
    const base = harness().baseUrl;
    const html = await fetch(`${base}/console`);
    expect(html.status).to.equal(200);
    expect(html.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const csp = html.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("script-src 'self'");
    expect(csp).to.include("default-src 'none'");
    expect(csp).to.include("connect-src 'self'");
    expect(csp).not.to.match(/script-src[^;]*unsafe-inline/);
    expect(await html.text()).not.to.match(/<script(?![^>]*\bsrc=)/);

    for (const [path, type] of [
      ['/console/app.js', 'text/javascript; charset=utf-8'],
      ['/console/console.css', 'text/css; charset=utf-8'],
      ['/console/vendor/xterm.mjs', 'text/javascript; charset=utf-8'],
      ['/console/vendor/xterm.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await fetch(base + path);
      expect([path, res.status, res.headers.get('content-type')]).to.deep.equal([path, 200, type]);
      expect((await res.text()).length).to.be.above(100);
    }
    // Only the console's own files: no path reaches anything else on disk.
    for (const path of ['/console/..%2Fpackage.json', '/console/index.ts', '/console/vendor/xterm.js']) {
      expect((await fetch(base + path)).status, path).to.equal(400);
    }
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((p) => p.startsWith('/console'))).to.deep.equal([]);
  });

  it('signs in with an API key kept in sessionStorage only, refuses a wrong one, and forgets it on log out', async () => {
    const org = await newOrg('console');
    const page = await newPage();
    await page.goto(`${harness().baseUrl}/console`);
    await page.fill('#api-key', 'not-a-key');
    await page.click('#login button[type=submit]');
    await page.locator('#login .error', { hasText: 'That key was not accepted' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);

    await page.fill('#api-key', org.org_api_key);
    await page.click('#login button[type=submit]');
    await page.locator('h1', { hasText: 'Automations' }).waitFor();
    expect(page.url()).to.match(/#\/automations$/);
    expect(await page.evaluate('Object.values(sessionStorage)')).to.deep.equal([org.org_api_key]);
    expect(await page.evaluate('localStorage.length')).to.equal(0);
    expect(await page.context().cookies()).to.deep.equal([]);

    // A reload keeps the session (same tab); a new tab starts signed out.
    await page.reload();
    await page.locator('h1', { hasText: 'Automations' }).waitFor();
    const other = await newPage();
    await other.goto(`${harness().baseUrl}/console#/automations`);
    await other.locator('#login').waitFor();

    await page.click('#logout');
    await page.locator('#login').waitFor();
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
  });

  it('creates an automation through its form: it shows in the list and exists in the API', async () => {
    const org = await newOrg('console');
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'console-env' })).body.environment;
    const page = await open(org.org_api_key);

    await page.fill('#automation-name', 'Triage new issues');
    await page.selectOption('#automation-environment', env.id);
    await page.selectOption('#automation-trigger', 'cron');
    await page.fill('#automation-schedule', '30 6 * * *');
    await page.fill('#automation-prompt', 'Label and summarise the issues opened since yesterday.');
    await page.click('#create-automation button[type=submit]');
    await page.locator('#create-automation .ok', { hasText: 'Created' }).waitFor();
    await page.locator('#automation-list a', { hasText: 'Triage new issues' }).waitFor();
    expect(await page.locator('#automation-list').textContent()).to.include('cron 30 6 * * *');

    const listed = (await api.get('/v1/automations')).body.automations;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ name: 'Triage new issues', environment_id: env.id, prompt: 'Label and summarise the issues opened since yesterday.', enabled: true });
    expect(listed[0].triggers).to.deep.equal([{ type: 'cron', config: { schedule: '30 6 * * *', timezone: 'UTC' } }]);

    // A rule the server enforces comes back as its Error body, shown on the form.
    await page.fill('#automation-name', 'Bad schedule');
    await page.selectOption('#automation-trigger', 'cron');
    await page.fill('#automation-schedule', 'every day');
    await page.fill('#automation-prompt', 'x');
    await page.click('#create-automation button[type=submit]');
    await page.locator('#create-automation .error').waitFor();
    expect((await api.get('/v1/automations')).body.automations).to.have.length(1);
  });

  it("follows a run's events: those before the page opened, then live ones", async () => {
    const org = await newOrg('console');
    const api = as(org.org_api_key);
    const env = (await api.post('/v1/environments', { name: 'console-env' })).body.environment;
    const automation = (
      await api.post('/v1/automations', { name: 'On deploy', prompt: 'Check the deploy.', environment_id: env.id, triggers: [{ type: 'custom', config: {} }] })
    ).body.automation;
    const workspace = await insertWorkspace(org.organization_id);
    const run = await insertRun(automation.id, org.organization_id, workspace);
    const emitter = createReplicaEventEmitter(harness().database.repos.replicaEvents, harness().database.bus);
    await emitter.emit(workspace, 'engine.ready', { version: 'v1' });
    await emitter.emit(workspace, 'chat.created', { chat: { id: 'c1', title: 'Check the deploy' } });

    const page = await open(org.org_api_key);
    await page.click(`#automation-list a:has-text("On deploy")`);
    await page.locator(`#runs a[href="#/automations/${automation.id}/runs/${run}"]`).click();
    await page.locator('#run-status', { hasText: 'running' }).waitFor();
    await page.locator('.events li[data-type="chat.created"]').waitFor();
    await page.locator('.stream-state[data-state="open"]').waitFor();

    await emitter.emit(workspace, 'chat.turn.delta', { chatId: 'c1', event: { type: 'agent_1-assistant', payload: { message: { content: [{ type: 'text', text: 'The deploy looks healthy.' }] } } } });
    await emitter.emit(workspace, 'chat.turn.completed', { chatId: 'c1', isComplete: true });
    await page.locator('.events li[data-type="chat.turn.completed"]').waitFor();
    const types = await Promise.all((await page.locator('.events li').all()).map((li) => li.getAttribute('data-type')));
    expect(types).to.deep.equal(['engine.ready', 'chat.created', 'chat.turn.delta', 'chat.turn.completed']);
    expect(await page.locator('.events li[data-type="chat.turn.delta"]').textContent()).to.include('The deploy looks healthy.');
  });

  it("parses event streams split anywhere, with CRLF, comments and multi-line data (the console's own parser)", async () => {
    const org = await newOrg('console');
    const page = await open(org.org_api_key);
    // A string, not a function: the test's compiler would turn a dynamic import into require().
    const messages = await page.evaluate(`(async () => {
      const { SseParser } = await import('/console/sse.js');
      const text = ': hello\\r\\nid: 7\\r\\nevent: output\\r\\ndata: {"a":\\r\\ndata: 1}\\r\\n\\r\\ndata:no-space\\n\\nid: 8\\ndata: x\\n\\n';
      const out = [];
      // Every split point, one character at a time: a chunk boundary never changes the result.
      const parser = new SseParser();
      for (const ch of text) out.push(...parser.feed(ch));
      return out;
    })()`);
    expect(messages).to.deep.equal([
      { event: 'output', id: '7', data: '{"a":\n1}' },
      { event: 'message', id: '7', data: 'no-space' },
      { event: 'message', id: '8', data: 'x' },
    ]);
  });

  describe('terminal', () => {
    let rig: TerminalRig;
    before(async () => {
      rig = await startTerminalRig();
    });
    after(async () => {
      await rig?.close();
    });

    it('opens a terminal on a workspace, and what is typed runs in its shell with the output shown', async () => {
      const org = await newOrg('console');
      const workspace = await insertWorkspace(org.organization_id);
      rig.containers.set(workspace, rig.container.name);
      const page = await open(org.org_api_key);
      await page.goto(`${harness().baseUrl}/console#/workspaces/${workspace}/terminal`);
      await page.locator('#new-terminal').click();
      await page.locator('#terminal[data-stream="open"]').waitFor();
      await page.locator('#terminal .xterm').click();
      // Arithmetic, so the echo of the typed command never passes for its output.
      await page.keyboard.type('echo console-$((6*7))');
      await page.keyboard.press('Enter');
      await page.locator('#terminal .xterm-rows', { hasText: 'console-42' }).waitFor();

      const sessions = (await as(org.org_api_key).get(`/v1/workspaces/${workspace}/terminal/sessions`)).body.sessions;
      expect(sessions).to.have.length(1);
      expect(await page.locator('#terminal').getAttribute('data-session')).to.equal(sessions[0].id);
      await page.locator('#terminal-sessions', { hasText: 'Terminal 1' }).waitFor();
    });
  });
});
