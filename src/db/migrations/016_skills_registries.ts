import type { Knex } from 'knex';

/**
 * Skills registries: GitHub repositories whose skill directories every workspace of the
 * environment gets (discovered live; nothing of the repository's contents is stored). One
 * repository once per environment, compared without case as GitHub does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('environment_skills_registries', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('environment_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('url').notNullable();
    t.text('repository_full_name').notNullable();
    /** `repository_full_name` in lower case: the uniqueness key. */
    t.text('repository_key').notNullable();
    t.text('default_branch').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['environment_id', 'repository_key'], { indexName: 'environment_skills_registries_environment_repository_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('environment_skills_registries');
}
