/**
 * What the cron loop needs from the database: the automation's schedule, and recording a
 * fire as a pending execution. Recording is idempotent by the (automation, scheduled time)
 * pair, so a retried activity or a replayed workflow never records one fire twice.
 */
import type { Repositories } from '../src/db';
import { nextFireAt, parseCron } from '../src/domain/cron';

export function createAutomationScheduleActivities(deps: { repos: Pick<Repositories, 'transact' | 'automations' | 'automationExecutions'> }) {
  const { automations, automationExecutions: executions } = deps.repos;
  return {
    async loadSchedule({ automationId }: { automationId: string }) {
      const row = await automations.findById(automationId);
      if (!row) return { exists: false, enabled: false, cron: null };
      return {
        exists: true,
        enabled: row.enabled,
        cron: row.cron_expression ? { expression: row.cron_expression, timezone: row.cron_timezone ?? 'UTC' } : null,
      };
    },

    /** False when this fire was already recorded (or the automation is gone or disabled). */
    async recordCronFire({ automationId, executionId, scheduledAt }: { automationId: string; executionId: string; scheduledAt: string }): Promise<boolean> {
      return deps.repos.transact(async (trx) => {
        const automation = await automations.lockById(automationId, trx);
        if (!automation || !automation.enabled) return false;
        const payload = { trigger: 'cron', schedule: automation.cron_expression, timezone: automation.cron_timezone, scheduled_at: scheduledAt };
        const already = await executions.findCronFire(automationId, scheduledAt, trx);
        if (already) return already.id === executionId;
        await executions.insertPending(
          { id: executionId, automationId, organizationId: automation.organization_id, payload, config: automation.config ?? {} },
          trx,
        );
        const following = automation.cron_expression
          ? nextFireAt(parseCron(automation.cron_expression), automation.cron_timezone ?? 'UTC', new Date(scheduledAt))
          : null;
        await automations.setNextFire(automationId, following, trx);
        return true;
      });
    },
  };
}

export type AutomationScheduleActivities = ReturnType<typeof createAutomationScheduleActivities>;
