import type { Knex } from 'knex';

/**
 * The agent's final text of each turn, on the message that started it: what a Slack thread,
 * Linear issue or GitHub issue gets back. The history keeps every event in each agent's own
 * format; this is the one text a thread shows. Each thread remembers the last turn it was
 * answered for, so a retried relay does not answer twice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.text('reply_text');
  });
  // The last turn a thread was answered for: a retried relay skips the threads already answered.
  await knex.schema.alterTable('integration_threads', (t) => {
    t.uuid('last_reply_message_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('integration_threads', (t) => {
    t.dropColumn('last_reply_message_id');
  });
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropColumn('reply_text');
  });
}
