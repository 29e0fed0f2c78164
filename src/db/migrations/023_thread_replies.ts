import type { Knex } from 'knex';

/**
 * The agent's final text of each turn, on the message that started it: what a Slack thread,
 * Linear issue or GitHub issue gets back. The history keeps every event in each agent's own
 * format; this is the one text a thread shows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.text('reply_text');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropColumn('reply_text');
  });
}
