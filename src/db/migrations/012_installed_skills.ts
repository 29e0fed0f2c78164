import type { Knex } from 'knex';

/**
 * What skills a workspace really got (docs/decisions/environments.md, "Skills in workspaces"): the slugs
 * written into its home, recorded when provisioning ends (null before: nothing reported),
 * and those a warm-pool entry was built with, handed to the replica that claims it. A column
 * of its own rather than a key of `replicas.config`, which holds what the client sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('replicas', (t) => {
    t.jsonb('skills_installed');
  });
  await knex.schema.alterTable('warm_pool_workspaces', (t) => {
    t.jsonb('skills_installed').notNullable().defaultTo('[]');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('warm_pool_workspaces', (t) => {
    t.dropColumn('skills_installed');
  });
  await knex.schema.alterTable('replicas', (t) => {
    t.dropColumn('skills_installed');
  });
}
