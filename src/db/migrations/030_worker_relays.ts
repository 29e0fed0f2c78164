import type { Knex } from 'knex';

/**
 * A worker host's preview relay: where API processes reach it (`HANGAR_WORKER_RELAY_URL`), set by
 * its workers' heartbeat. Null: the host has none, and the API dials its containers directly
 * (one Docker engine beside the API, as before).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('worker_hosts', (t) => {
    t.text('relay_url');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('worker_hosts', (t) => {
    t.dropColumn('relay_url');
  });
}
