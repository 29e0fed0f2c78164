import type { Knex } from 'knex';

/**
 * The signed bodies of code-hosting deliveries seen recently, by SHA-256, with the delivery id
 * each first came with. A delivery id is not signed: a captured delivery replayed under a new
 * id has the same body, and is answered as a duplicate for as long as delivery ids are kept.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('code_hosting_delivery_bodies', (t) => {
    t.text('provider').notNullable();
    t.text('body_sha256').notNullable();
    // Null when the delivery came without one: then no later delivery counts as the same.
    t.text('delivery_id');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['provider', 'body_sha256']);
    t.index(['received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('code_hosting_delivery_bodies');
}
