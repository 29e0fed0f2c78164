import type { Knex } from 'knex';

/**
 * Preview URLs (docs/decisions/previews.md, "Previews"): a workspace port shared at a URL named by a
 * random token, and the signed links that open an authenticated one (a link row exists so it
 * can be revoked; the link itself is a signed token). Both go with their workspace, and a
 * preview's links go with it. `replicas.container_address` is where the worker last saw the
 * workspace container on its Docker network: the only address the proxy ever forwards to.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replicas', (t) => {
    t.text('container_address');
  });
  await knex.schema.createTable('previews', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.integer('port').notNullable();
    t.boolean('authenticated').notNullable().defaultTo(false);
    t.text('token').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['replica_id', 'port']);
  });
  await knex.schema.createTable('preview_links', (t) => {
    t.uuid('id').primary();
    t.uuid('preview_id').notNullable().references('previews.id').onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['preview_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('preview_links');
  await knex.schema.dropTable('previews');
  await knex.schema.alterTable('replicas', (t) => {
    t.dropColumn('container_address');
  });
}
