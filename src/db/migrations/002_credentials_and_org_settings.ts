import type { Knex } from 'knex';

const AGENTS = ['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('agent_credentials', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    // Null: the organization's credential; set: one user's personal credential.
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    t.text('agent').notNullable().checkIn(AGENTS);
    t.text('kind').notNullable().checkIn(['api_key', 'oauth_token']);
    t.text('secret_sealed').notNullable();
    t.text('refresh_token_sealed');
    t.timestamp('expires_at', { useTz: true });
    // The encryption key that sealed this row, so a rotation can find rows under an old key.
    t.text('key_id').notNullable();
    // Up to the last four characters, shown masked; empty for secrets too short to reveal any.
    t.text('secret_tail').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true });
  });
  await knex.raw(
    'CREATE UNIQUE INDEX agent_credentials_org ON agent_credentials (organization_id, agent) WHERE user_id IS NULL',
  );
  await knex.raw(
    'CREATE UNIQUE INDEX agent_credentials_personal ON agent_credentials (organization_id, user_id, agent) WHERE user_id IS NOT NULL',
  );
  await knex.raw('CREATE INDEX agent_credentials_key_id ON agent_credentials (key_id)');

  await knex.schema.createTable('organization_settings', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.text('default_coding_agent').notNullable().defaultTo('agent_1').checkIn(AGENTS);
    // agent id -> model id; an absent agent has no organization default.
    t.jsonb('default_models').notNullable().defaultTo('{}');
    // Deleting the environment is refused while it is the default (a reference check);
    // SET NULL only backs that up.
    t.uuid('default_environment_id').references('environments.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX organization_settings_default_environment ON organization_settings (default_environment_id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('organization_settings');
  await knex.schema.dropTableIfExists('agent_credentials');
}
