import type { Knex } from 'knex';

/**
 * Plugin installs: a native plugin (served by Hangar itself) or a third-party MCP server
 * (`http` or `stdio`), installed for the whole organization (`user_id` null) or by one member
 * for themselves. One slug once per scope; inside a workspace the owner's install of a slug
 * replaces the organization's. The MCP server's config and its secret are sealed apart, so a
 * read can show the config and only which secret is set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plugin_installs', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.text('slug').notNullable();
    t.text('name').notNullable();
    t.text('kind').notNullable().checkIn(['native', 'http', 'stdio']);
    t.text('provides').checkIn(['github', 'gitlab', 'linear', 'slack', 'google']);
    t.text('config_sealed');
    t.text('secret_sealed');
    t.text('secret_type').checkIn(['api_key', 'oauth_token']);
    t.text('secret_header');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'user_id'], 'plugin_installs_owner');
  });
  await knex.raw('CREATE UNIQUE INDEX plugin_installs_org_slug_unique ON plugin_installs (organization_id, slug) WHERE user_id IS NULL');
  await knex.raw('CREATE UNIQUE INDEX plugin_installs_user_slug_unique ON plugin_installs (organization_id, user_id, slug) WHERE user_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('plugin_installs');
}
