/** Counts operators watch, read at scrape time: grouped COUNTs over small or indexed sets. */
import type { Knex } from 'knex';

export function createMetricsRepository(db: Knex) {
  return {
    /** Workspaces not deleted, per status. */
    async workspacesByStatus(): Promise<Record<string, number>> {
      const rows: Array<{ status: string; count: string | number }> = await db('replicas').whereNull('deleted_at').groupBy('status').select('status').count('* as count');
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
    },

    /** Debounce windows collecting events (the partial unique index on open windows answers this). */
    async openDebounceWindows(): Promise<number> {
      const row = await db('automation_debounce_windows').where({ state: 'open' }).count<{ count: string | number }>('* as count').first();
      return Number(row?.count ?? 0);
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
