/**
 * A real S3-compatible server for tests: versitygw (posix backend, a temporary directory),
 * installed by `scripts/setup.sh --for test` into ~/.cache/hangar (or `HANGAR_S3_SERVER_PATH`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../src/storage';

export const VERSITYGW_VERSION = 'v1.8.0';

export function versitygwPath(): string {
  const candidates = [process.env.HANGAR_S3_SERVER_PATH, join(homedir(), '.cache', 'hangar', `versitygw-${VERSITYGW_VERSION}`, 'versitygw')];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error('no S3 test server: run `bash scripts/setup.sh --for test` (it installs versitygw) or set HANGAR_S3_SERVER_PATH');
  return found;
}

export interface S3TestServer {
  settings: S3Settings;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startS3Server(): Promise<S3TestServer> {
  const root = mkdtempSync(join(tmpdir(), 'hangar-s3-'));
  // Metadata (content types) in a sidecar directory: /tmp may lack extended attributes.
  mkdirSync(join(root, 'meta'));
  mkdirSync(join(root, 'data'));
  const port = await freePort();
  const accessKeyId = `test${randomBytes(4).toString('hex')}`;
  const secretAccessKey = randomBytes(16).toString('hex');
  const child: ChildProcess = spawn(versitygwPath(), ['--port', `127.0.0.1:${port}`, 'posix', '--sidecar', join(root, 'meta'), join(root, 'data')], {
    env: { ...process.env, ROOT_ACCESS_KEY: accessKeyId, ROOT_SECRET_KEY: secretAccessKey },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const settings: S3Settings = { bucket: 'hangar-test', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, accessKeyId, secretAccessKey };
  const client = new S3Client({ region: settings.region, endpoint: settings.endpoint, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
      break;
    } catch (err) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill();
        throw new Error(`versitygw did not start: ${(err as Error).message}\n${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    settings,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}
