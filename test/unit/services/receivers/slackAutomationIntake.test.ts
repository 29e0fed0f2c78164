import { expect } from 'chai';
import type { InboxItem } from '../../../../src/services/automations/inbox';
import { createSlackAutomationIntake, SLACK_AUTOMATION_DELIVERIES } from '../../../../src/services/receivers/slackAutomationIntake';
import type { SlackMessage } from '../../../../src/integrations/slack/events';

const slack = (config: Record<string, unknown>) => ({ type: 'slack', config: { event: 'message', channel_ids: [], group_thread_replies: true, ...config } });

describe('services/receivers/slackAutomationIntake', () => {
  const message: SlackMessage = { eventType: 'message', teamId: 'T1', channelId: 'C1', channelType: 'channel', user: 'U1', authorTeamId: 'T1', text: 'deploy <@U2>', ts: '1700000000.000300', threadTs: '1700000000.000100' };

  it("records the message for the organization's automations watching the channel, keyed per thread", async () => {
    const asked: string[] = [];
    let recorded: { items: InboxItem[]; delivery?: { provider: string; id: string } } | null = null;
    const intake = createSlackAutomationIntake({
      automations: {
        withEventTrigger: async (organizationId: string, type: string, event: string) => {
          asked.push(`${organizationId}:${type}:${event}`);
          return [
            { id: 'a-all', triggers: [slack({})] },
            { id: 'a-c1', triggers: [{ type: 'cron', config: {} }, slack({ channel_ids: ['C1'], group_thread_replies: false })] },
            { id: 'a-c2', triggers: [slack({ channel_ids: ['C2'] })] },
          ] as any;
        },
      },
      inbox: {
        accept: async (items, delivery) => {
          recorded = { items, delivery };
          return { duplicate: false, accepted: items.map(() => ({ executionId: 'e' })) };
        },
      },
    });
    expect(await intake.accept('org-1', message, 'slack:T1:C1:1700000000.000300')).to.deep.equal({ matched: 2, duplicate: false });
    expect(asked).to.deep.equal(['org-1:slack:message']);
    const payload = { team_id: 'T1', channel_id: 'C1', ts: '1700000000.000300', thread_ts: '1700000000.000100', user: 'U1', text: 'deploy <@U2>' };
    expect(recorded!.items).to.deep.equal([
      { automationId: 'a-all', key: 'slack:C1:1700000000.000100', payload, trigger: 'slack' },
      { automationId: 'a-c1', key: 'slack:C1:1700000000.000100', payload, trigger: 'slack' },
    ]);
    expect(recorded!.delivery).to.deep.equal({ provider: SLACK_AUTOMATION_DELIVERIES, id: 'slack:T1:C1:1700000000.000300' });
  });

  it('records nothing (not even the delivery) when no automation watches', async () => {
    let called = false;
    const intake = createSlackAutomationIntake({
      automations: { withEventTrigger: async () => [] },
      inbox: {
        accept: async () => {
          called = true;
          return { duplicate: false, accepted: [] };
        },
      },
    });
    expect(await intake.accept('org-1', { ...message, threadTs: null }, 'd')).to.deep.equal({ matched: 0, duplicate: false });
    expect(called).to.equal(false);
  });
});
