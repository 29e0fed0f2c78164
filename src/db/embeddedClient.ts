/**
 * The knex client for the embedded PGlite database, in a module of its own so that only a
 * process that opens the embedded database loads PGlite (src/db/knex.ts requires it lazily).
 */
import type { Knex } from 'knex';
import ClientPgLite from 'knex-pglite';

/**
 * knex-pglite names a delete's command `DEL`, which knex's PostgreSQL response handling does
 * not recognise, so `delete()` resolved to a result object instead of the row count that the
 * server dialect returns. Renaming the method before the response is processed fixes it.
 */
interface ResponseProcessor {
  processResponse(obj: { method?: string }, runner: unknown): unknown;
}

export class EmbeddedClient extends (ClientPgLite as unknown as new (config: Knex.Config) => ResponseProcessor) {
  override processResponse(obj: { method?: string }, runner: unknown): unknown {
    return super.processResponse(obj.method === 'del' ? { ...obj, method: 'delete' } : obj, runner);
  }
}

