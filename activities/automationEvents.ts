/**
 * Closing a debounce window (`debounce/{automation}/{key}/{window}`). The window row is taken
 * with an exclusive lock, which waits for every event still joining it (they hold shared
 * locks) and makes later events open the next window; then either the quiet period is not
 * over yet (a later event moved the deadline) and the workflow sleeps again, or the window
 * closes and exactly one pending execution is recorded with the newest event's payload.
 * Idempotent: a retried close of a closed window returns the execution it recorded.
 */
import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
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

export function createAutomationEventActivities(deps: { db: Knex; logger: Logger }) {
  const { db } = deps;

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
    const key = { automation_id: input.automationId, debounce_key: input.debounceKey, window_no: input.windowNo };
    return db.transaction(async (trx) => {
      const window = await trx('automation_debounce_windows').where(key).forUpdate().first('state', 'execution_id');
      // Gone: deleted with its automation.
      if (!window) return { state: 'gone' };
      if (window.state === 'closed') return { state: 'closed', executionId: window.execution_id ?? null };

      const automation = await trx('automations').where({ id: input.automationId }).first('organization_id', 'enabled', 'debounce_seconds', 'config');
      const stats = await trx('automation_events')
        .where(key)
        .first(
          trx.raw('count(*)::int as count'),
          trx.raw('max(received_at) as last_event_at'),
          // Milliseconds until the quiet period ends, on the database's clock (the one that stamped the events).
          trx.raw('extract(epoch from (max(received_at) + make_interval(secs => ?) - clock_timestamp())) * 1000 as remaining_ms', [
            automation?.debounce_seconds ?? 0,
          ]),
        );
      const remainingMs = Math.ceil(Number(stats?.remaining_ms ?? 0));
      if (automation && remainingMs > 0) return { state: 'waiting', remainingMs };

      const closing = { state: 'closed', closed_at: trx.raw('clock_timestamp()'), last_event_at: stats?.last_event_at ?? null, event_count: stats?.count ?? 0 };
      if (!automation) {
        // Deleted: its cleanup may already have run, so this window removes itself.
        await trx('automation_events').where(key).delete();
        await trx('automation_debounce_windows').where(key).delete();
        return { state: 'closed', executionId: null };
      }
      if (!automation.enabled) {
        await trx('automation_debounce_windows').where(key).update(closing);
        deps.logger.info('debounce window closed without a run: the automation is disabled', { automationId: input.automationId, windowNo: input.windowNo });
        return { state: 'closed', executionId: null };
      }
      const latest = await trx('automation_events').where(key).orderBy('id', 'desc').first('payload');
      await trx('automation_executions').insert({
        id: input.executionId,
        automation_id: input.automationId,
        organization_id: automation.organization_id,
        trigger_payload: JSON.stringify(latest?.payload ?? {}),
        status: 'pending',
        config: JSON.stringify(automation.config ?? {}),
      });
      await trx('automation_debounce_windows').where(key).update({ ...closing, execution_id: input.executionId });
      return { state: 'closed', executionId: input.executionId };
    });
  }
}

export type AutomationEventActivities = ReturnType<typeof createAutomationEventActivities>;
