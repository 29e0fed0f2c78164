/**
 * The inbox commits events before it starts their workflows, so a start can be missing: the
 * API process died right after the commit, or Temporal could not be reached. The sweeper runs
 * in the worker, finds what was left without a workflow — an open debounce window never
 * marked started, an execution still `pending` — and starts it. Starts are idempotent by
 * workflow id, so a window or run that did start meanwhile is left alone, and several sweepers
 * can run at once.
 */
import type { AutomationInboxRepository } from '../db/automationInboxRepository';
import type { Logger } from '../logger';
import type { AutomationRunInput, DebounceWindowInput } from '../../workflows/shared';

const BATCH = 200;

/** The two workflow starts the sweeper makes up for (idempotent by workflow id). */
export interface InboxWorkflowStarter {
  startDebounceWindow(input: DebounceWindowInput): Promise<unknown>;
  startAutomationRun(input: AutomationRunInput): Promise<unknown>;
}

export function createAutomationSweeper(deps: {
  inbox: AutomationInboxRepository;
  temporal: InboxWorkflowStarter;
  logger: Logger;
  /** How old an unstarted window or pending execution must be before it is started here. */
  graceMs: number;
}) {
  const { inbox, temporal, logger } = deps;

  async function sweepOnce(): Promise<{ windows: number; executions: number }> {
    const windows = await inbox.unstartedWindows(deps.graceMs, BATCH);
    for (const w of windows) {
      const window = { automationId: w.automation_id, debounceKey: w.debounce_key, windowNo: w.window_no };
      await temporal.startDebounceWindow({
        ...window,
        // A deleted automation's window closes itself (and its events) when its workflow runs.
        organizationId: w.organization_id ?? '',
        debounceSeconds: w.debounce_seconds ?? 0,
      });
      await inbox.markWindowStarted(window);
    }
    const executions = await inbox.unstartedExecutions(deps.graceMs, BATCH);
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
