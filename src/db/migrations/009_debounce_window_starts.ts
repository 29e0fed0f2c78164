import type { Knex } from 'knex';

/**
 * Debounce windows record when their workflow was started. Workflows start after the inbox
 * transaction commits; a window still without a start after a while (Temporal was down, or
 * the process died in between) is started by the sweeper.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('automation_debounce_windows', (t) => {
    t.timestamp('workflow_started_at', { useTz: true });
  });
  await knex.raw(
    "CREATE INDEX automation_debounce_windows_unstarted ON automation_debounce_windows (opened_at) WHERE state = 'open' AND workflow_started_at IS NULL",
  );
  await knex.raw("CREATE INDEX automation_executions_pending ON automation_executions (triggered_at) WHERE status = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS automation_executions_pending');
  await knex.raw('DROP INDEX IF EXISTS automation_debounce_windows_unstarted');
  await knex.schema.alterTable('automation_debounce_windows', (t) => {
    t.dropColumn('workflow_started_at');
  });
}
