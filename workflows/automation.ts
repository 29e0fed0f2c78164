/**
 * The cron loop of one automation: compute the next fire time in the automation's time
 * zone, sleep on a durable timer, record the fire and start its run, repeat. A PATCH signals
 * `configChanged` so the schedule is re-read at once; a disabled or cron-less automation
 * waits for the next change; a deleted one ends the loop. A fire missed while everything was
 * down runs once when the timer is finally serviced (the next one is computed from then), so
 * it never runs twice.
 */
import { condition, continueAsNew, defineSignal, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { CronError, nextFireAt, parseCron } from '../src/domain/cron';
import { schedules } from './activities';
import { startRunChild } from './run';
import { AUTOMATION_SIGNALS, type AutomationScheduleInput } from './shared';

export const configChanged = defineSignal(AUTOMATION_SIGNALS.configChanged);

const FIRES_PER_RUN = 200;

export async function automationScheduleWorkflow(input: AutomationScheduleInput): Promise<void> {
  let changed = false;
  setHandler(configChanged, () => void (changed = true));
  let fires = input.fires ?? 0;

  for (;;) {
    changed = false;
    const current = await schedules.loadSchedule({ automationId: input.automationId });
    if (!current.exists) return;
    let next: Date | null = null;
    if (current.enabled && current.cron) {
      try {
        next = nextFireAt(parseCron(current.cron.expression), current.cron.timezone, new Date());
      } catch (err) {
        if (!(err instanceof CronError)) throw err; // the API validates; an old bad row waits for a fix
      }
    }
    if (!next) {
      await condition(() => changed);
      continue;
    }
    if (await condition(() => changed, next.getTime() - Date.now())) continue;

    const executionId = uuid4();
    const recorded = await schedules.recordCronFire({ automationId: input.automationId, executionId, scheduledAt: next.toISOString() });
    if (recorded) {
      await startRunChild({ executionId, automationId: input.automationId, organizationId: input.organizationId });
    }
    fires++;
    if (fires % FIRES_PER_RUN === 0 || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof automationScheduleWorkflow>({ ...input, fires });
    }
  }
}
