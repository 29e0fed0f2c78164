import type { Knex } from 'knex';

/**
 * What the analytics overview reads, kept apart from the records it describes, because a
 * replica row is removed when its workspace is torn down and the figures must not shrink:
 *
 * - `analytics_workspaces`: one row per workspace ever created (source, creation time);
 * - `workspace_active_intervals`: one row per stretch a workspace spent `active` (billed
 *   while awake); `ended_at` null while it still is. At most one open row per replica, so a
 *   retried status write cannot open a second one;
 * - `analytics_pull_request_events`: pull/merge requests opened, merged and closed, per
 *   organization whose connected repository the delivery names, once per delivery and action.
 *
 * No foreign key to `replicas`; organizations cascade. Existing workspaces are carried over:
 * every replica row counts as created, and an active one as active since its last update.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('analytics_workspaces', (t) => {
    t.uuid('replica_id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('source').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });
  // Covering: the overview's count by bucket and source reads the index alone.
  await knex.raw('CREATE INDEX analytics_workspaces_org_created ON analytics_workspaces (organization_id, created_at, source)');

  await knex.schema.createTable('workspace_active_intervals', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('replica_id').notNullable();
    t.text('source').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('ended_at', { useTz: true });
    t.unique(['replica_id', 'started_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX workspace_active_intervals_one_open ON workspace_active_intervals (replica_id) WHERE ended_at IS NULL');
  // A range query reads only intervals that end after its start (open ones sort last).
  await knex.raw(
    `CREATE INDEX workspace_active_intervals_org_end ON workspace_active_intervals (organization_id, (coalesce(ended_at, 'infinity'::timestamptz)), started_at)`,
  );

  await knex.schema.createTable('analytics_pull_request_events', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    /** The delivery id, or (without one) the pull request and head commit. */
    t.text('delivery_key').notNullable();
    t.text('action').notNullable().checkIn(['opened', 'merged', 'closed']);
    t.text('repository').notNullable();
    t.integer('number').notNullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'provider', 'delivery_key', 'action']);
  });
  await knex.raw('CREATE INDEX analytics_pull_request_events_org_time ON analytics_pull_request_events (organization_id, occurred_at, action)');

  await knex.raw(`INSERT INTO analytics_workspaces (replica_id, organization_id, source, created_at)
                  SELECT id, organization_id, source, created_at FROM replicas`);
  await knex.raw(`INSERT INTO workspace_active_intervals (id, organization_id, replica_id, source, started_at)
                  SELECT gen_random_uuid(), organization_id, id, source, updated_at FROM replicas WHERE status = 'active'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('analytics_pull_request_events');
  await knex.schema.dropTable('workspace_active_intervals');
  await knex.schema.dropTable('analytics_workspaces');
}
