import type { Knex } from 'knex';

/**
 * Event triggers (issue 4 §2, §3): the durable inbox of accepted events, the debounce windows
 * they fall into, the code-hosting deliveries already seen (deduplication), and the checks a
 * run reported. None of these carries a foreign key to its automation: deleting an automation
 * removes the row at once and the cleanup workflow removes the rest in batches.
 */
export async function up(knex: Knex): Promise<void> {
  // One row per debounce window: (automation, key) has at most one `open` window; its
  // deadline is the newest inbox event of the window plus the automation's debounce_seconds.
  await knex.schema.createTable('automation_debounce_windows', (t) => {
    t.uuid('automation_id').notNullable();
    t.text('debounce_key').notNullable();
    t.integer('window_no').notNullable();
    t.text('state').notNullable().defaultTo('open').checkIn(['open', 'closed']);
    t.timestamp('opened_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.timestamp('closed_at', { useTz: true });
    // The newest event's time when the window closed, so lateness can be measured.
    t.timestamp('last_event_at', { useTz: true });
    t.integer('event_count');
    // The run the window started; null when it closed without one (automation disabled).
    t.uuid('execution_id');
    t.primary(['automation_id', 'debounce_key', 'window_no']);
  });
  await knex.raw(
    "CREATE UNIQUE INDEX automation_debounce_windows_one_open ON automation_debounce_windows (automation_id, debounce_key) WHERE state = 'open'",
  );

  // The inbox: every accepted event, in arrival order (id). A debounced event belongs to a
  // window; an undebounced one to the execution it started.
  await knex.schema.createTable('automation_events', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('automation_id').notNullable();
    t.text('debounce_key').notNullable();
    t.integer('window_no');
    t.uuid('execution_id');
    t.jsonb('payload').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.raw('clock_timestamp()'));
    t.index(['automation_id', 'debounce_key', 'window_no', 'id']);
  });

  // Code-hosting delivery ids seen recently (kept 7 days; at least 72 h is required).
  await knex.schema.createTable('code_hosting_deliveries', (t) => {
    t.text('provider').notNullable();
    t.text('delivery_id').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['provider', 'delivery_id']);
    t.index(['received_at']);
  });

  // Checks reported for a run, one per (execution, name): the platform's id is stored so a
  // retried activity completes the same check instead of creating another.
  await knex.schema.createTable('automation_checks', (t) => {
    t.uuid('execution_id').notNullable();
    t.text('name').notNullable();
    t.uuid('automation_id').notNullable();
    t.text('provider').notNullable();
    t.text('repository').notNullable();
    t.text('head_sha').notNullable();
    t.text('external_id');
    t.text('status').notNullable().defaultTo('in_progress').checkIn(['in_progress', 'completed']);
    t.text('conclusion');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.primary(['execution_id', 'name']);
    t.index(['automation_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('automation_checks');
  await knex.schema.dropTableIfExists('code_hosting_deliveries');
  await knex.schema.dropTableIfExists('automation_events');
  await knex.schema.dropTableIfExists('automation_debounce_windows');
}
