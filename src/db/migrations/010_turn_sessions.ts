import type { Knex } from 'knex';

/**
 * A running message records the agent's process session in its workspace container once the
 * agent starts. When the worker running a turn is lost, the retry reads it from here (not from
 * heartbeats, which the SDK sends only every few seconds): no session means the agent never
 * started and the message can run; a session means it did, and that session is stopped.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.integer('agent_session');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropColumn('agent_session');
  });
}
