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
 * Pull request events and AI gateway requests also have per-day rollups (below).
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

  // Per-UTC-day rollups of the two high-volume sources, kept by triggers on the rows themselves
  // (so every writer, and only rows actually inserted, count): a range reads its whole days
  // here and only the part-days at its ends from the rows.
  await knex.schema.createTable('analytics_pull_requests_daily', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('action').notNullable();
    t.bigInteger('count').notNullable();
    t.primary(['organization_id', 'day', 'action']);
  });
  await knex.schema.createTable('ai_gateway_usage_daily', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.text('agent').notNullable();
    // '' stands for a request without a model (a primary key cannot hold null).
    t.text('model').notNullable();
    t.bigInteger('requests').notNullable();
    t.bigInteger('input_tokens').notNullable();
    t.bigInteger('output_tokens').notNullable();
    t.primary(['organization_id', 'day', 'agent', 'model']);
  });
  await knex.raw(`
    CREATE FUNCTION analytics_pull_requests_daily_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO analytics_pull_requests_daily AS d (organization_id, day, action, count)
      VALUES (NEW.organization_id, (NEW.occurred_at AT TIME ZONE 'UTC')::date, NEW.action, 1)
      ON CONFLICT (organization_id, day, action) DO UPDATE SET count = d.count + 1;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER analytics_pull_requests_daily_add AFTER INSERT ON analytics_pull_request_events
                  FOR EACH ROW EXECUTE FUNCTION analytics_pull_requests_daily_add()`);
  await knex.raw(`
    CREATE FUNCTION ai_gateway_usage_daily_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ai_gateway_usage_daily AS d (organization_id, day, agent, model, requests, input_tokens, output_tokens)
      VALUES (NEW.organization_id, (NEW.started_at AT TIME ZONE 'UTC')::date, NEW.agent, coalesce(NEW.model, ''), 1,
              coalesce(NEW.input_tokens, 0), coalesce(NEW.output_tokens, 0))
      ON CONFLICT (organization_id, day, agent, model) DO UPDATE
        SET requests = d.requests + 1, input_tokens = d.input_tokens + excluded.input_tokens, output_tokens = d.output_tokens + excluded.output_tokens;
      RETURN NULL;
    END $$`);
  await knex.raw(`CREATE TRIGGER ai_gateway_usage_daily_add AFTER INSERT ON ai_gateway_usage FOR EACH ROW EXECUTE FUNCTION ai_gateway_usage_daily_add()`);
  await knex.raw(`INSERT INTO ai_gateway_usage_daily (organization_id, day, agent, model, requests, input_tokens, output_tokens)
                  SELECT organization_id, (started_at AT TIME ZONE 'UTC')::date, agent, coalesce(model, ''), count(*),
                         coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0)
                    FROM ai_gateway_usage GROUP BY 1, 2, 3, 4`);

  await knex.raw(`INSERT INTO analytics_workspaces (replica_id, organization_id, source, created_at)
                  SELECT id, organization_id, source, created_at FROM replicas`);
  await knex.raw(`INSERT INTO workspace_active_intervals (id, organization_id, replica_id, source, started_at)
                  SELECT gen_random_uuid(), organization_id, id, source, updated_at FROM replicas WHERE status = 'active'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER ai_gateway_usage_daily_add ON ai_gateway_usage');
  await knex.raw('DROP FUNCTION ai_gateway_usage_daily_add()');
  await knex.schema.dropTable('ai_gateway_usage_daily');
  await knex.schema.dropTable('analytics_pull_requests_daily');
  await knex.raw('DROP TRIGGER analytics_pull_requests_daily_add ON analytics_pull_request_events');
  await knex.raw('DROP FUNCTION analytics_pull_requests_daily_add()');
  await knex.schema.dropTable('analytics_pull_request_events');
  await knex.schema.dropTable('workspace_active_intervals');
  await knex.schema.dropTable('analytics_workspaces');
}
