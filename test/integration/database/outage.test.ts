/**
 * PostgreSQL going away under a running API process: requests that need it answer 503 with the
 * Error body and Retry-After (not a 500, not a hang), /readyz names the database, and once it
 * is back the same process answers again without a restart. The database is reached through a
 * TCP relay the test can cut, because the suite's server itself cannot be stopped. (Not part of
 * the embedded-database run, whose database lives in the process.)
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { harness } from '../../support/harness';
import { startApiProcess, type ApiProcessHandle } from '../../support/apiProcess';
import { newOrg } from '../../support/http';
import { until } from '../../support/wait';

/** Relays connections to PostgreSQL until cut; `cut` also drops the connections it carries. */
function startRelay(target: { host: string; port: number }, port = 0) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise<{ port: number; cut(): Promise<void> }>((resolve) =>
    server.listen(port, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        cut: () => {
          for (const s of sockets) s.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      }),
    ),
  );
}

const postgres = () => {
  const url = new URL(harness().env.DATABASE_URL!);
  return { host: url.hostname, port: Number(url.port || 5432) };
};

describe('the API while PostgreSQL is down', function () {
  let api: ApiProcessHandle;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let relayPort: number;

  before(async () => {
    const url = new URL(harness().env.DATABASE_URL!);
    relay = await startRelay(postgres());
    relayPort = relay.port;
    url.host = `127.0.0.1:${relayPort}`;
    // Keys are checked in PostgreSQL on every request here, so authentication needs it too.
    api = await startApiProcess({ DATABASE_URL: url.toString(), HANGAR_API_KEY_CACHE_SECONDS: '0' });
  });
  after(async () => {
    await relay?.cut().catch(() => undefined);
    await api?.close();
  });

  it('answers 503 with the Error body and Retry-After, reports it on /readyz, and recovers when it is back', async () => {
    const org = await newOrg('db-outage');
    const list = () => fetch(`${api.url}/v1/environments`, { headers: { authorization: `Bearer ${org.org_api_key}` } });
    expect((await list()).status).to.equal(200);

    await relay.cut();
    const started = Date.now();
    const down = await list();
    const body = (await down.json()) as { error: string; details: string };
    expect(down.status, JSON.stringify(body)).to.equal(503);
    expect(body.error).to.equal('Service unavailable');
    expect(body.details).to.match(/^the database( or Temporal)? is not answering; retry later \(request id [\w-]+\)$/);
    expect(JSON.stringify(body)).not.to.match(/at .*\.ts:\d+|ECONNREFUSED|127\.0\.0\.1/);
    expect(down.headers.get('retry-after')).to.equal('5');
    // Bounded by the pool's acquire timeout (10 s), not a hang; the rest is room for a busy machine.
    expect(Date.now() - started, 'ms until the 503').to.be.below(60_000);
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.include({ details: 'unreachable: database' });

    relay = await startRelay(postgres(), relayPort);
    await until('the API to answer again', async () => (await list()).status === 200, 30_000, 200);
    expect((await fetch(`${api.url}/readyz`)).status).to.equal(200);
  });
});
