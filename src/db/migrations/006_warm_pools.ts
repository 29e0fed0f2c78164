import type { Knex } from 'knex';

/**
 * Warm pools (issue 3 §4): the pool's entries, and which container a replica uses. A pool
 * entry's container and volume are named after the entry (`hangar-ws-<entryId>`); a replica
 * that claims one records it in `replicas.workspace_key` (null: its own id).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('warm_pool_workspaces', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('warm_pool_config_id').notNullable().references('warm_pool_configs.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['warming', 'ready', 'assigned', 'expired', 'failed']);
    t.integer('generation').notNullable();
    t.text('size').notNullable().defaultTo('small');
    // The repositories checked out ([{id, name, url, default_branch}]); a replica claims an
    // entry only with the same ones.
    t.jsonb('repositories').notNullable().defaultTo('[]');
    // The warm hooks' logs, copied to the replica's hook logs at claim.
    t.jsonb('hook_logs').notNullable().defaultTo('[]');
    // The environment (variables, files) it was built with; claimable only while unchanged.
    t.text('env_hash').notNullable();
    t.text('error_message');
    t.uuid('replica_id').references('replicas.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['environment_id', 'status']);
    t.index(['warm_pool_config_id', 'created_at']);
  });
  await knex.schema.alterTable('replicas', (t) => {
    t.text('workspace_key');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replicas', (t) => {
    t.dropColumn('workspace_key');
  });
  await knex.schema.dropTableIfExists('warm_pool_workspaces');
}
