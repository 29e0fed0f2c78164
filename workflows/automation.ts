/**
 * The cron loop of one automation: compute the next fire time in the automation's time
 * zone, sleep on a durable timer, record the fire and start its run, repeat. A PATCH signals
 * `configChanged` so the schedule is re-read at once; a disabled or cron-less automation
 * waits for the next change; a deleted one ends the loop. A fire missed while everything was
 * down runs once when the timer is finally serviced (the next one is computed from then), so
 * it never runs twice.
 */
import { condition, continueAsNew, defineSignal, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { schedules } from './activities';
import { AutomationSchedule } from './automationState';
import { startRunChild } from './run';
import { AUTOMATION_SIGNALS, type AutomationScheduleInput } from './shared';

export const configChanged = defineSignal(AUTOMATION_SIGNALS.configChanged);

export async function automationScheduleWorkflow(input: AutomationScheduleInput): Promise<void> {
  const schedule = new AutomationSchedule(input.fires ?? 0);
  setHandler(configChanged, () => schedule.configChanged());

  for (;;) {
    schedule.reading();
    const step = schedule.plan(await schedules.loadSchedule({ automationId: input.automationId }), new Date());
    if (step.kind === 'end') return;
    if (step.kind === 'wait') {
      await condition(() => schedule.changed);
      continue;
    }
    if (await condition(() => schedule.changed, step.at.getTime() - Date.now())) continue;

    const executionId = uuid4();
    const recorded = await schedules.recordCronFire({ automationId: input.automationId, executionId, scheduledAt: step.at.toISOString() });
    if (recorded) {
      await startRunChild({ executionId, automationId: input.automationId, organizationId: input.organizationId }, 'cron');
    }
    schedule.fired();
    if (schedule.full || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof automationScheduleWorkflow>({ ...input, fires: schedule.fires });
    }
  }
}
