/**
 * The Slack Events API receiver through HTTP: a delivery is trusted only when the connected
 * team's signing secret signed it within five minutes; every other one is the same 401 and
 * starts nothing. url_verification is answered when signed. No workspace is needed here.
 */
import { expect } from 'chai';
import { fakeSlack } from '../../support/harness';
import { errorOf } from '../../support/http';
import { db, slackOrg, webhookUrl } from './support';

describe('slack: the Events API receiver', () => {
  const UNTRUSTED = { error: 'Invalid request signature', details: null };

  it('refuses a forged signature, a stale or future timestamp, an unknown team and a missing signature alike, and starts nothing', async () => {
    const slack = fakeSlack();
    const { org, team } = await slackOrg('slack-receiver');
    const channel = slack.addChannel(team);
    const alice = slack.addUser(team, { name: 'alice' });
    const mention = slack.write(channel, { user: alice, text: `<@${team.botUserId}> hello` });
    const body = slack.envelope(team, slack.eventOf(channel, mention, 'app_mention'));
    const stranger = slack.createTeam();
    const now = Math.floor(Date.now() / 1000);

    const attempts = [
      await slack.deliver(webhookUrl(), team, body, { secret: 'not-the-signing-secret' }),
      await slack.deliver(webhookUrl(), team, body, { timestamp: now - 6 * 60 }),
      await slack.deliver(webhookUrl(), team, body, { timestamp: now + 6 * 60 }),
      await slack.deliver(webhookUrl(), stranger, { ...body, team_id: stranger.id }),
      await slack.deliver(webhookUrl(), team, body, { signature: 'v0=' + '0'.repeat(64) }),
      await slack.deliver(webhookUrl(), team, 'not json at all'),
    ];
    const bare = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const answer of attempts) {
      expect(answer.status, answer.text).to.equal(401);
      expect(answer.json()).to.deep.equal(UNTRUSTED);
    }
    expect(bare.status).to.equal(401);
    expect(await bare.json()).to.deep.equal(UNTRUSTED);

    expect(await db()('integration_threads').where({ organization_id: org.organization_id }).first()).to.equal(undefined);
    expect(await db()('replicas').where({ organization_id: org.organization_id }).first()).to.equal(undefined);
    expect(slack.calls.filter((c) => c.authorization === `Bearer ${team.botToken}`), 'Slack was not called').to.have.length(0);

    // A body signed by the team's own secret and still fresh is accepted (control).
    const good = await slack.deliver(webhookUrl(), team, slack.envelope(team, slack.eventOf(channel, slack.write(channel, { user: alice, text: 'just chatting' }))));
    expect(good.status, good.text).to.equal(200);
    expect(good.json()).to.deep.include({ ok: true, routed: false });
  });

  it('answers a signed url_verification with its challenge, and refuses an unsigned one', async () => {
    const slack = fakeSlack();
    const { team } = await slackOrg('slack-verify');
    const challenge = { token: 'deprecated', challenge: 'p2mvHdj7wSE9TPTB5N3A9uZZpTUoIh5Hk8vN2YIcmJqPo6sRKKQR', type: 'url_verification' };
    const ok = await slack.deliver(webhookUrl(), team, challenge);
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.json()).to.deep.equal({ ok: true, challenge: challenge.challenge });
    const forged = await slack.deliver(webhookUrl(), team, challenge, { secret: 'guess' });
    expect(forged.status).to.equal(401);
    expect(forged.json()).to.deep.equal(UNTRUSTED);
    const stale = await slack.deliver(webhookUrl(), team, challenge, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).to.equal(401);
  });

  it('ignores bot messages and edits, refuses a malformed signed event (400) and an oversized body (413)', async () => {
    const slack = fakeSlack();
    const { team } = await slackOrg('slack-ignore');
    const channel = slack.addChannel(team);
    const ci = slack.addUser(team, { name: 'ci', isBot: true });
    const botMessage = await slack.deliver(webhookUrl(), team, slack.envelope(team, slack.eventOf(channel, slack.write(channel, { user: ci, text: 'deployed' }))));
    expect(botMessage.json()).to.deep.equal({ ok: true, ignored: 'a bot message' });
    const edit = await slack.deliver(webhookUrl(), team, slack.envelope(team, { type: 'message', subtype: 'message_changed', channel: channel.id, hidden: true, message: { text: 'x' }, ts: '1700000000.000100' }));
    expect(edit.json()).to.deep.include({ ignored: 'message subtype message_changed' });
    const malformed = await slack.deliver(webhookUrl(), team, slack.envelope(team, { type: 'app_mention', user: 'U1', text: 'x', ts: 'soon', channel: channel.id }));
    expect(malformed.status).to.equal(400);
    expect(errorOf({ status: malformed.status, body: malformed.json(), headers: new Headers() }).error).to.equal('Invalid Slack event');
    const huge = await slack.deliver(webhookUrl(), team, slack.envelope(team, { type: 'message', text: 'x'.repeat(600 * 1024) }));
    expect(huge.status).to.equal(413);
  });
});
