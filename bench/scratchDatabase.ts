/** A database of a bench's own on the PostgreSQL server the tests use, dropped when the bench ends. */
import { randomBytes } from 'node:crypto';
import { SERVER_URL, withServer } from '../test/support/harness';

export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hangar_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withServer((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => withServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}
