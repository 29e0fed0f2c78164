/**
 * Builds the knex instance: PostgreSQL from DATABASE_URL, or the embedded PGlite database
 * (one connection, data under a directory) when the dev process runs without one.
 */
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations';

export type Db = Knex;

export function createPostgresKnex(databaseUrl: string, options: { schema?: string; poolMax?: number } = {}): Knex {
  return knexFactory({
    client: 'pg',
    connection: databaseUrl,
    searchPath: options.schema ? [options.schema, 'public'] : undefined,
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

/** `dataDir` undefined keeps the database in memory (tests of the embedded path). */
export function createEmbeddedKnex(dataDir?: string): Knex {
  // Loaded only here: PGlite's WebAssembly build adds about 55 MB to every process that loads
  // it, and the API and worker on PostgreSQL never do.
  const { EmbeddedClient } = require('./embeddedClient') as typeof import('./embeddedClient');
  return knexFactory({
    client: EmbeddedClient as unknown as typeof Knex.Client,
    dialect: 'postgres',
    connection: dataDir ? { filename: dataDir } : {},
  } as Knex.Config);
}

export async function migrateToLatest(db: Knex, schema?: string): Promise<void> {
  if (schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  await db.migrate.latest({ migrationSource, schemaName: schema });
}

export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}
