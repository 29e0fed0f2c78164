import { expect } from 'chai';
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { TcpRelay } from '../../support/tcpRelay';

/** A port nothing listens on: a server's, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Resolves when `socket` closes, or rejects after `ms` saying what it waited for. */
function closedWithin(socket: Socket, ms: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error(`${what}: still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('tcp relay (test support)', () => {
  const relays: TcpRelay[] = [];
  const servers: Server[] = [];
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.cut();
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  });

  it('closes the client when the target refuses, instead of leaving it waiting for a server that never answers', async () => {
    const relay = new TcpRelay({ host: '127.0.0.1', port: await closedPort() }, { host: '127.0.0.1', port: 0 });
    relays.push(relay);
    await relay.open();
    const client = connect(relay.port, '127.0.0.1');
    client.on('error', () => undefined);
    // A database client would write its startup message and wait for an answer (a pool's
    // "create timed out" after its own deadline); the relay has to end the connection instead.
    client.write('startup');
    await closedWithin(client, 10_000, 'the client of a refused relay');
  });

  it('closes the client when the target drops the connection abruptly', async () => {
    const target = createServer((socket) => socket.resetAndDestroy());
    servers.push(target);
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
    const relay = new TcpRelay({ host: '127.0.0.1', port: (target.address() as { port: number }).port }, { host: '127.0.0.1', port: 0 });
    relays.push(relay);
    await relay.open();
    const client = connect(relay.port, '127.0.0.1');
    client.on('error', () => undefined);
    client.write('startup');
    await closedWithin(client, 10_000, 'the client of a reset upstream');
  });

  it('carries bytes both ways until cut, then drops the connection', async () => {
    const target = createServer((socket) => socket.pipe(socket));
    servers.push(target);
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
    const relay = new TcpRelay({ host: '127.0.0.1', port: (target.address() as { port: number }).port }, { host: '127.0.0.1', port: 0 });
    relays.push(relay);
    await relay.open();
    const client = connect(relay.port, '127.0.0.1');
    client.on('error', () => undefined);
    client.write('ping');
    const [echo] = (await once(client, 'data')) as [Buffer];
    expect(echo.toString()).to.equal('ping');
    await relay.cut();
    await closedWithin(client, 10_000, 'the client of a cut relay');
  });
});
