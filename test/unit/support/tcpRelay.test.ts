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

  /** A target server on a free port, closed after the test. */
  async function serve(onConnection: (socket: Socket) => void): Promise<number> {
    const target = createServer(onConnection);
    servers.push(target);
    target.listen(0, '127.0.0.1');
    await once(target, 'listening');
    return (target.address() as { port: number }).port;
  }

  /** A relay to `port` and a client connected through it that has sent its first bytes. */
  async function clientThrough(port: number): Promise<{ relay: TcpRelay; client: Socket }> {
    const relay = new TcpRelay({ host: '127.0.0.1', port }, { host: '127.0.0.1', port: 0 });
    relays.push(relay);
    await relay.open();
    const client = connect(relay.port, '127.0.0.1');
    client.on('error', () => undefined);
    // A database client would write its startup message and wait for an answer (a pool's
    // "create timed out" after its own deadline); the relay has to end the connection instead.
    client.write('startup');
    return { relay, client };
  }

  it('closes the client when the target refuses, instead of leaving it waiting for a server that never answers', async () => {
    const { client } = await clientThrough(await closedPort());
    await closedWithin(client, 10_000, 'the client of a refused relay');
  });

  it('closes the client when the target drops the connection abruptly', async () => {
    const { client } = await clientThrough(await serve((socket) => socket.resetAndDestroy()));
    await closedWithin(client, 10_000, 'the client of a reset upstream');
  });

  it('carries bytes both ways until cut, then drops the connection', async () => {
    const { relay, client } = await clientThrough(await serve((socket) => socket.pipe(socket)));
    const [echo] = (await once(client, 'data')) as [Buffer];
    expect(echo.toString()).to.equal('startup');
    await relay.cut();
    await closedWithin(client, 10_000, 'the client of a cut relay');
  });
});
