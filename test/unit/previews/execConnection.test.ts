/**
 * A preview connection through an exec: the helper's first stderr line says whether the
 * workspace's server accepted; stdout, out of Docker's frames, is what the server sent; what
 * the client writes goes to the helper's stdin, and the client's end ends it.
 */
import { expect } from 'chai';
import { Duplex, PassThrough } from 'node:stream';
import { ExecSocket } from '../../../src/previews/execConnection';

/** A Docker attach frame: stream 1 stdout, 2 stderr. */
const frame = (stream: 1 | 2, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** The exec's stream: what the helper prints comes from `exec`; what the socket writes goes to `toHelper`. */
function connection() {
  const exec = new PassThrough();
  const toHelper = new PassThrough();
  const written: Buffer[] = [];
  toHelper.on('data', (c: Buffer) => written.push(c));
  let answered: Error | null | undefined;
  const socket = new ExecSocket(Duplex.from({ readable: exec, writable: toHelper }), (err) => (answered = err));
  return { exec, socket, written, toHelper, answer: () => answered };
}

describe('previews: a connection through an exec', () => {
  it('answers once the helper says connected, and carries stdout both ways split across frames', async () => {
    const c = connection();
    const all = Buffer.concat([frame(2, 'conn'), frame(2, 'ected\n'), frame(1, 'HTTP/1.1 200 OK\r\n'), frame(1, '\r\nhi')]);
    c.exec.write(all.subarray(0, 5));
    // Both status frames (12 and 14 bytes) and the start of the first stdout frame.
    c.exec.write(all.subarray(5, 30));
    await tick();
    expect(c.answer()).to.equal(null);
    c.exec.write(all.subarray(30));
    c.exec.end();
    const read: Buffer[] = [];
    c.socket.on('data', (chunk: Buffer) => read.push(chunk));
    await new Promise((resolve) => c.socket.once('end', resolve));
    expect(Buffer.concat(read).toString()).to.equal('HTTP/1.1 200 OK\r\n\r\nhi');
    c.socket.end('GET / HTTP/1.1\r\n\r\n');
    await new Promise((resolve) => c.toHelper.once('end', resolve));
    expect(Buffer.concat(c.written).toString()).to.equal('GET / HTTP/1.1\r\n\r\n');
  });

  it('refuses as a TCP connect would when nothing listens, and resets when the helper could not run', async () => {
    const refused = connection();
    refused.exec.write(frame(2, 'refused: dial tcp 172.18.0.5:3000: connect: connection refused\n'));
    await tick();
    expect(refused.answer()).to.include({ code: 'ECONNREFUSED' });
    const missing = connection();
    missing.exec.write(frame(1, 'OCI runtime exec failed: exec: "hangar-turn": executable file not found in $PATH'));
    missing.exec.end();
    missing.socket.resume();
    return new Promise<void>((resolve) =>
      missing.socket.once('end', () => {
        expect(missing.answer()).to.include({ code: 'ECONNRESET' });
        resolve();
      }),
    );
  });
});
