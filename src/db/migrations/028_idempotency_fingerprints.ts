import type { Knex } from 'knex';

/**
 * A remembered delivery may carry the fingerprint of the request it came with (the custom
 * webhook's `Idempotency-Key`): a retry with the same key and the same request is a duplicate,
 * the same key on a different request is refused. Code-hosting deliveries carry none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('code_hosting_deliveries', (t) => {
    t.text('fingerprint');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('code_hosting_deliveries', (t) => {
    t.dropColumn('fingerprint');
  });
}
