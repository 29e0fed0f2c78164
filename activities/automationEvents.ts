/**
 * Closing a debounce window (`debounce/{automation}/{key}/{window}`). The window row is taken
 * with an exclusive lock, which waits for every event still joining it (they hold shared
 * locks) and makes later events open the next window; then either the quiet period is not
 * over yet (a later event moved the deadline) and the workflow sleeps again, or the window
 * closes and exactly one pending execution is recorded with the newest event's payload.
 * Idempotent: a retried close of a closed window returns the execution it recorded.
 */
import { Context } from '@temporalio/activity';
import type { Repositories } from '../src/db';
import type { Logger } from '../src/logger';
import type { DebounceCloseResult } from '../workflows/shared';

export interface CloseWindowInput {
  automationId: string;
  debounceKey: string;
  windowNo: number;
  /** The id to give the run's execution (chosen by the workflow, so retries agree). */
  executionId: string;
}

/**
 * A remaining quiet period shorter than this is waited out inside the activity: Temporal
 * timers are not precise below a second (the dev server fires them after about 1 s).
 */
const SHORT_WAIT_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createAutomationEventActivities(deps: { repos: Pick<Repositories, 'transact' | 'automations' | 'automationExecutions' | 'automationInbox'>; logger: Logger }) {
  const { automations, automationExecutions: executions, automationInbox: inbox } = deps.repos;

  return {
    /** Closes the window, or says how long to sleep first; short remainders are slept here, outside any lock. */
    async closeDebounceWindow(input: CloseWindowInput): Promise<DebounceCloseResult> {
      for (;;) {
        const result = await tryClose(input);
        if (result.state !== 'waiting' || result.remainingMs >= SHORT_WAIT_MS) return result;
        Context.current().heartbeat();
        await sleep(result.remainingMs);
      }
    },
  };

  async function tryClose(input: CloseWindowInput): Promise<DebounceCloseResult> {
    const window = { automationId: input.automationId, debounceKey: input.debounceKey, windowNo: input.windowNo };
    return deps.repos.transact(async (trx) => {
      const locked = await inbox.lockWindow(window, trx);
      // Gone: deleted with its automation.
      if (!locked) return { state: 'gone' };
      if (locked.state === 'closed') return { state: 'closed', executionId: locked.executionId };

      const automation = await automations.findById(input.automationId, trx);
      const stats = await inbox.windowStats(window, automation?.debounce_seconds ?? 0, trx);
      if (automation && stats.remainingMs > 0) return { state: 'waiting', remainingMs: stats.remainingMs };

      if (!automation) {
        // Deleted: its cleanup may already have run, so this window removes itself.
        await inbox.deleteWindow(window, trx);
        return { state: 'closed', executionId: null };
      }
      if (!automation.enabled) {
        await inbox.closeWindow(window, { stats }, trx);
        deps.logger.info('debounce window closed without a run: the automation is disabled', { automationId: input.automationId, windowNo: input.windowNo });
        return { state: 'closed', executionId: null };
      }
      const payload = await inbox.latestPayload(window, trx);
      await executions.insertPending(
        { id: input.executionId, automationId: input.automationId, organizationId: automation.organization_id, payload: payload ?? {}, config: automation.config ?? {} },
        trx,
      );
      await inbox.closeWindow(window, { stats, executionId: input.executionId }, trx);
      return { state: 'closed', executionId: input.executionId };
    });
  }
}

export type AutomationEventActivities = ReturnType<typeof createAutomationEventActivities>;
