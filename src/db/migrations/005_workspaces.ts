import type { Knex } from 'knex';

const now = (knex: Knex) => knex.fn.now();

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('replicas', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').references('users.id').onDelete('SET NULL');
    t.uuid('environment_id').references('environments.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('status').notNullable().checkIn(['preparing', 'active', 'sleeping', 'archived', 'error']);
    t.text('source').notNullable().defaultTo('api');
    t.text('coding_agent').notNullable();
    t.jsonb('agent_models').notNullable().defaultTo('{}');
    t.text('thinking_level');
    t.boolean('plan_mode').notNullable().defaultTo(false);
    t.boolean('goal_mode').notNullable().defaultTo(false);
    t.boolean('fast_mode').notNullable().defaultTo(false);
    t.text('size').notNullable().defaultTo('small').checkIn(['small', 'large']);
    t.text('lifecycle_policy').notNullable().defaultTo('default');
    t.integer('auto_stop_minutes');
    t.jsonb('config').notNullable().defaultTo('{}');
    t.text('webhook_url');
    t.text('webhook_secret_sealed');
    t.text('engine_secret_hash').notNullable();
    // The worker injects the secret into the container; the API checks it by hash.
    t.text('engine_secret_sealed');
    t.jsonb('repositories').notNullable().defaultTo('[]');
    t.timestamp('last_activity_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('archived_at', { useTz: true });
    // Set by DELETE: hidden from every read at once; the workflow removes the rest.
    t.timestamp('deleted_at', { useTz: true });
    t.index(['organization_id', 'created_at']);
  });

  await knex.schema.createTable('replica_chats', (t) => {
    t.uuid('id').primary();
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('title').notNullable().defaultTo('New chat');
    t.uuid('parent_chat_id');
    t.boolean('processing').notNullable().defaultTo(false);
    // The agent's own session id, so the next turn resumes the conversation.
    t.text('agent_session_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('deleted_at', { useTz: true });
    t.index(['replica_id', 'created_at']);
  });

  await knex.schema.createTable('replica_messages', (t) => {
    t.uuid('id').primary();
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.uuid('chat_id').notNullable().references('replica_chats.id').onDelete('CASCADE');
    t.text('content').notNullable();
    t.text('status').notNullable().checkIn(['queued', 'running', 'completed', 'failed', 'interrupted']);
    t.double('queue_position').notNullable();
    t.text('coding_agent').notNullable();
    t.text('model');
    t.jsonb('options').notNullable().defaultTo('{}');
    t.uuid('sender_user_id');
    t.text('sender_email');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.index(['chat_id', 'status', 'queue_position']);
  });

  await knex.schema.createTable('replica_agent_events', (t) => {
    t.bigIncrements('id');
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.uuid('chat_id').notNullable();
    t.uuid('message_id');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(now(knex));
    t.text('type').notNullable();
    t.jsonb('payload').notNullable();
    t.index(['replica_id', 'chat_id', 'id']);
  });

  await knex.schema.createTable('replica_events', (t) => {
    t.bigIncrements('id');
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.timestamp('ts', { useTz: true }).notNullable().defaultTo(now(knex));
    t.text('type').notNullable();
    t.jsonb('payload').notNullable();
    t.index(['replica_id', 'id']);
  });

  await knex.schema.createTable('replica_hook_logs', (t) => {
    t.uuid('id').primary();
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['warm', 'start']);
    t.text('hook_type').notNullable();
    t.text('hook_name').notNullable();
    t.text('script').notNullable();
    t.text('output').notNullable();
    t.integer('output_total_chars').notNullable();
    t.integer('exit_code');
    t.boolean('timed_out').notNullable().defaultTo(false);
    t.timestamp('executed_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.index(['replica_id', 'executed_at']);
  });

  await knex.schema.createTable('terminal_sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.text('owner').notNullable();
    t.integer('cols').notNullable();
    t.integer('rows').notNullable();
    t.text('title').notNullable();
    t.boolean('exited').notNullable().defaultTo(false);
    t.integer('exit_code');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(now(knex));
    t.index(['replica_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['terminal_sessions', 'replica_hook_logs', 'replica_events', 'replica_agent_events', 'replica_messages', 'replica_chats', 'replicas']) {
    await knex.schema.dropTableIfExists(table);
  }
}
