import type { Knex } from 'knex';

/**
 * A turn runs under the in-workspace supervisor and outlives its worker (issue 32): the agent's
 * output is kept in a file in the workspace, and `output_offset` is how many bytes of it are
 * recorded as history and events. It moves in the same transaction as the events it covers, so a
 * worker that takes over a turn starts exactly where the records stop (nothing twice, nothing
 * lost), and a follower that finds it moved by another stops. Null: a turn from before the
 * supervisor, whose agent died with its worker's exec.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.bigInteger('output_offset');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropColumn('output_offset');
  });
}
