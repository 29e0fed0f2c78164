/**
 * The inbox commits events before it starts their workflows, so a start can be missing: the
 * API process died right after the commit, or Temporal could not be reached. The sweeper
 * finds what was left without a workflow — an open debounce window never marked started, an
 * execution still `pending` — and starts it. Starts are idempotent by workflow id, so a
 * window or run that did start meanwhile is left alone, and several sweepers can run at once.
 */
import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import type { TemporalGateway } from '../../temporal/gateway';

const BATCH = 200;

export function createAutomationSweeper(deps: {
  db: Knex;
  temporal: Pick<TemporalGateway, 'startAutomationRun' | 'startDebounceWindow'>;
  logger: Logger;
  /** How old an unstarted window or pending execution must be before it is started here. */
  graceMs: number;
}) {
  const { db, temporal, logger } = deps;
  const olderThan = () => db.raw('clock_timestamp() - make_interval(secs => ?)', [deps.graceMs / 1000]);

  async function sweepOnce(): Promise<{ windows: number; executions: number }> {
    const windows: Array<{ automation_id: string; debounce_key: string; window_no: number; organization_id: string | null; debounce_seconds: number | null }> =
      await db('automation_debounce_windows as w')
        .leftJoin('automations as a', 'a.id', 'w.automation_id')
        .where('w.state', 'open')
        .whereNull('w.workflow_started_at')
        .where('w.opened_at', '<', olderThan())
        .orderBy('w.opened_at')
        .limit(BATCH)
        .select('w.automation_id', 'w.debounce_key', 'w.window_no', 'a.organization_id', 'a.debounce_seconds');
    for (const w of windows) {
      await temporal.startDebounceWindow({
        automationId: w.automation_id,
        // A deleted automation's window closes itself (and its events) when its workflow runs.
        organizationId: w.organization_id ?? '',
        debounceKey: w.debounce_key,
        windowNo: w.window_no,
        debounceSeconds: w.debounce_seconds ?? 0,
      });
      await db('automation_debounce_windows')
        .where({ automation_id: w.automation_id, debounce_key: w.debounce_key, window_no: w.window_no })
        .update({ workflow_started_at: db.fn.now() });
    }
    const executions: Array<{ id: string; automation_id: string; organization_id: string }> = await db('automation_executions')
      .where('status', 'pending')
      .where('triggered_at', '<', olderThan())
      .orderBy('triggered_at')
      .limit(BATCH)
      .select('id', 'automation_id', 'organization_id');
    for (const e of executions) {
      await temporal.startAutomationRun({ executionId: e.id, automationId: e.automation_id, organizationId: e.organization_id });
    }
    if (windows.length || executions.length) {
      logger.info('started workflows the inbox had left unstarted', { windows: windows.length, executions: executions.length });
    }
    return { windows: windows.length, executions: executions.length };
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  return {
    sweepOnce,
    /** Sweeps every `intervalMs` until stopped; a failed sweep is logged and tried again next time. */
    start(intervalMs: number) {
      timer ??= setInterval(() => {
        running = sweepOnce().catch((err) => logger.warn('automation sweep failed', { err }));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}

export type AutomationSweeper = ReturnType<typeof createAutomationSweeper>;
