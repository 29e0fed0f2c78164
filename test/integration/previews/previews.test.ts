/**
 * Preview URLs end to end: a real workspace container runs a small app; its ports are shared
 * from inside (the `hangar preview` CLI with the engine secret) and through the API, and
 * reached through Hangar's proxy in the host form under `localhost` (the default), under an
 * operator's domain (a second API process), and in the path form on a listener of its own (a
 * third): HTTP, server-sent events and WebSockets, public and members-only, signed links, what
 * an answer may not carry beyond its preview, old links on the API's origin, waking a sleeping
 * workspace, and nothing listening.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { hashEngineSecret } from '../../../src/domain/replicas';
import { createLogger } from '../../../src/logger';
import { buildApi, type ApiProcess } from '../../../src/processes';
import { execInContainer } from '../../support/containerExec';
import { harness, reservePort } from '../../support/harness';
import { networkDiagnosis } from '../../support/networkDiagnosis';
import { as, errorOf, newOrg, request } from '../../support/http';
import { expectShape } from '../../support/originalShapes';
import { sseData } from '../../support/sse';
import { until } from '../../support/wait';
import { openSse, openWebSocket, raw, startApp, tokenOf } from './support';

const V = { 'X-Api-Version': '2026-05-17' };
const DOMAIN = 'preview.test';

/** The Host header of a preview in the default host form, on the harness's port. */
const at = (token: string, port = 3000) => ({ host: `${port}-${token}.localhost:${harness().config.port}` });

/** Another API process over the harness's database and cluster, with other preview settings. */
async function otherApi(config: Partial<import('../../../src/config').Config>): Promise<{ base: string; close(): Promise<void> }> {
  const h = harness();
  const logger = createLogger({ level: 'debug', write: (line) => h.logs.push(line) });
  const process: ApiProcess = await buildApi({ config: { ...h.config, ...config }, logger, database: h.database, temporalAddress: h.temporal.address });
  const server: Server = await process.listen(0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await process.close();
    },
  };
}

describe('previews: workspace ports at a URL through the proxy', function () {
  this.timeout(300_000);

  let org: Awaited<ReturnType<typeof newOrg>>;
  let api: ReturnType<typeof as>;
  let workspaceId: string;
  let container: string;
  let engineSecret: string;
  /** The token of port 3000's preview (public), from the URL `hangar preview create` printed. */
  let publicToken: string;
  const base = () => harness().baseUrl;
  const previews = () => `/v1/workspaces/${workspaceId}/previews`;
  const engine = (secret: string, id: string) => ({ authorization: `Bearer ${secret}`, 'x-workspace-id': id });
  const statusOf = async () => (await harness().database.db('replicas').where({ id: workspaceId }).first('status'))?.status as string;

  before(async () => {
    org = await newOrg('previews');
    api = as(org.org_api_key);
    // A turn that waits keeps the workspace active (the suite's idle timeout is short).
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'previews', coding_agent: 'agent_1', message: '!sleep 600000' } });
    expect(created.status).to.equal(201);
    workspaceId = created.body.replica.id;
    container = `hangar-ws-${workspaceId}`;
    await until('the workspace to be active with a recorded address', async () => {
      const row = await harness().database.db('replicas').where({ id: workspaceId }).first('status', 'container_address');
      return row?.status === 'active' && !!row.container_address;
    }, 180_000, 250);
    await startApp(container);
    engineSecret = (await execInContainer(container, 'printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    expect(engineSecret).to.have.length.greaterThan(20);
  });

  it('creates, lists and deletes previews from inside the workspace with the hangar CLI', async () => {
    const printed = (await execInContainer(container, 'hangar preview create 3000')).trim();
    // Each preview is an origin of its own under localhost; a workspace's own call gets Hangar's local port.
    const url = new RegExp(`^http://3000-[0-9a-f]{32}\\.localhost:${harness().config.port}/$`);
    // The first call from inside the workspace: when it does not reach Hangar, say why.
    if (!url.test(printed)) expect.fail(`hangar preview create printed: ${printed}\n${await networkDiagnosis(container, harness().config.port)}`);
    const listed = await api.get(previews());
    expect(listed.status).to.equal(200);
    expect(listed.body.previews).to.have.length(1);
    expect(listed.body.previews[0]).to.include({ port: 3000, authenticated: false });
    publicToken = tokenOf(printed);

    const table = await execInContainer(container, 'hangar preview create 3999 && hangar preview list');
    expect(table).to.match(/PORT\s+ACCESS\s+URL/).and.match(/3000\s+public\s+http/).and.match(/3999\s+public\s+http/);
    expect(await execInContainer(container, 'hangar preview delete 3999')).to.include('port 3999 is no longer shared');
    expect(await execInContainer(container, 'hangar preview delete 3999; echo "exit=$?"')).to.include('Preview not found (HTTP 404)').and.include('exit=1');
    expect(await execInContainer(container, 'hangar preview create 0; echo "exit=$?"')).to.include('from 1 to 65535').and.include('exit=2');
    expect((await api.get(previews())).body.previews.map((p: { port: number }) => p.port)).to.deep.equal([3000]);
  });

  it('forwards method, path, query and body in the host form, with X-Forwarded-* and without Hangar credentials', async () => {
    const get = await raw(base(), 'GET', '/some/path?x=1&y=two', { headers: { ...at(publicToken), authorization: 'Bearer app-own-token', cookie: 'theme=dark' } });
    expect(get.status, get.text).to.equal(200);
    const seen = get.json();
    expect(seen).to.include({ method: 'GET', url: '/some/path?x=1&y=two' });
    expect(seen.headers).to.include({ authorization: 'Bearer app-own-token', cookie: 'theme=dark', 'x-forwarded-proto': 'http', 'x-forwarded-host': at(publicToken).host });
    expect(seen.headers).not.to.have.property('x-forwarded-prefix');
    expect(seen.headers['x-forwarded-for']).to.be.a('string').and.not.equal('');

    const post = await raw(base(), 'PUT', '/items/7', { headers: { ...at(publicToken), 'content-type': 'text/plain', 'x-hangar-api-key': org.org_api_key, authorization: `Bearer ${org.org_api_key}` }, body: 'payload-123' });
    expect(post.json()).to.include({ method: 'PUT', url: '/items/7', body: 'payload-123' });
    // A member's key never reaches the workspace, in either header.
    expect(post.json().headers).not.to.have.property('x-hangar-api-key');
    expect(post.json().headers).not.to.have.property('authorization');

    const unknown = await raw(base(), 'GET', '/', { headers: at('0'.repeat(32)) });
    expect(unknown.status).to.equal(404);
    expect(errorOf({ status: 404, body: unknown.json(), headers: new Headers() }).error).to.equal('Preview not found');
    // The API itself still answers on its own host.
    expect((await raw(base(), 'GET', '/healthz')).status).to.equal(200);
  });

  it("never serves a workspace on the API's origin: an old path-form link redirects to the preview's own", async () => {
    const old = await raw(base(), 'POST', `/preview/${publicToken}/items/9?x=1`, { headers: { 'content-type': 'text/plain' }, body: 'kept' });
    expect(old.status).to.equal(308);
    expect(old.headers.location).to.equal(`http://3000-${publicToken}.localhost:${new URL(base()).port}/items/9?x=1`);
    expect(old.text).to.equal('');
    const bare = await raw(base(), 'GET', `/preview/${publicToken}`);
    expect(bare.status).to.equal(308);
    expect(bare.headers.location).to.equal(`http://3000-${publicToken}.localhost:${new URL(base()).port}/`);
    const unknown = await raw(base(), 'GET', `/preview/${'0'.repeat(32)}/`);
    expect(unknown.status).to.equal(404);
    expect(unknown.json()).to.deep.include({ error: 'Preview not found' });
    const socket = await openWebSocket(base(), `/preview/${publicToken}/socket`);
    expect(socket.status).to.equal(404);
    expect(JSON.parse(socket.body).details).to.include(`3000-${publicToken}.localhost`);
  });

  it('drops what an answer would do beyond its preview: a wider service worker scope, wiping storage, HSTS, cookies for other hosts', async () => {
    const answer = await raw(base(), 'GET', '/headers', { headers: at(publicToken) });
    expect(answer.status).to.equal(200);
    expect(answer.text).to.equal('headers');
    for (const name of ['service-worker-allowed', 'clear-site-data', 'strict-transport-security']) expect(answer.headers, name).not.to.have.property(name);
    // Its own host's cookies stay; a parent domain's (every preview and Hangar's) and Hangar's own name do not.
    expect(answer.headers['set-cookie']).to.deep.equal(['own=1; Path=/', 'near=1']);
  });

  it('streams server-sent events as they happen and carries a WebSocket both ways', async () => {
    const sse = await openSse(base(), '/sse', at(publicToken));
    expect(sse.status).to.equal(200);
    expect(await sse.next()).to.equal('one');
    // The second event exists only after the test asks for it, so the first arrived on its own.
    expect((await raw(base(), 'GET', '/release', { headers: at(publicToken) })).text).to.equal('released');
    expect(await sse.next()).to.equal('two');
    await sse.ended;

    const ws = await openWebSocket(base(), '/socket?room=7', at(publicToken));
    expect(ws.status).to.equal(101);
    expect(ws.headers['x-seen-url']).to.equal('/socket?room=7');
    expect(await ws.roundTrip('hello')).to.equal('echo:hello');
    expect(await ws.roundTrip('again')).to.equal('echo:again');
    ws.close();
  });

  it('routes the host form {port}-{token}.{domain} on an API with a preview domain', async () => {
    const other = await otherApi({ previewDomain: DOMAIN });
    const hostBase = other.base;
    try {
      // Creating the port's preview again keeps it (200), and this API answers the host form.
      const again = await raw(hostBase, 'POST', previews(), { headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' }, body: JSON.stringify({ port: 3000 }) });
      expect(again.status).to.equal(200);
      const url = new URL(again.json().preview.url);
      expect(url.hostname).to.equal(`3000-${publicToken}.${DOMAIN}`);

      const get = await raw(hostBase, 'POST', '/deep/path?a=b', { headers: { host: url.host, 'content-type': 'application/json' }, body: '{"k":1}' });
      expect(get.status).to.equal(200);
      expect(get.json()).to.include({ method: 'POST', url: '/deep/path?a=b', body: '{"k":1}' });
      expect(get.json().headers).to.include({ 'x-forwarded-host': url.host, 'x-forwarded-proto': 'http' });
      expect(get.json().headers).not.to.have.property('x-forwarded-prefix');

      const ws = await openWebSocket(hostBase, '/ws', { host: url.host });
      expect(ws.status).to.equal(101);
      expect(await ws.roundTrip('over the host form')).to.equal('echo:over the host form');
      ws.close();

      const headers = await raw(hostBase, 'GET', '/headers', { headers: { host: url.host } });
      expect(headers.headers).not.to.have.property('service-worker-allowed');
      expect(headers.headers['set-cookie']).to.deep.equal(['own=1; Path=/', 'near=1']);

      // The port is part of the name: another port with this token is no preview; nor is junk under the domain.
      expect((await raw(hostBase, 'GET', '/', { headers: { host: `3001-${publicToken}.${DOMAIN}` } })).status).to.equal(404);
      const junk = await raw(hostBase, 'GET', '/v1/environments', { headers: { host: `api.${DOMAIN}`, authorization: `Bearer ${org.org_api_key}` } });
      expect(junk.status).to.equal(404);
      expect(junk.json().error).to.equal('Preview not found');
      // The API itself still answers on its own host, and an old path-form link goes to the domain.
      expect((await raw(hostBase, 'GET', '/healthz')).status).to.equal(200);
      expect((await raw(hostBase, 'GET', `/preview/${publicToken}/x`)).headers.location).to.equal(`http://3000-${publicToken}.${DOMAIN}:${new URL(hostBase).port}/x`);
    } finally {
      await other.close();
    }
  });

  it('serves the path form only on a listener of its own, which answers nothing of the API', async () => {
    const previewPort = await reservePort();
    const other = await otherApi({ previewListener: { port: previewPort, host: '127.0.0.1', url: undefined }, previewUrls: 'path' });
    const listener = `http://127.0.0.1:${previewPort}`;
    try {
      const again = await raw(other.base, 'POST', previews(), { headers: { authorization: `Bearer ${org.org_api_key}`, 'content-type': 'application/json' }, body: JSON.stringify({ port: 3000 }) });
      expect(again.json().preview.url).to.equal(`${listener}/preview/${publicToken}/`);

      const get = await raw(listener, 'GET', `/preview/${publicToken}/some/path?x=1`, { headers: { cookie: 'theme=dark' } });
      expect(get.status).to.equal(200);
      expect(get.json()).to.include({ url: '/some/path?x=1' });
      expect(get.json().headers).to.include({ cookie: 'theme=dark', 'x-forwarded-prefix': `/preview/${publicToken}`, 'x-forwarded-host': `127.0.0.1:${previewPort}` });
      const bare = await raw(listener, 'GET', `/preview/${publicToken}?q=1`);
      expect(bare.status).to.equal(308);
      expect(bare.headers.location).to.equal(`/preview/${publicToken}/?q=1`);
      const ws = await openWebSocket(listener, `/preview/${publicToken}/socket`);
      expect(ws.status).to.equal(101);
      expect(await ws.roundTrip('over the path form')).to.equal('echo:over the path form');
      ws.close();

      // Every preview shares this origin: a cookie for a wider path than its own is dropped.
      const headers = await raw(listener, 'GET', `/preview/${publicToken}/headers`);
      expect(headers.headers).not.to.have.property('service-worker-allowed');
      expect(headers.headers['set-cookie']).to.deep.equal(['near=1']);

      // Nothing of the API answers here, with a key or without.
      for (const path of ['/v1/environments', '/console', '/healthz', '/docs']) {
        const answer = await raw(listener, 'GET', path, { headers: { authorization: `Bearer ${org.org_api_key}` } });
        expect([path, answer.status, answer.json().error]).to.deep.equal([path, 404, 'Preview not found']);
      }
      // The API's listener sends old links there.
      const moved = await raw(other.base, 'GET', `/preview/${publicToken}/a?b=c`);
      expect([moved.status, moved.headers.location]).to.deep.equal([308, `http://127.0.0.1:${previewPort}/preview/${publicToken}/a?b=c`]);
    } finally {
      await other.close();
    }
    // The listener stops with its API process.
    await until('the preview listener to stop', async () => !(await raw(listener, 'GET', '/').then(() => true, () => false)), 10_000, 100);
  });

  it('opens a members-only preview with an API key of the organization or a signed link, and refuses everyone else', async () => {
    const created = await api.post(previews(), { port: 3001, authenticated: true });
    expect(created.status).to.equal(201);
    expect(created.body.preview).to.include({ port: 3001, authenticated: true });
    const token = tokenOf(created.body.preview.url);
    const host = at(token, 3001);
    const path = '/who?am=i';

    const anonymous = await raw(base(), 'GET', path, { headers: host });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.json()).to.have.keys('error', 'details');
    const browser = await raw(base(), 'GET', path, { headers: { ...host, accept: 'text/html,application/xhtml+xml' } });
    expect(browser.status).to.equal(401);
    expect(browser.headers['content-type']).to.match(/^text\/html/);
    expect(browser.text).to.include('Authentication required');

    const withKey = await raw(base(), 'GET', path, { headers: { ...host, 'x-hangar-api-key': org.admin.personal_api_key } });
    expect(withKey.status, withKey.text).to.equal(200);
    expect(withKey.json().url).to.equal('/who?am=i');
    expect(withKey.json().headers).not.to.have.property('x-hangar-api-key');
    expect(withKey.headers['x-app-port']).to.equal('3001');

    const stranger = await newOrg('previews-stranger');
    expect((await raw(base(), 'GET', path, { headers: { ...host, 'x-hangar-api-key': stranger.org_api_key } })).status).to.equal(401);
    expect((await raw(base(), 'GET', path, { headers: { ...host, authorization: `Bearer ${stranger.org_api_key}` } })).status).to.equal(401);
    expect((await openWebSocket(base(), '/ws', host)).status).to.equal(401);
    const wsWithKey = await openWebSocket(base(), '/ws', { ...host, 'x-hangar-api-key': org.org_api_key });
    expect(wsWithKey.status).to.equal(101);
    wsWithKey.close();
    // Another organization cannot even see the workspace's previews.
    expect((await as(stranger.org_api_key).get(previews())).status).to.equal(404);

    // A signed link: opened once, it becomes a cookie for this preview only.
    const link = await api.post(`${previews()}/3001/links`, { expires_in_seconds: 600 });
    expect(link.status).to.equal(201);
    expect(new Date(link.body.link.expires_at).getTime()).to.be.closeTo(Date.now() + 600_000, 10_000);
    const linkUrl = new URL(link.body.link.url);
    expect(linkUrl.host).to.equal(host.host);
    const opened = await raw(base(), 'GET', linkUrl.pathname + linkUrl.search.replace('?', '?keep=1&'), { headers: host });
    expect(opened.status).to.equal(302);
    expect(opened.headers.location).to.equal('/?keep=1');
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).to.match(/^hangar_preview=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0]!;
    const withCookie = await raw(base(), 'GET', path, { headers: { ...host, cookie: `theme=dark; ${cookie}` } });
    expect(withCookie.status).to.equal(200);
    expect(withCookie.json().headers.cookie).to.equal('theme=dark');
    // The cookie opens this preview, not another one.
    expect((await raw(base(), 'GET', '/', { headers: { ...at(publicToken), cookie } })).json().headers).not.to.have.property('cookie');

    // A browser opening the link gets a page that follows on from the preview itself, since a
    // redirect would belong to the navigation from another site, which a Strict cookie does not join.
    const page = await raw(base(), 'GET', linkUrl.pathname + linkUrl.search, { headers: { ...host, accept: 'text/html' } });
    expect(page.status).to.equal(200);
    expect(page.headers['set-cookie']).to.have.length(1);
    expect(page.text).to.include('http-equiv="refresh" content="0;url=/"');

    // With the cookie alone, a request that changes state is taken only from the preview's own origin.
    const own = `http://${host.host}`;
    const fromOwn = await raw(base(), 'POST', '/items', { headers: { ...host, cookie, origin: own, 'content-type': 'text/plain' }, body: 'mine' });
    expect([fromOwn.status, fromOwn.json().body]).to.deep.equal([200, 'mine']);
    for (const origin of [`http://${at(publicToken).host}`, base(), 'null']) {
      const forged = await raw(base(), 'POST', '/items', { headers: { ...host, cookie, origin, 'content-type': 'text/plain' }, body: 'forged' });
      expect([origin, forged.status, forged.json().error]).to.deep.equal([origin, 403, 'Cross-origin request refused']);
      const socket = await openWebSocket(base(), '/ws', { ...host, cookie, origin });
      expect([origin, socket.status]).to.deep.equal([origin, 403]);
    }
    const ownSocket = await openWebSocket(base(), '/ws', { ...host, cookie, origin: own });
    expect(ownSocket.status).to.equal(101);
    ownSocket.close();
    // Reading from elsewhere is the browser's same-origin policy's business; a member's key is no cookie.
    expect((await raw(base(), 'GET', path, { headers: { ...host, cookie, origin: base() } })).status).to.equal(200);
    expect((await raw(base(), 'POST', '/items', { headers: { ...host, 'x-hangar-api-key': org.org_api_key, origin: base() }, body: 'k' })).status).to.equal(200);

    // Revoked: the link and the session it opened stop at once.
    expect((await api.delete(`${previews()}/3001/links/${link.body.link.id}`)).status).to.equal(200);
    expect((await raw(base(), 'GET', path, { headers: { ...host, cookie } })).status).to.equal(401);
    const reopened = await raw(base(), 'GET', linkUrl.pathname + linkUrl.search, { headers: host });
    expect(reopened.status).to.equal(401);
    expect(reopened.json().error).to.equal('Link expired or revoked');

    // Expired: the link's record is past its expiry (the signed token's own expiry is the unit tests').
    const second = (await api.post(`${previews()}/3001/links`)).body.link;
    const secondUrl = new URL(second.url);
    const secondCookie = String((await raw(base(), 'GET', secondUrl.pathname + secondUrl.search, { headers: host })).headers['set-cookie']).split(';')[0]!;
    expect((await raw(base(), 'GET', path, { headers: { ...host, cookie: secondCookie } })).status).to.equal(200);
    await harness().database.db('preview_links').where({ id: second.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await raw(base(), 'GET', path, { headers: { ...host, cookie: secondCookie } })).status).to.equal(401);
    expect((await raw(base(), 'GET', secondUrl.pathname + secondUrl.search, { headers: host })).status).to.equal(401);
  });

  it('lets a workspace engine secret manage only its own previews', async () => {
    const otherId = randomUUID();
    await harness().database.db('replicas').insert({
      id: otherId,
      organization_id: org.organization_id,
      name: 'other',
      status: 'active',
      coding_agent: 'agent_1',
      engine_secret_hash: hashEngineSecret('other-workspace-secret'),
    });
    const other = engine('other-workspace-secret', otherId);
    const create = await request('POST', previews(), { headers: other, body: { port: 4000 } });
    expect(create.status).to.equal(404);
    expect((await request('DELETE', `${previews()}/3000`, { headers: other })).status).to.equal(404);
    expect((await request('GET', previews(), { headers: other })).status).to.equal(404);
    expect((await request('DELETE', '/v1/previews/3000', { headers: other })).status).to.equal(404);
    expect((await request('DELETE', '/v1/previews/3000', { headers: engine('wrong-secret', workspaceId) })).status).to.equal(401);
    expect((await api.get(previews())).body.previews.map((p: { port: number }) => p.port)).to.deep.equal([3000, 3001]);
    // The workspace's own secret works, including the agent-mode delete.
    const own = engine(engineSecret, workspaceId);
    expect((await request('POST', previews(), { headers: own, body: { port: 4000 } })).status).to.equal(201);
    const deleted = await request('DELETE', '/v1/previews/4000', { headers: own });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ success: true, port: 4000 });
    expectShape('DeletePreviewResponse', deleted.body);
    // With an API key there is no "own workspace".
    expect((await api.delete('/v1/previews/3000')).status).to.equal(400);
  });

  it('validates ports and answers deletes in the original shape', async () => {
    for (const port of [0, 65536, 'abc', 1.5]) {
      const bad = await api.post(previews(), { port });
      expect(bad.status, String(port)).to.equal(400);
      expect(errorOf(bad).details).to.include('port');
    }
    expect((await api.post(previews(), { port: 3000, public: true })).status).to.equal(400);
    for (const port of ['0', '65536', 'abc']) expect((await api.delete(`${previews()}/${port}`)).status, port).to.equal(400);
    expect((await api.post(`${previews()}/3000/links`, { expires_in_seconds: 90_000 })).status).to.equal(400);
    expect((await api.post(`${previews()}/5555/links`)).status).to.equal(404);

    expect((await api.post(previews(), { port: 65535 })).status).to.equal(201);
    const deleted = await api.delete(`${previews()}/65535`);
    expect(deleted.status).to.equal(200);
    expectShape('DeletePreviewResponse', deleted.body);
    expect(deleted.body).to.deep.equal({ success: true, port: 65535 });
    expect((await api.delete(`${previews()}/65535`)).status).to.equal(404);
  });

  it('announces every change as preview.changed with the full list on the events stream', async () => {
    const res = await fetch(`${base()}/v1/replica/${workspaceId}/events?after=0`, { headers: { authorization: `Bearer ${org.org_api_key}` }, signal: AbortSignal.timeout(30_000) });
    const lists: number[][] = [];
    for await (const event of sseData<{ type: string; payload: { previews: Array<{ port: number; url: string }> } }>(res)) {
      if (event.type !== 'preview.changed') continue;
      lists.push(event.payload.previews.map((p) => p.port));
      expect(event.payload.previews.every((p) => /^http:\/\/\d+-[0-9a-f]{32}\.(localhost|preview\.test)[:/]|\/preview\/[0-9a-f]{32}\/$/.test(p.url))).to.equal(true);
      // The last change so far: 65535 created then deleted.
      if (lists.length >= 2 && lists.at(-1)!.join() === '3000,3001' && lists.at(-2)!.join() === '3000,3001,65535') break;
    }
    expect(lists[0]).to.deep.equal([3000]);
    expect(lists).to.deep.include([3000, 3999]);
    expect(lists).to.deep.include([3000, 3001]);
  });

  it('answers 502 for a shared port with nothing listening', async () => {
    expect((await api.post(previews(), { port: 3999 })).status).to.equal(201);
    const token = tokenOf((await api.get(previews())).body.previews.find((p: { port: number }) => p.port === 3999).url);
    const answer = await raw(base(), 'GET', '/', { headers: at(token, 3999) });
    expect(answer.status).to.equal(502);
    expect(answer.json().error).to.equal('Nothing is listening');
    expect(answer.json().details).to.include('port 3999');
    const page = await raw(base(), 'GET', '/', { headers: { ...at(token, 3999), accept: 'text/html' } });
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.include('Nothing is listening');
  });

  it('wakes a sleeping workspace with a waking page until it is up, then serves again', async () => {
    expect((await api.post(`/v1/replica/${workspaceId}/sleep`)).status).to.be.oneOf([200, 202]);
    await until('the workspace to sleep', async () => (await statusOf()) === 'sleeping', 60_000, 250);

    const waking = await raw(base(), 'GET', '/', { headers: { ...at(publicToken), accept: 'text/html' } });
    expect(waking.status).to.equal(503);
    expect(waking.headers['retry-after']).to.equal('5');
    expect(waking.text).to.include('Workspace is waking').and.include('http-equiv="refresh"');
    await until('the workspace to wake', async () => (await statusOf()) === 'active', 120_000, 250);
    // Processes do not survive sleep: the app is started again, at the container's new address if it changed.
    await startApp(container);
    await until('the preview to answer again', async () => (await raw(base(), 'GET', '/back', { headers: at(publicToken) })).status === 200, 30_000, 250);
  });

  it('keeps a workspace in use through its preview awake past its idle timeout', async () => {
    // The previous test woke the workspace with no turn running: the suite's 20 s idle timer runs.
    expect(await statusOf()).to.equal('active');
    const idleMs = harness().config.workspaceIdleMs;
    const deadline = Date.now() + idleMs * 1.5;
    while (Date.now() < deadline) {
      const res = await raw(base(), 'GET', '/busy', { headers: at(publicToken) });
      expect(res.status).to.equal(200);
      expect(await statusOf(), 'the workspace fell asleep while its preview was in use').to.equal('active');
      // Traffic paced like a person using the app, not a timer standing in for a condition.
      await new Promise((r) => setTimeout(r, 1000));
    }
  });

  it('deleting the workspace takes its previews with it', async () => {
    expect((await api.delete(`/v1/replica/${workspaceId}`)).status).to.be.oneOf([200, 202, 204]);
    expect((await raw(base(), 'GET', '/', { headers: at(publicToken) })).status).to.equal(404);
    await until('the previews rows to go', async () => Number((await harness().database.db('previews').where({ replica_id: workspaceId }).count({ n: '*' }))[0]!.n) === 0, 120_000, 500);
  });
});
