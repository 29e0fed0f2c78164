import type { Knex } from 'knex';

/**
 * One row per request the AI gateway forwarded: who (organization, replica, the replica's
 * user), what (agent, model), how it ended (status as the client saw it, 499 when the client
 * left first, 502 when the provider failed) and the provider's own token counts. No foreign
 * key to `replicas`: usage outlives the workspace record, which is removed after teardown.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ai_gateway_usage', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('replica_id').notNullable();
    t.uuid('user_id');
    t.text('agent').notNullable();
    t.text('model');
    t.integer('status').notNullable();
    t.bigInteger('input_tokens');
    t.bigInteger('output_tokens');
    t.integer('duration_ms').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'started_at']);
    t.index(['replica_id', 'started_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ai_gateway_usage');
}
