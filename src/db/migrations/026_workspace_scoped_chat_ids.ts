import type { Knex } from 'knex';

/**
 * Chat and message ids may be chosen by the client (`POST …/chats` `id`, `messageId`,
 * `chatId` of a deferred message), so they are unique per workspace, not across every
 * organization: a global key let one tenant learn (409) and squat another's ids. Each table's
 * key becomes `(replica_id, id)`, and a message points at its chat within its own workspace.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropForeign(['chat_id']);
    t.dropIndex(['chat_id', 'status', 'queue_position']);
    t.dropPrimary();
  });
  await knex.schema.alterTable('replica_chats', (t) => {
    t.dropPrimary();
    t.primary(['replica_id', 'id']);
  });
  await knex.schema.alterTable('replica_messages', (t) => {
    t.primary(['replica_id', 'id']);
    t.foreign(['replica_id', 'chat_id']).references(['replica_id', 'id']).inTable('replica_chats').onDelete('CASCADE');
    t.index(['replica_id', 'chat_id', 'status', 'queue_position']);
  });
}

/** Fails when two workspaces came to share an id since: there is no global key to go back to then. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replica_messages', (t) => {
    t.dropForeign(['replica_id', 'chat_id']);
    t.dropIndex(['replica_id', 'chat_id', 'status', 'queue_position']);
    t.dropPrimary();
  });
  await knex.schema.alterTable('replica_chats', (t) => {
    t.dropPrimary();
    t.primary(['id']);
  });
  await knex.schema.alterTable('replica_messages', (t) => {
    t.primary(['id']);
    t.foreign('chat_id').references('replica_chats.id').onDelete('CASCADE');
    t.index(['chat_id', 'status', 'queue_position']);
  });
}
