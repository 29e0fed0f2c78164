/**
 * Previews of workspaces on a worker host with a preview relay. The harness's worker runs with
 * a relay under a host id of its own; an API with `HANGAR_PREVIEW_DIAL=relay` never dials a
 * container itself. The replicas' recorded container addresses are replaced by an address that
 * answers nothing, so only the relay, which asks its own Docker engine, can reach the apps:
 * HTTP, server-sent events and WebSockets pass; the relay's own counter moves. Called directly,
 * the relay refuses requests without a valid grant (none, forged, expired), and a grant opens
 * its own workspace and port only. The relay connects through the engine's exec, and puts its
 * helper into a container older than it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createLogger } from '../../../src/logger';
import { createRelayGrants, GRANT_HEADER, GRANT_TTL_MS } from '../../../src/previews/relayGrants';
import { relayRequests } from '../../../src/previews/relay';
import { buildApi, type ApiProcess } from '../../../src/processes';
import { createDocker } from '../../../src/sandbox';
import { TURN_SUPERVISOR_PATH } from '../../../src/sandbox/workspace/turnSupervisor';
import { harness, reservePort } from '../../support/harness';
import { as, newOrg, request } from '../../support/http';
import { until } from '../../support/wait';
import { openSse, openWebSocket, previewHost as at, raw, startApp } from './support';

const V = { 'X-Api-Version': '2026-05-17' };
/** TEST-NET-1 (RFC 5737): routable in form, answered by nobody. A direct dial here would time out. */
const NOWHERE = '192.0.2.1';

const forwarded = async (kind: 'http' | 'websocket') => (await relayRequests.get()).values.find((v) => v.labels.kind === kind && v.labels.outcome === 'forwarded')?.value ?? 0;

describe('previews: workspaces on a worker host reached through its preview relay', function () {
  this.timeout(300_000);

  const hostId = `relay-${randomBytes(3).toString('hex')}`;
  let relayBase: string;
  let relayApi: ApiProcess;
  let relayServer: Server;
  let apiBase: string;
  let org: Awaited<ReturnType<typeof newOrg>>;
  const ws: Record<'a' | 'b', { id: string; token: string }> = { a: { id: '', token: '' }, b: { id: '', token: '' } };
  const grants = () => createRelayGrants(harness().config.encryptionKeys);

  async function workspace(name: 'a' | 'b'): Promise<void> {
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: `relay-${name}`, coding_agent: 'agent_1', message: '!sleep 600000' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    ws[name].id = created.body.replica.id;
  }

  before(async () => {
    const h = harness();
    const port = await reservePort();
    relayBase = `http://127.0.0.1:${port}`;
    await h.restartWorker({ workerHostId: hostId, previewRelay: { port, host: '127.0.0.1', url: relayBase } });
    expect((await h.database.db('worker_hosts').where({ id: hostId }).first('relay_url'))?.relay_url).to.equal(relayBase);

    const logger = createLogger({ level: 'debug', write: (line) => h.logs.push(line) });
    relayApi = await buildApi({ config: { ...h.config, previewDial: 'relay' }, logger, database: h.database, temporalAddress: h.temporal.address });
    relayServer = await relayApi.listen(0, '127.0.0.1');
    apiBase = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}`;

    org = await newOrg('preview-relay');
    await workspace('a');
    await workspace('b');
    for (const name of ['a', 'b'] as const) {
      const { id } = ws[name];
      await until(`workspace ${name} to be active with a recorded address`, async () => {
        const row = await h.database.db('replicas').where({ id }).first('status', 'container_address');
        return row?.status === 'active' && !!row.container_address;
      }, 180_000, 250);
      expect((await h.database.db('replicas').where({ id }).first('host_id')).host_id).to.equal(hostId);
      await startApp(`hangar-ws-${id}`, `app-${name}`);
      const created = await as(org.org_api_key).post(`/v1/workspaces/${id}/previews`, { port: 3000 });
      expect(created.status).to.equal(201);
      ws[name].token = /^http:\/\/3000-([0-9a-f]{32})\.localhost:/.exec(created.body.preview.url)![1]!;
      // Only the relay, which asks its own engine where the container is, can reach it now.
      await h.database.db('replicas').where({ id }).update({ container_address: NOWHERE });
      await until(`app ${name} to listen`, async () => (await raw(apiBase, 'GET', '/', { headers: at(ws[name].token) })).status === 200, 30_000, 250);
    }
  });

  after(async () => {
    relayServer?.closeAllConnections();
    if (relayServer) await new Promise((resolve) => relayServer.close(resolve));
    await relayApi?.close();
    // Removed by the worker of their host, before that worker goes.
    const docker = createDocker(process.env);
    for (const { id } of Object.values(ws)) {
      if (!id) continue;
      await as(org.org_api_key).delete(`/v1/replica/${id}`);
      await until(`the container of ${id} to be removed`, () => docker.getContainer(`hangar-ws-${id}`).inspect().then(() => false, () => true), 60_000, 250).catch(() => undefined);
    }
    await harness().restartWorker();
  });

  it('serves HTTP and server-sent events through the relay, without the grant reaching the app', async () => {
    const before = await forwarded('http');
    const get = await raw(apiBase, 'GET', '/some/path?x=1', { headers: { ...at(ws.a.token), cookie: 'theme=dark' } });
    expect(get.status, get.text).to.equal(200);
    const seen = get.json();
    expect(seen).to.include({ app: 'app-a', method: 'GET', url: '/some/path?x=1' });
    expect(seen.headers).to.include({ cookie: 'theme=dark', 'x-forwarded-host': at(ws.a.token).host });
    expect(seen.headers).not.to.have.property(GRANT_HEADER);
    expect(await forwarded('http')).to.equal(before + 1);

    // A client's own grant header is no grant: the API replaces it with its own.
    const smuggled = await raw(apiBase, 'GET', '/', { headers: { ...at(ws.b.token), [GRANT_HEADER]: grants().issue({ replicaId: ws.a.id, port: 3000 }) } });
    expect(smuggled.json().app, smuggled.text).to.equal('app-b');

    // The harness's API (HANGAR_PREVIEW_DIAL=auto) takes the relay too, the host having one.
    const viaDefault = await raw(harness().baseUrl, 'POST', '/items', { headers: { ...at(ws.b.token), 'content-type': 'text/plain' }, body: 'payload' });
    expect(viaDefault.status).to.equal(200);
    expect(viaDefault.json()).to.include({ app: 'app-b', method: 'POST', url: '/items', body: 'payload' });

    const sse = await openSse(apiBase, '/sse', at(ws.a.token));
    expect(sse.status).to.equal(200);
    expect(await sse.next()).to.equal('one');
    expect((await raw(apiBase, 'GET', '/release', { headers: at(ws.a.token) })).text).to.equal('released');
    expect(await sse.next()).to.equal('two');
    await sse.ended;
  });

  it('carries a WebSocket both ways through the relay', async () => {
    const before = await forwarded('websocket');
    const socket = await openWebSocket(apiBase, '/socket?room=7', at(ws.a.token));
    expect(socket.status).to.equal(101);
    expect(socket.headers['x-seen-url']).to.equal('/socket?room=7');
    expect(await socket.roundTrip('hello')).to.equal('echo:hello');
    expect(await socket.roundTrip('again')).to.equal('echo:again');
    socket.close();
    expect(await forwarded('websocket')).to.equal(before + 1);
  });

  it('puts its connection helper into a workspace container older than it, and serves through it', async () => {
    const container = createDocker(process.env).getContainer(`hangar-ws-${ws.b.id}`);
    const asRoot = async (cmd: string) => {
      const exec = await container.exec({ Cmd: ['sh', '-c', cmd], User: '0', AttachStdout: true, AttachStderr: true });
      const stream = await exec.start({});
      await new Promise((resolve) => (stream.on('data', () => undefined), stream.on('end', resolve)));
      return (await exec.inspect()).ExitCode;
    };
    expect(await asRoot(`rm ${TURN_SUPERVISOR_PATH}`)).to.equal(0);
    const get = await raw(apiBase, 'GET', '/after-upgrade', { headers: at(ws.b.token) });
    expect(get.status, get.text).to.equal(200);
    expect(get.json()).to.include({ app: 'app-b', url: '/after-upgrade' });
    expect(await asRoot(`test -x ${TURN_SUPERVISOR_PATH}`)).to.equal(0);
  });

  it('refuses, called directly, a request without a valid grant', async () => {
    const none = await raw(relayBase, 'GET', '/');
    expect(none.status).to.equal(403);
    expect(none.json()).to.have.keys('error', 'details');
    expect(none.json().error).to.equal('Forbidden');

    const otherDeployment = createRelayGrants([{ id: harness().config.encryptionKeys[0]!.id, key: randomBytes(32) }]);
    const forged = await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: otherDeployment.issue({ replicaId: ws.a.id, port: 3000 }) } });
    expect(forged.status).to.equal(403);

    const expired = grants().issue({ replicaId: ws.a.id, port: 3000 }, new Date(Date.now() - GRANT_TTL_MS - 1000));
    expect((await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: expired } })).status).to.equal(403);
    const expiredWs = await openWebSocket(relayBase, '/socket', { [GRANT_HEADER]: expired });
    expect(expiredWs.status).to.equal(403);
    expect(JSON.parse(expiredWs.body).error).to.equal('Forbidden');
    expect((await openWebSocket(relayBase, '/socket')).status).to.equal(403);

    // The same grant, fresh, is let through.
    const fresh = await raw(relayBase, 'GET', '/ok', { headers: { [GRANT_HEADER]: grants().issue({ replicaId: ws.a.id, port: 3000 }) } });
    expect(fresh.status).to.equal(200);
    expect(fresh.json()).to.include({ app: 'app-a', url: '/ok' });
  });

  it('lets a grant open its own workspace and port only', async () => {
    const grantA = grants().issue({ replicaId: ws.a.id, port: 3000 });
    // Whatever names workspace b in the request, a grant for a lands in a.
    const aimedAtB = await raw(relayBase, 'GET', `/preview/${ws.b.token}/`, {
      headers: { [GRANT_HEADER]: grantA, host: `3000-${ws.b.token}.preview.test`, 'x-forwarded-host': `3000-${ws.b.token}.preview.test`, 'x-hangar-replica-id': ws.b.id },
    });
    expect(aimedAtB.status).to.equal(200);
    expect(aimedAtB.json().app).to.equal('app-a');
    const wsA = await openWebSocket(relayBase, `/preview/${ws.b.token}/`, { [GRANT_HEADER]: grantA, host: `3000-${ws.b.token}.preview.test` });
    expect(wsA.status).to.equal(101);
    wsA.close();
    expect((await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: grants().issue({ replicaId: ws.b.id, port: 3000 }) } })).json().app).to.equal('app-b');

    // Another port is its own grant: nothing listens on 3999 in a.
    const otherPort = await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: grants().issue({ replicaId: ws.a.id, port: 3999 }) } });
    expect(otherPort.status).to.equal(502);
    expect(otherPort.json().error).to.equal('Nothing is listening');

    // No such workspace, and a workspace recorded on another host: not here.
    expect((await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: grants().issue({ replicaId: randomUUID(), port: 3000 }) } })).status).to.equal(404);
    const db = harness().database.db;
    await db('replicas').where({ id: ws.b.id }).update({ host_id: `${hostId}-elsewhere` });
    try {
      const elsewhere = await raw(relayBase, 'GET', '/', { headers: { [GRANT_HEADER]: grants().issue({ replicaId: ws.b.id, port: 3000 }) } });
      expect(elsewhere.status).to.equal(404);
      expect(elsewhere.json().error).to.equal('Preview not found');
      // That host has no relay, and this API does not dial containers itself.
      const viaApi = await raw(apiBase, 'GET', '/', { headers: at(ws.b.token) });
      expect(viaApi.status).to.equal(502);
      expect(viaApi.json().error).to.equal('Workspace unreachable');
    } finally {
      await db('replicas').where({ id: ws.b.id }).update({ host_id: hostId });
    }
  });
});
