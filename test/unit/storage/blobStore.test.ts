/**
 * One contract, both backends: the filesystem under a data directory and S3 (a real
 * S3-compatible server, versitygw, started for the test).
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BlobRangeError, BlobTooLargeError, createFsBlobStore, createS3BlobStore, type BlobStore } from '../../../src/storage';
import { startS3Server, type S3TestServer } from '../../support/s3Server';

async function text(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** A body of unknown length, in several chunks, as an HTTP request streams it. */
const chunked = (bytes: Buffer) => Readable.from([bytes.subarray(0, 3), bytes.subarray(3, 10), bytes.subarray(10)]);

function contract(name: string, open: () => Promise<{ store: BlobStore; close(): Promise<void> }>) {
  describe(`blob store contract: ${name}`, function () {
    this.timeout(30_000);
    let store: BlobStore;
    let close: () => Promise<void>;
    const prefix = () => `replicas/${randomBytes(8).toString('hex')}/`;

    before(async () => ({ store, close } = await open()));
    after(async () => close());

    it('stores a body of unknown length and reads it back with its type and size', async () => {
      const key = `${prefix()}media/a`;
      const bytes = randomBytes(100_000);
      expect(await store.put(key, chunked(bytes), { contentType: 'image/png' })).to.deep.equal({ size: bytes.length });
      expect(await store.head(key)).to.deep.include({ size: bytes.length });
      expect((await store.head(key))!.contentType).to.match(/^image\/png/);
      const read = (await store.get(key))!;
      expect(read.size).to.equal(bytes.length);
      expect(read.range).to.deep.equal({ start: 0, end: bytes.length - 1 });
      expect((await text(read.stream)).equals(bytes)).to.equal(true);
    });

    it('stores a body of declared length', async () => {
      const key = `${prefix()}media/b`;
      const bytes = Buffer.from('declared length body');
      await store.put(key, Readable.from([bytes]), { contentType: 'text/plain', size: bytes.length });
      expect((await text((await store.get(key))!.stream)).toString()).to.equal('declared length body');
    });

    it('serves byte ranges, clamps an end past the object and refuses a start past it', async () => {
      const key = `${prefix()}media/c`;
      await store.put(key, Readable.from([Buffer.from('0123456789')]), { contentType: 'video/mp4' });
      const middle = (await store.get(key, { start: 2, end: 5 }))!;
      expect(middle.range).to.deep.equal({ start: 2, end: 5 });
      expect(middle.size).to.equal(10);
      expect((await text(middle.stream)).toString()).to.equal('2345');
      const tail = (await store.get(key, { start: 7, end: 100 }))!;
      expect(tail.range).to.deep.equal({ start: 7, end: 9 });
      expect((await text(tail.stream)).toString()).to.equal('789');
      let refused: unknown;
      await store.get(key, { start: 10, end: 12 }).catch((err: unknown) => (refused = err));
      expect(refused).to.be.instanceOf(BlobRangeError);
    });

    it('answers null for a missing object, and deleting one is no error', async () => {
      const key = `${prefix()}media/missing`;
      expect(await store.get(key)).to.equal(null);
      expect(await store.head(key)).to.equal(null);
      await store.delete(key);
    });

    it('deletes one object, and everything under a prefix but nothing beside it', async () => {
      const gone = prefix();
      const kept = prefix();
      for (const key of [`${gone}media/1`, `${gone}media/2`, `${gone}canvas/3`, `${kept}media/1`]) {
        await store.put(key, Readable.from([Buffer.from(key)]), { contentType: 'text/plain' });
      }
      await store.delete(`${gone}media/2`);
      expect(await store.head(`${gone}media/2`)).to.equal(null);
      expect(await store.deleteByPrefix(gone)).to.equal(2);
      expect(await store.head(`${gone}media/1`)).to.equal(null);
      expect(await store.head(`${gone}canvas/3`)).to.equal(null);
      expect(await store.head(`${kept}media/1`)).to.deep.include({ size: `${kept}media/1`.length });
      expect(await store.deleteByPrefix(gone)).to.equal(0);
    });

    it('refuses a body over the limit and keeps nothing of it', async () => {
      const key = `${prefix()}media/big`;
      let refused: unknown;
      await store.put(key, chunked(randomBytes(2000)), { contentType: 'application/octet-stream', maxBytes: 1000 }).catch((err: unknown) => (refused = err));
      expect(refused).to.be.instanceOf(BlobTooLargeError);
      expect(await store.head(key)).to.equal(null);
    });

    it('stores an empty object', async () => {
      const key = `${prefix()}media/empty`;
      await store.put(key, Readable.from([]), { contentType: 'text/plain' });
      const read = (await store.get(key))!;
      expect(read.size).to.equal(0);
      expect((await text(read.stream)).length).to.equal(0);
    });

    it('refuses keys that could leave the store', async () => {
      for (const key of ['../etc/passwd', 'replicas/../x', '/abs', 'replicas//x', 'a/b.type']) {
        let refused: unknown;
        await store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' }).catch((err: unknown) => (refused = err));
        expect(refused, key).to.be.instanceOf(Error);
      }
    });
  });
}

contract('filesystem', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hangar-blobs-'));
  return {
    store: createFsBlobStore(dir),
    close: async () => {
      // A failed upload leaves no temporary file behind.
      const leftovers = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.part'));
      expect(leftovers).to.deep.equal([]);
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('blob store: the filesystem shared by users of one group', () => {
  it('makes its directories group-writable and setgid, and its files group-readable, whatever the umask', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hangar-blobs-'));
    const umask = process.umask(0o077);
    try {
      await createFsBlobStore(dir).put('replicas/r1/media/m1', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
      const mode = (path: string) => (statSync(join(dir, path)).mode & 0o7777).toString(8);
      expect(['blobs', 'blobs/replicas', 'blobs/replicas/r1', 'blobs/replicas/r1/media'].map(mode)).to.deep.equal(['2770', '2770', '2770', '2770']);
      expect(['blobs/replicas/r1/media/m1', 'blobs/replicas/r1/media/m1.type'].map(mode)).to.deep.equal(['640', '640']);
    } finally {
      process.umask(umask);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

contract('S3 (versitygw)', async () => {
  const server: S3TestServer = await startS3Server();
  return { store: createS3BlobStore(server.settings), close: () => server.stop() };
});
