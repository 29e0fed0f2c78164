/**
 * Slack messages as automation events (interop §10.3): a verified channel message of a
 * connected Slack workspace fires the enabled automations of THAT connection's organization
 * whose `slack` trigger watches the channel (every channel when `channel_ids` is empty).
 * Events debounce per thread; with `group_thread_replies` (the run decides, from the trigger as
 * it is then) a later message of the same thread goes to the workspace of the run its thread
 * started, as a follow-up.
 */
import type { AutomationsRepository } from '../../db/automationsRepository';
import type { SlackTrigger } from '../../domain/automations/rules';
import { slackMessageDebounceKey, type SlackMessage } from '../../integrations/slack/events';
import type { AutomationInbox, InboxItem } from '../automations/inbox';

/**
 * Deliveries are remembered under this provider name in the inbox's delivery table, apart from
 * the thread routing's own record of the same message.
 */
export const SLACK_AUTOMATION_DELIVERIES = 'slack_automations';

export function createSlackAutomationIntake(deps: { automations: Pick<AutomationsRepository, 'withEventTrigger'>; inbox: Pick<AutomationInbox, 'accept'> }) {
  async function itemsFor(organizationId: string, message: SlackMessage): Promise<InboxItem[]> {
    const rows = await deps.automations.withEventTrigger(organizationId, 'slack', 'message');
    const items: InboxItem[] = [];
    for (const row of rows) {
      const trigger = row.triggers.find((t): t is SlackTrigger => t.type === 'slack');
      if (!trigger || trigger.config.event !== 'message') continue;
      const channels = trigger.config.channel_ids ?? [];
      if (channels.length > 0 && !channels.includes(message.channelId)) continue;
      items.push({
        automationId: row.id,
        key: slackMessageDebounceKey(message),
        payload: { team_id: message.teamId, channel_id: message.channelId, ts: message.ts, thread_ts: message.threadTs, user: message.user, text: message.text },
        trigger: 'slack',
      });
    }
    return items;
  }

  return {
    /**
     * Records the message for every matching automation, once per message (`deliveryId`):
     * a retried delivery, or the same message arriving as both `app_mention` and `message`,
     * is recorded once.
     */
    async accept(organizationId: string, message: SlackMessage, deliveryId: string): Promise<{ matched: number; duplicate: boolean }> {
      const items = await itemsFor(organizationId, message);
      if (items.length === 0) return { matched: 0, duplicate: false };
      const { duplicate, accepted } = await deps.inbox.accept(items, { provider: SLACK_AUTOMATION_DELIVERIES, id: deliveryId });
      return { matched: accepted.filter((a) => a !== null).length, duplicate };
    },
  };
}

export type SlackAutomationIntake = ReturnType<typeof createSlackAutomationIntake>;
