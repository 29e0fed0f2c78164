import type { Knex } from 'knex';

/**
 * Who created and who revoked each API key, as the key that did it (every API caller is a
 * key; the key leads to its user). Null `created_by_key_id` means the operator CLI made it.
 * The partial index serves the key lists, which only ever show unrevoked keys of one owner.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.uuid('created_by_key_id').references('api_keys.id').onDelete('SET NULL');
    t.uuid('revoked_by_key_id').references('api_keys.id').onDelete('SET NULL');
  });
  await knex.raw(
    'CREATE INDEX api_keys_active_by_owner ON api_keys (organization_id, kind, user_id, created_at DESC) WHERE revoked_at IS NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS api_keys_active_by_owner');
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('revoked_by_key_id');
    t.dropColumn('created_by_key_id');
  });
}
