import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The model ids an organization's admins enabled, per catalog, in the order given.
  await knex.schema.createTable('enabled_models', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('source').notNullable().checkIn(['source_a', 'source_b']);
    t.text('model_id').notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'source', 'model_id']);
  });

  // The last list a provider returned for an organization, so a restart or another replica
  // can serve it while the provider is down. `key_fingerprint` ties it to the key that
  // fetched it (a truncated SHA-256, never the key): a new key does not inherit it.
  await knex.schema.createTable('model_catalog_snapshots', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('source').notNullable().checkIn(['source_a', 'source_b']);
    t.text('key_fingerprint').notNullable();
    t.jsonb('models').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'source']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('model_catalog_snapshots');
  await knex.schema.dropTableIfExists('enabled_models');
}
