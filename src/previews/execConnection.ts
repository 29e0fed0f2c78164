/**
 * A preview's connection to a server in a workspace, carried through the engine's exec API: a
 * worker host's relay reaches its workspaces this way whatever network the worker itself is on
 * (in a container of its own, as the compose file runs it, it cannot route to the workspaces'
 * isolated networks). `hangar-turn connect PORT` in the container joins its stdio to the server
 * on the workspace's own address, as a connection from outside would reach it, and says on its
 * first stderr line whether the server accepted. A connection is one exec; its socket is the
 * exec's stream, stdout taken out of Docker's frames.
 */
import { Agent } from 'node:http';
import { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { FrameDemuxer } from '../sandbox/stream';
import { HANGAR_USER } from '../sandbox/workspace/container';
import { TURN_SUPERVISOR } from '../sandbox/workspace/turnSupervisor';

const errorWithCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** The exec's stream as a socket: the helper's stdout is what the server sent. */
export class ExecSocket extends Duplex {
  /** What a client's connect timer looks at: connected already when handed over. */
  readonly connecting = false;
  private status = '';
  private answered = false;

  constructor(
    private readonly stream: Duplex,
    private readonly onAnswer: (err: Error | null) => void,
  ) {
    super({ allowHalfOpen: true });
    // Before the helper answers, anything is its status (or the engine's complaint that it cannot run).
    const frames = new FrameDemuxer((kind, payload) => (kind === 'stderr' || !this.answered ? this.onStatus(payload) : this.push(payload) || stream.pause()));
    stream.on('data', (chunk: Buffer) => frames.push(chunk));
    stream.once('end', () => this.ended());
    stream.once('close', () => this.ended());
    stream.on('error', (err: Error) => (this.answered ? this.destroy(err) : this.answer(err)));
  }

  /** The helper's first stderr line: `connected`, or `refused: …`. */
  private onStatus(payload: Buffer): void {
    if (this.answered) return;
    this.status += payload.toString('utf8');
    const newline = this.status.indexOf('\n');
    if (newline === -1) return;
    const line = this.status.slice(0, newline);
    if (line === 'connected') return this.answer(null);
    this.answer(errorWithCode(`connect ECONNREFUSED (in the workspace: ${line})`, 'ECONNREFUSED'));
  }

  private answer(err: Error | null): void {
    if (this.answered) return;
    this.answered = true;
    this.onAnswer(err);
  }

  private ended(): void {
    // A helper that ended before it said anything could not run (an image without it).
    this.answer(errorWithCode(`the workspace's connection helper ended before it connected: ${this.status.trim() || 'no answer'}`, 'ECONNRESET'));
    this.push(null);
  }

  override _read(): void {
    this.stream.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.stream.write(chunk, encoding, callback);
  }

  /** The client is done sending: the helper's stdin ends, and it half-closes the server's connection. */
  override _final(callback: (err?: Error | null) => void): void {
    this.stream.end();
    callback();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.stream.destroy();
    callback(err);
  }

  // What HTTP clients and proxies ask of a socket; an exec stream has no such options.
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** Opens one connection to `port` in the container: resolves once the server has accepted it. */
async function openConnection(container: Docker.Container, port: number): Promise<Duplex> {
  const exec = await container.exec({ Cmd: [TURN_SUPERVISOR, 'connect', String(port)], User: HANGAR_USER, AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: false });
  const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
  return new Promise<Duplex>((resolve, reject) => {
    const socket: ExecSocket = new ExecSocket(stream, (err) => {
      if (!err) return resolve(socket);
      stream.destroy();
      reject(err);
    });
  });
}

/**
 * An HTTP agent whose every connection goes to `port` in the container through an exec (no
 * connection is kept for another request: each belongs to one preview grant).
 */
export class ExecAgent extends Agent {
  constructor(
    private readonly container: Docker.Container,
    private readonly port: number,
    /** Puts the helper into a container made from an image older than it; tried once. */
    private readonly installHelper?: () => Promise<void>,
  ) {
    super({ keepAlive: false });
  }

  override createConnection(_options: unknown, callback?: (err: Error | null, socket: Duplex) => void): undefined {
    this.open().then(
      (socket) => callback?.(null, socket),
      (err: Error) => callback?.(err, undefined as unknown as Duplex),
    );
    return undefined;
  }

  private async open(): Promise<Duplex> {
    try {
      return await openConnection(this.container, this.port);
    } catch (err) {
      if (!this.installHelper || !/executable file not found/.test((err as Error).message)) throw err;
      await this.installHelper();
      return openConnection(this.container, this.port);
    }
  }
}
