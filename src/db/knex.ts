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

/** An arbitrary constant naming Hangar's migration lock among the server's advisory locks. */
const MIGRATION_LOCK = 0x4a4e4752;

/**
 * Migrates to the latest schema. On PostgreSQL, every process that starts migrates, so two that
 * start together on an empty database would both create knex's own tables (and the schema)
 * before knex's migration lock exists: one of them failed with a duplicate key in pg_type. A
 * session-level advisory lock, held on one pooled connection around the whole migration, makes
 * the second wait and then find nothing left to do.
 */
export async function migrateToLatest(db: Knex, schema?: string): Promise<void> {
  const run = async () => {
    if (schema) await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
    await db.migrate.latest({ migrationSource, schemaName: schema });
  };
  if (db.client.config.client !== 'pg') return run();
  const connection = await db.client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await run();
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}
