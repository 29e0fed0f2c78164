import type { Knex } from 'knex';

/**
 * Automations (issue 4 §1): the automation record and its run history. Trigger lists and
 * the workspace config are jsonb (validated by the service); the cron trigger is mirrored in
 * top-level columns so the scheduler can query it. The custom-webhook token is stored twice:
 * a SHA-256 hash (unique; the inbound webhook looks it up by hash) and sealed with the secret
 * box (so its owner can read it back). Executions carry no foreign key to their automation:
 * deleting an automation may remove the row first and its history afterwards, in batches.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('automations', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    // Null: an organization automation; set: a personal automation of that user.
    t.uuid('user_id').references('users.id').onDelete('CASCADE');
    // The user whose key created it; null when an organization key did.
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.text('name').notNullable();
    t.text('description');
    t.jsonb('triggers').notNullable().defaultTo('[]');
    t.text('prompt').notNullable();
    t.integer('debounce_seconds').checkBetween([0, 86400]);
    t.jsonb('vcs_check_names').notNullable().defaultTo('[]');
    // No ON DELETE: environment deletion answers 409 while an automation references it.
    t.uuid('environment_id').notNullable().references('environments.id');
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('webhook_token_hash').unique();
    t.text('webhook_token_sealed');
    t.text('cron_expression');
    t.text('cron_timezone');
    t.timestamp('cron_next_fire_at', { useTz: true });
    t.text('workspace_lifecycle_policy')
      .notNullable()
      .defaultTo('default')
      .checkIn(['default', 'archive_when_done', 'sleep_when_done', 'delete_after_inactivity']);
    t.integer('workspace_auto_stop_minutes').checkBetween([3, 1440]);
    t.text('workspace_size').notNullable().defaultTo('small').checkIn(['small', 'large']);
    t.jsonb('config').notNullable().defaultTo('{}');
    t.text('agent_provider').checkIn(['agent_1', 'agent_2', 'agent_3', 'agent_4', 'agent_5']);
    t.text('model');
    t.text('thinking_level').checkIn(['low', 'medium', 'high', 'xhigh', 'max', 'ultra', 'ultracode']);
    t.boolean('plan_mode').notNullable().defaultTo(false);
    t.boolean('goal_mode');
    t.boolean('fast_mode');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'created_at']);
    t.index(['environment_id']);
  });

  await knex.schema.createTable('automation_executions', (t) => {
    t.uuid('id').primary();
    t.uuid('automation_id').notNullable();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('workspace_id').references('replicas.id').onDelete('SET NULL');
    t.timestamp('triggered_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.jsonb('trigger_payload').notNullable().defaultTo('{}');
    t.text('status').notNullable().defaultTo('pending').checkIn(['pending', 'creating', 'running', 'completed', 'failed']);
    t.jsonb('config').notNullable().defaultTo('{}');
    t.text('error');
    t.timestamp('completed_at', { useTz: true });
    t.index(['automation_id', 'triggered_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('automation_executions');
  await knex.schema.dropTableIfExists('automations');
}
