import type { Knex } from 'knex';

/**
 * Worker hosts, each with its own Docker engine. A worker registers its host and keeps
 * `last_seen` fresh; placement picks a live host with room for a new workspace. A replica and a
 * warm-pool entry record the host that holds their container, so that every container activity,
 * terminal and claim goes to that host. Null `host_id`: made before hosts were recorded (a
 * single-host deployment), served by whichever worker polls the shared queue, as before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('worker_hosts', (t) => {
    t.text('id').primary();
    // The queue its worker polls for container work (`{taskQueue}@{id}`).
    t.text('task_queue').notNullable();
    // Workspaces it may hold at once (running replicas and warm-pool entries); null: no limit.
    t.integer('capacity');
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_seen', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Set by a worker that shut down cleanly: placement skips it at once instead of after the window.
    t.timestamp('stopped_at', { useTz: true });
  });
  await knex.schema.alterTable('replicas', (t) => {
    t.text('host_id');
    t.index(['host_id', 'status']);
  });
  await knex.schema.alterTable('warm_pool_workspaces', (t) => {
    t.text('host_id');
    t.index(['host_id', 'status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('warm_pool_workspaces', (t) => {
    t.dropIndex(['host_id', 'status']);
    t.dropColumn('host_id');
  });
  await knex.schema.alterTable('replicas', (t) => {
    t.dropIndex(['host_id', 'status']);
    t.dropColumn('host_id');
  });
  await knex.schema.dropTableIfExists('worker_hosts');
}
