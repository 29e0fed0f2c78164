import type { Knex } from 'knex';

/**
 * Whether a failed execution's agent turn was cut short rather than failed by the agent: its
 * worker was lost or stopped, its activity timed out, or the workspace was stopped under it.
 * Those do not count toward the circuit breaker: a worker restart must not disable automations.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('automation_executions', (t) => {
    t.boolean('interrupted').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('automation_executions', (t) => {
    t.dropColumn('interrupted');
  });
}
