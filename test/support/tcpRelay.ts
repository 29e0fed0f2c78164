/**
 * A TCP relay: connections accepted on `listen` are piped to `target` until the relay is cut.
 * The fault suite cuts one to take PostgreSQL away from a cluster without stopping the shared
 * server; a second engine host reaches this machine's loopback services through them.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  constructor(
    private readonly target: { host: string; port: number },
    /** Where it listens; port 0 picks a free one on the first `open`, kept for later ones. */
    readonly listen: { host: string; port: number },
  ) {}

  get port(): number {
    return this.listen.port;
  }

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      // A pair fails together: an upstream that refuses or resets must end the client's
      // connection too, or a database client waits for an answer that never comes (the fault
      // suite's worker once stalled on "knex: create timed out" through a half-dead pair). A
      // clean end travels through the pipes, with whatever the other side still had to say.
      const pair = [client, upstream];
      for (const s of pair) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', (err: NodeJS.ErrnoException) => {
          if (s === upstream) process.stderr.write(`tcp relay :${this.listen.port} -> ${this.target.host}:${this.target.port}: ${err.code ?? err.message}\n`);
          for (const either of pair) either.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((done, failed) => {
      server.once('error', failed);
      server.listen(this.listen.port, this.listen.host, () => done());
    });
    this.listen.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Stops accepting and drops every connection it carries. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((done) => server.close(done));
  }
}
