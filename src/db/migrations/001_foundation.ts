import type { Knex } from 'knex';

const now = (knex: Knex) => knex.fn.now();

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary();
    t.text('name').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('display_name').notNullable();
    t.text('avatar_url');
    t.text('role').notNullable().checkIn(['admin', 'member']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['organization_id', 'email']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['org', 'personal']);
    t.text('name').notNullable();
    t.text('display_prefix').notNullable();
    t.text('key_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
  });

  await knex.schema.createTable('repositories', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    // A repository belongs to at most one organization.
    t.text('url').notNullable().unique();
    t.text('default_branch').notNullable().defaultTo('main');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
  });

  await knex.schema.createTable('repository_sets', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['organization_id', 'name']);
  });

  await knex.schema.createTable('repository_set_members', (t) => {
    t.uuid('repository_set_id').notNullable().references('repository_sets.id').onDelete('CASCADE');
    t.uuid('repository_id').notNullable().references('repositories.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.primary(['repository_set_id', 'repository_id']);
  });

  await knex.schema.createTable('environments', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.boolean('is_global').notNullable().defaultTo(false);
    t.uuid('repository_id').references('repositories.id').onDelete('SET NULL');
    t.uuid('repository_set_id').references('repository_sets.id').onDelete('SET NULL');
    t.text('system_prompt');
    t.text('personal_preferences');
    t.boolean('mobile_testing_enabled').notNullable().defaultTo(false);
    // RESTRICT: a team environment with personal environments inheriting from it cannot go.
    t.uuid('source_environment_id').references('environments.id').onDelete('RESTRICT');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
  });
  await knex.raw('CREATE UNIQUE INDEX environments_one_global ON environments (organization_id) WHERE is_global');
  await knex.raw(
    'CREATE UNIQUE INDEX environments_team_name ON environments (organization_id, lower(name)) WHERE user_id IS NULL',
  );
  await knex.raw(
    'CREATE UNIQUE INDEX environments_personal_name ON environments (organization_id, user_id, lower(name)) WHERE user_id IS NOT NULL',
  );

  await knex.schema.createTable('environment_variables', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value_sealed').notNullable();
    t.boolean('personal_override_allowed').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['environment_id', 'key']);
  });

  await knex.schema.createTable('environment_files', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('path').notNullable();
    t.text('content_sealed').notNullable();
    t.integer('size_bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['environment_id', 'path']);
  });

  await knex.schema.createTable('environment_skills', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('slug').notNullable();
    t.text('source').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['environment_id', 'slug']);
    t.unique(['environment_id', 'source']);
  });

  await knex.schema.createTable('environment_mcps', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('transport').notNullable().checkIn(['stdio', 'http', 'sse']);
    // Sealed: MCP configs carry tokens in headers and env.
    t.text('config_sealed').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['environment_id', 'name']);
  });

  await knex.schema.createTable('environment_hooks', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['warm', 'start']);
    t.integer('version').notNullable();
    t.text('content').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.unique(['environment_id', 'kind', 'version']);
  });

  await knex.schema.createTable('warm_pool_configs', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().unique().references('environments.id').onDelete('CASCADE');
    t.boolean('enabled').notNullable().defaultTo(false);
    t.integer('target_size').notNullable().defaultTo(5);
    t.integer('generation').notNullable().defaultTo(1);
    t.integer('error_count').notNullable().defaultTo(0);
    t.timestamp('next_retry_at', { useTz: true });
    t.timestamp('last_error_at', { useTz: true });
    t.text('last_error_message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'warm_pool_configs', 'environment_hooks', 'environment_mcps', 'environment_skills', 'environment_files',
    'environment_variables', 'environments', 'repository_set_members', 'repository_sets', 'repositories',
    'api_keys', 'users', 'organizations',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
