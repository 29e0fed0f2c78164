import type { Knex } from 'knex';

/**
 * A run's origin is the event that started it: its own inbox event, or the debounce window it
 * closed. Checks are reported only for runs that came from a pull request's event, so the run
 * looks its origin up by execution id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX automation_events_execution ON automation_events (execution_id) WHERE execution_id IS NOT NULL');
  await knex.raw('CREATE INDEX automation_debounce_windows_execution ON automation_debounce_windows (execution_id) WHERE execution_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS automation_debounce_windows_execution');
  await knex.raw('DROP INDEX IF EXISTS automation_events_execution');
}
