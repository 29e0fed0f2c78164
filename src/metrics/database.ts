/**
 * Gauges of state that lives in the database (workspaces by status, debounce windows open),
 * read when Prometheus scrapes and kept for a few seconds, so several scrapers or a
 * refreshing dashboard cost one pair of COUNTs. A registry per API, since each API reads its
 * own database (tests run several in one process).
 */
import { Gauge, Registry } from 'prom-client';
import type { MetricsRepository } from '../db/metricsRepository';

/** Every status a workspace can have, so a status with no workspace shows 0 rather than vanishing. */
const WORKSPACE_STATUSES = ['preparing', 'active', 'sleeping', 'archived', 'error'];

export function createDatabaseGauges(repository: MetricsRepository, options: { cacheMs?: number } = {}): Registry {
  const cacheMs = options.cacheMs ?? 10_000;
  const registry = new Registry();
  let cached: { at: number; counts: Promise<{ workspaces: Record<string, number>; openWindows: number }> } | null = null;
  const counts = () => {
    if (!cached || performance.now() - cached.at > cacheMs) {
      const read = Promise.all([repository.workspacesByStatus(), repository.openDebounceWindows()]).then(([workspaces, openWindows]) => ({ workspaces, openWindows }));
      // A failed read is not kept: the next scrape tries again.
      read.catch(() => (cached = null));
      cached = { at: performance.now(), counts: read };
    }
    return cached.counts;
  };

  new Gauge({
    name: 'hangar_workspaces',
    help: 'Workspaces (not deleted) by status',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { workspaces } = await counts();
      for (const status of new Set([...WORKSPACE_STATUSES, ...Object.keys(workspaces)])) this.set({ status }, workspaces[status] ?? 0);
    },
  });
  new Gauge({
    name: 'hangar_debounce_windows_open',
    help: 'Automation debounce windows collecting events',
    registers: [registry],
    async collect() {
      this.set((await counts()).openWindows);
    },
  });
  return registry;
}
