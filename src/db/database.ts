/**
 * The database and the event bus that rides on it, opened from the config: PostgreSQL (with
 * LISTEN/NOTIFY) when DATABASE_URL is set, else the embedded database with an in-process bus.
 * Kept apart from the runtime so light tools (the `hangar` CLI) do not load Temporal.
 */
import type { Knex } from 'knex';
import type { Config } from '../config';
import { createMemoryBus, createPostgresBus, type EventBus } from '../events/bus';
import type { Logger } from '../logger';
import { createRepositories, type Repositories } from '.';
import { createEmbeddedKnex, createPostgresKnex, migrateToLatest } from './knex';

export interface Database {
  /** The handle itself: migrations and tests only; everything else goes through `repos`. */
  db: Knex;
  repos: Repositories;
  bus: EventBus;
  embedded: boolean;
  close(): Promise<void>;
}

export async function openDatabase(config: Config, logger: Logger, embeddedDir?: string): Promise<Database> {
  if (config.databaseUrl) {
    const db = createPostgresKnex(config.databaseUrl, { schema: config.databaseSchema });
    const bus = createPostgresBus(config.databaseUrl, logger);
    return { db, repos: createRepositories(db), bus, embedded: false, close: async () => void (await Promise.all([bus.close(), db.destroy()])) };
  }
  const db = createEmbeddedKnex(embeddedDir);
  const bus = createMemoryBus();
  return { db, repos: createRepositories(db), bus, embedded: true, close: async () => void (await Promise.all([bus.close(), db.destroy()])) };
}

export async function migrate(database: Database, config: Config): Promise<void> {
  await migrateToLatest(database.db, database.embedded ? undefined : config.databaseSchema);
}

