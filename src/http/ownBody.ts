/**
 * Bodies that routes read themselves (`ownBody`), and the cap on those nobody vouches for yet:
 * webhook deliveries whose signature can only be checked against the bytes. Receivers check
 * everything the headers can tell (signature present and well formed, the sender known, the
 * media type, the declared length) before asking for the body, so most forgeries are answered
 * without reading a byte. What is left is read under a process-wide cap, and a body whose
 * signature is checked as it streams (`verifier`) keeps only its first `memoryBytes` in memory:
 * the rest waits in a temporary file until the signature is known to match, and is read back
 * only then. Forged deliveries therefore never pile up in the heap, where freed chunks would
 * keep the process's memory high long after the flood.
 */
import { randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from 'koa';
import { DomainError } from '../domain/errors';
import { readBody, refuseDeclaredOverLimit, streamBody } from './body';
import type { BodyVerifier, ReadBodyOptions } from './route';

export interface UnverifiedBodySettings {
  /** Unverified bodies read at once by this process; past it, 503 with Retry-After. */
  max: number;
  /** Bytes of a body under verification kept in memory; beyond, it waits on disk. */
  memoryBytes?: number;
  /** Where those files go (default: the OS's temporary directory, `TMPDIR`). */
  spillDir?: string;
}

/** The cap when none is configured (`HANGAR_MAX_UNVERIFIED_BODIES` has the same default). */
export const DEFAULT_MAX_UNVERIFIED_BODIES = 64;
/** A slot frees as soon as a body is read; a sender is told to come back shortly. */
export const UNVERIFIED_RETRY_AFTER_SECONDS = 5;
const DEFAULT_MEMORY_BYTES = 256 * 1024;

export interface OwnBodyReader {
  read(options?: ReadBodyOptions): Promise<Buffer>;
  /** The request is answered: whatever slot it holds is free again. */
  close(): void;
}

export function createOwnBodies(settings: UnverifiedBodySettings) {
  const memoryBytes = settings.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const spillDir = settings.spillDir ?? tmpdir();
  let inFlight = 0;

  function admit(ctx: Context): () => void {
    if (inFlight >= settings.max) {
      ctx.set('Retry-After', String(UNVERIFIED_RETRY_AFTER_SECONDS));
      throw new DomainError(
        'unavailable',
        'Too many unverified request bodies',
        `this server reads at most ${settings.max} webhook bodies awaiting verification at once; retry after ${UNVERIFIED_RETRY_AFTER_SECONDS} s`,
      );
    }
    inFlight++;
    let held = true;
    return () => {
      if (held) inFlight--;
      held = false;
    };
  }

  async function readVerified(ctx: Context, limit: number, verifier: BodyVerifier): Promise<Buffer> {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    // Held in an object: the sink assigns it, and TypeScript does not follow assignments in callbacks.
    const disk: { file: FileHandle | null; path: string; writing: Promise<void> } = { file: null, path: '', writing: Promise.resolve() };
    const spill = async (chunk: Buffer) => {
      if (!disk.file) {
        disk.path = join(spillDir, `hangar-body-${randomUUID()}`);
        disk.file = await open(disk.path, 'wx+', 0o600);
        for (const earlier of kept.splice(0)) await writeAll(disk.file, earlier);
      }
      await writeAll(disk.file, chunk);
    };
    try {
      const size = await streamBody(ctx.req, limit, (chunk) => {
        verifier.update(chunk);
        if (!disk.file && keptBytes + chunk.length <= memoryBytes) {
          kept.push(chunk);
          keptBytes += chunk.length;
          return;
        }
        disk.writing = spill(chunk);
        return disk.writing;
      });
      verifier.verify();
      return disk.file ? await readBack(disk.file, size) : Buffer.concat(kept, size);
    } finally {
      // A client that leaves mid-write ends the read before the write settles.
      await disk.writing.catch(() => undefined);
      if (disk.file) {
        await disk.file.close().catch(() => undefined);
        await unlink(disk.path).catch(() => undefined);
      }
    }
  }

  return {
    /** The `readBody` of one request to an `ownBody` route whose limit is `limit` bytes. */
    reader(ctx: Context, limit: number): OwnBodyReader {
      const slots: Array<() => void> = [];
      return {
        async read(options = {}) {
          if (options.types && ctx.is(options.types) === false) {
            throw new DomainError('unsupported_media_type', 'Unsupported media type', `send the body as Content-Type: ${options.types.join(' or ')}`);
          }
          refuseDeclaredOverLimit(ctx.req, limit);
          if (!options.unverified && !options.verifier) return readBody(ctx.req, limit);
          const release = admit(ctx);
          slots.push(release);
          if (!options.verifier) return readBody(ctx.req, limit);
          try {
            return await readVerified(ctx, limit, options.verifier);
          } finally {
            release();
          }
        },
        close: () => slots.forEach((release) => release()),
      };
    },
    /** Unverified bodies being read right now. */
    inFlight: () => inFlight,
  };
}

async function writeAll(file: FileHandle, chunk: Buffer): Promise<void> {
  for (let offset = 0; offset < chunk.length; ) offset += (await file.write(chunk, offset)).bytesWritten;
}

async function readBack(file: FileHandle, size: number): Promise<Buffer> {
  const body = Buffer.allocUnsafe(size);
  for (let offset = 0; offset < size; ) {
    const { bytesRead } = await file.read(body, offset, size - offset, offset);
    if (bytesRead === 0) throw new Error('a spilled request body is shorter than what was written');
    offset += bytesRead;
  }
  return body;
}
