/**
 * Preview origins in a real browser (the headless Chromium the console tests use): a workspace's
 * page that registers a service worker for `/` never controls the console, in the default host
 * form nor on the path-form listener; a signed link opened from another site lands in the
 * members-only preview with its SameSite=Strict cookie; and a page of one preview cannot open a
 * WebSocket into another member's preview with the visitor's cookie, even where the two previews
 * are the same site (a registrable domain, here mapped to loopback by Chromium's resolver).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { Config } from '../../../src/config';
import { createLogger } from '../../../src/logger';
import { buildApi, type ApiProcess } from '../../../src/processes';
import { launchBrowser } from '../console/support';
import { harness, reservePort } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { startApp, tokenOf } from './support';

/** A registrable domain (`.com` is a public suffix), so all its previews are one site to the browser. */
const SITE_DOMAIN = 'preview.example.com';

describe('previews in a browser: workspace content never runs on the console', function () {
  this.timeout(300_000);

  let browser: Browser;
  let org: Awaited<ReturnType<typeof newOrg>>;
  let workspaceId: string;
  const pages: Page[] = [];
  const others: Array<() => Promise<void>> = [];
  const previews = () => `/v1/workspaces/${workspaceId}/previews`;

  async function otherApi(config: Partial<Config>): Promise<string> {
    const h = harness();
    const logger = createLogger({ level: 'debug', write: (line) => h.logs.push(line) });
    const api: ApiProcess = await buildApi({ config: { ...h.config, ...config }, logger, database: h.database, temporalAddress: h.temporal.address });
    const server: Server = await api.listen(0, '127.0.0.1');
    others.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await api.close();
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  const newPage = async () => {
    const page = await (await browser.newContext()).newPage();
    pages.push(page);
    return page;
  };

  /** Opens the console and reports whether anything controls it, and what it shows. */
  async function consoleState(page: Page, base: string) {
    await page.goto(`${base}/console`);
    await page.locator('#api-key').waitFor();
    // Evaluated in the page, as text (the test's own TypeScript has no DOM types).
    return page.evaluate<{ controlled: boolean; registrations: string[]; title: string }>(`(async () => ({
      controlled: navigator.serviceWorker.controller !== null,
      registrations: (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope),
      title: document.title,
    }))()`);
  }

  before(async () => {
    browser = await launchBrowser([`--host-resolver-rules=MAP *.${SITE_DOMAIN} 127.0.0.1`]);
    org = await newOrg('preview-browser');
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: { 'X-Api-Version': '2026-05-17' }, body: { name: 'browser', coding_agent: 'agent_1', message: '!sleep 600000' } });
    expect(created.status).to.equal(201);
    workspaceId = created.body.replica.id;
    await until('the workspace to be active with a recorded address', async () => {
      const row = await harness().database.db('replicas').where({ id: workspaceId }).first('status', 'container_address');
      return row?.status === 'active' && !!row.container_address;
    }, 180_000, 250);
    await startApp(`hangar-ws-${workspaceId}`);
  });

  afterEach(async () => {
    for (const page of pages.splice(0)) await page.context().close();
  });

  after(async () => {
    for (const close of others.splice(0)) await close();
    await browser?.close();
    if (workspaceId) await as(org.org_api_key).delete(`/v1/replica/${workspaceId}`);
  });

  it('a service worker a preview registers for / controls only its own origin, never /console', async () => {
    const shared = await as(org.org_api_key).post(previews(), { port: 3000 });
    const url = shared.body.preview.url as string;
    expect(new URL(url).origin).not.to.equal(new URL(harness().baseUrl).origin);
    const page = await newPage();
    await page.goto(`${url}sw.html`);
    await page.waitForFunction("document.title !== 'pending'", undefined, { timeout: 30_000 });
    // It may register over its own origin: that origin is the preview's alone.
    expect(await page.title()).to.equal(`registered ${url}`);
    await page.goto(`${url}anything`);
    expect(await page.title()).to.equal('hijacked');

    const state = await consoleState(page, harness().baseUrl);
    expect(state).to.deep.equal({ controlled: false, registrations: [], title: state.title });
    expect(state.title).not.to.equal('hijacked');
  });

  it('on the path-form listener, the browser refuses a service worker wider than the preview', async () => {
    const previewPort = await reservePort();
    const base = await otherApi({ previewListener: { port: previewPort, host: '127.0.0.1', url: undefined }, previewUrls: 'path' });
    const url = ((await request('GET', previews(), { key: org.org_api_key, base })).body.previews as Array<{ port: number; url: string }>).find((p) => p.port === 3000)!.url;
    expect(url).to.equal(`http://127.0.0.1:${previewPort}/preview/${tokenOf(url)}/`);
    const page = await newPage();
    await page.goto(`${url}sw.html`);
    await page.waitForFunction("document.title !== 'pending'", undefined, { timeout: 30_000 });
    // The app sent Service-Worker-Allowed: /, which the proxy dropped.
    expect(await page.title()).to.equal('refused SecurityError');
    const state = await consoleState(page, base);
    expect(state.controlled).to.equal(false);
    expect(state.registrations).to.deep.equal([]);
  });

  it('a signed link opened from another site lands in the members-only preview with its Strict cookie', async () => {
    const created = await as(org.org_api_key).post(previews(), { port: 3001, authenticated: true });
    expect(created.status).to.equal(201);
    const link = (await as(org.org_api_key).post(`${previews()}/3001/links`)).body.link.url as string;
    const page = await newPage();
    // Another site: the API's own address.
    await page.goto(`${harness().baseUrl}/healthz`);
    await page.evaluate(`location.href = ${JSON.stringify(link)}`);
    await page.waitForURL(`${new URL(link).origin}/`, { timeout: 30_000 });
    await page.locator('body', { hasText: '"app"' }).waitFor({ timeout: 30_000 });
    const seen = JSON.parse(await page.locator('body').innerText()) as { url: string; headers: Record<string, string> };
    expect(seen.url).to.equal('/');
    // Hangar's cookie opened it and went no further.
    expect(seen.headers).not.to.have.property('cookie');
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => [c.name, c.sameSite, c.httpOnly])).to.deep.equal([['hangar_preview', 'Strict', true]]);
  });

  it("a page of one preview cannot open a WebSocket into a member's preview with the visitor's cookie", async () => {
    const base = await otherApi({ previewDomain: SITE_DOMAIN });
    const port = new URL(base).port;
    const list = (await request('GET', previews(), { key: org.org_api_key, base })).body.previews as Array<{ port: number; url: string }>;
    const publicUrl = list.find((p) => p.port === 3000)!.url;
    const memberUrl = list.find((p) => p.port === 3001)!.url;
    expect(new URL(memberUrl).host).to.equal(`3001-${tokenOf(memberUrl)}.${SITE_DOMAIN}:${port}`);
    const link = (await request('POST', `${previews()}/3001/links`, { key: org.org_api_key, base })).body.link.url as string;

    const page = await newPage();
    await page.goto(link);
    await page.locator('body', { hasText: '"app"' }).waitFor({ timeout: 30_000 });
    const socketUrl = `ws://${new URL(memberUrl).host}/ws`;
    const open = (url: string) =>
      page.evaluate<string>(`new Promise((resolve) => {
        const socket = new WebSocket(${JSON.stringify(url)});
        socket.onopen = () => { socket.close(); resolve('open'); };
        socket.onerror = () => resolve('refused');
      })`);
    // From the preview's own page, its cookie opens the socket.
    expect(await open(socketUrl)).to.equal('open');
    // The same site, another origin: the browser sends the cookie, and the proxy refuses.
    await page.goto(`${publicUrl}from-another-preview`);
    expect(await open(socketUrl)).to.equal('refused');
  });
});
