/**
 * What the cron loop needs from the database: the automation's schedule, and recording a
 * fire as a pending execution. Recording is idempotent by the (automation, scheduled time)
 * pair, so a retried activity or a replayed workflow never records one fire twice.
 */
import type { Knex } from 'knex';
import { nextFireAt, parseCron } from '../src/automations/cron';

export function createAutomationScheduleActivities(deps: { db: Knex }) {
  const { db } = deps;
  return {
    async loadSchedule({ automationId }: { automationId: string }) {
      const row = await db('automations').where({ id: automationId }).first('enabled', 'cron_expression', 'cron_timezone');
      if (!row) return { exists: false, enabled: false, cron: null };
      return {
        exists: true,
        enabled: row.enabled as boolean,
        cron: row.cron_expression ? { expression: row.cron_expression as string, timezone: (row.cron_timezone as string | null) ?? 'UTC' } : null,
      };
    },

    /** False when this fire was already recorded (or the automation is gone or disabled). */
    async recordCronFire({ automationId, executionId, scheduledAt }: { automationId: string; executionId: string; scheduledAt: string }): Promise<boolean> {
      return db.transaction(async (trx) => {
        const automation = await trx('automations').where({ id: automationId }).forUpdate().first();
        if (!automation || !automation.enabled) return false;
        const payload = { trigger: 'cron', schedule: automation.cron_expression, timezone: automation.cron_timezone, scheduled_at: scheduledAt };
        const already = await trx('automation_executions')
          .where({ automation_id: automationId })
          .whereRaw("trigger_payload->>'trigger' = 'cron' and trigger_payload->>'scheduled_at' = ?", [scheduledAt])
          .first('id');
        if (already) return already.id === executionId;
        await trx('automation_executions').insert({
          id: executionId,
          automation_id: automationId,
          organization_id: automation.organization_id,
          trigger_payload: JSON.stringify(payload),
          status: 'pending',
          config: JSON.stringify(automation.config ?? {}),
        });
        const following = automation.cron_expression
          ? nextFireAt(parseCron(automation.cron_expression), automation.cron_timezone ?? 'UTC', new Date(scheduledAt))
          : null;
        await trx('automations').where({ id: automationId }).update({ cron_next_fire_at: following });
        return true;
      });
    },
  };
}

export type AutomationScheduleActivities = ReturnType<typeof createAutomationScheduleActivities>;
