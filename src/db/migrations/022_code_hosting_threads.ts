import type { Knex } from 'knex';

/**
 * Code-hosting threads' organization settings (GitHub and GitLab issues and pull requests routed
 * to workspaces; the threads themselves are `integration_threads`):
 *
 * - `auto_responder_logins`, `auto_responder_repository_ids`: the auto-responder allowlist. An
 *   issue opened by one of these logins, or in one of these connected repositories, starts a
 *   workspace without mentioning the bot.
 * - `ci_failure_response`: a failed check run or pipeline on a workspace's own pull/merge
 *   request is sent to its agent (on unless turned off).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organization_settings', (t) => {
    t.jsonb('auto_responder_logins').notNullable().defaultTo('[]');
    t.jsonb('auto_responder_repository_ids').notNullable().defaultTo('[]');
    t.boolean('ci_failure_response').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organization_settings', (t) => {
    t.dropColumn('auto_responder_logins');
    t.dropColumn('auto_responder_repository_ids');
    t.dropColumn('ci_failure_response');
  });
}
