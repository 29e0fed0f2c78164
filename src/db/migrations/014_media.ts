import type { Knex } from 'knex';

/**
 * Files stored for a workspace (docs/decisions/workspaces.md, "Canvas and media"). The bytes live in the
 * blob store under `storage_key`; a row goes with its replica (the blobs are removed by the
 * replica's deletion, which knows their common prefix).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('media', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('replica_id').notNullable().references('replicas.id').onDelete('CASCADE');
    t.text('filename').notNullable();
    t.text('kind').notNullable();
    t.text('mime_type').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('storage_key').notNullable();
    /** The key that uploaded it (`engine:<replica>` from inside the workspace). */
    t.text('uploaded_by').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['replica_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('media');
}
