/** Fixtures for the Slack suite: an organization with its Slack workspace connected through the API, and the fake's team. */
import { expect } from 'chai';
import { fakeSlack, harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import type { FakeSlackMessage, FakeSlackTeam } from '../../support/fakeSlack';

export const webhookUrl = () => `${harness().baseUrl}/v1/webhooks/slack`;

export async function slackOrg(name = 'slack') {
  const org = await newOrg(name);
  const api = as(org.org_api_key);
  const team = fakeSlack().createTeam();
  const created = await api.post('/v1/connections', {
    provider: 'slack',
    external_id: team.id,
    name: `${name} Slack`,
    secrets: { bot_token: team.botToken, signing_secret: team.signingSecret },
    settings: { bot_user_id: team.botUserId },
  });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  return { org, api, team, connectionId: created.body.connection.id as string };
}

/** Delivers a message's event (app_mention or message) as Slack would, signed with the team's secret. */
export async function deliverMessage(team: FakeSlackTeam, message: FakeSlackMessage, type: 'app_mention' | 'message' = 'message', options: { retryNum?: number } = {}) {
  const slack = fakeSlack();
  const channel = slack.state.channels.get(message.channel)!;
  const answer = await slack.deliver(webhookUrl(), team, slack.envelope(team, slack.eventOf(channel, message, type)), options);
  expect(answer.status, answer.text).to.equal(200);
  return answer.json();
}

export const db = () => harness().database.db;

export const threadRow = (organizationId: string, threadKey: string) => db()('integration_threads').where({ organization_id: organizationId, provider: 'slack', thread_key: threadKey }).first();
