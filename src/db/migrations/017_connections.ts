import type { Knex } from 'knex';

/**
 * Connections to the team's tools and the threads they route to workspaces.
 *
 * - `connections`: an organization's Slack workspace, Linear workspace or Sentry organization.
 *   The app's secrets (bot token, signing secret, webhook secret, client secret) are one sealed
 *   JSON value; deliveries find their organization by (provider, external_id), so one external
 *   workspace belongs to one organization.
 * - `user_connections`: a member's own identity on a provider (Slack user, Linear user, GitHub
 *   or GitLab login), matched by verified email or linked explicitly.
 * - `integration_threads`: one chat-tool thread, issue or pull request ↔ one workspace (and
 *   the chat in it that the thread talks to). `cursor` is how far the thread has been forwarded;
 *   `reference` is what the provider needs to answer in the thread.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('connections', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['slack', 'linear', 'sentry']);
    t.text('external_id').notNullable();
    t.text('name').notNullable();
    t.text('secrets_sealed').notNullable();
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'external_id'], { indexName: 'connections_provider_external_unique' });
    t.unique(['organization_id', 'provider'], { indexName: 'connections_organization_provider_unique' });
  });

  await knex.schema.createTable('user_connections', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['slack', 'linear', 'github', 'gitlab']);
    t.text('external_user_id').notNullable();
    t.text('external_name');
    t.text('email');
    t.text('linked_via').notNullable().checkIn(['email', 'explicit']);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'provider', 'external_user_id'], { indexName: 'user_connections_identity_unique' });
    t.unique(['user_id', 'provider'], { indexName: 'user_connections_user_provider_unique' });
  });

  await knex.schema.createTable('integration_threads', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable().checkIn(['slack', 'linear', 'github', 'gitlab']);
    t.uuid('connection_id').references('connections.id').onDelete('CASCADE');
    t.text('thread_key').notNullable();
    t.uuid('replica_id').references('replicas.id').onDelete('SET NULL');
    t.uuid('chat_id');
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.jsonb('reference').notNullable().defaultTo('{}');
    t.text('cursor');
    t.timestamp('closed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'provider', 'thread_key'], { indexName: 'integration_threads_key_unique' });
    t.index(['replica_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('integration_threads');
  await knex.schema.dropTableIfExists('user_connections');
  await knex.schema.dropTableIfExists('connections');
}
