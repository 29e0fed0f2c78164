import { expect } from 'chai';
import {
  environmentTag,
  envelopeTeamId,
  messageKind,
  parseSlackEnvelope,
  plainText,
  slackMessageDebounceKey,
  slackMessageDeliveryId,
  slackThreadKey,
  threadRootOf,
  titleOf,
  type SlackMessage,
} from '../../../../src/integrations/slack/events';
import { PayloadError } from '../../../../src/integrations/payloadError';

const BOT = 'UBOT0001';
const envelope = (event: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  token: 'x',
  team_id: 'T0001',
  api_app_id: 'A0001',
  type: 'event_callback',
  event_id: 'Ev0001',
  event_time: 1700000000,
  authorizations: [{ team_id: 'T0001', user_id: BOT, is_bot: true }],
  event,
  ...over,
});
const mention = { type: 'app_mention', user: 'U0001', text: `<@${BOT}> fix the build [env:backend]`, ts: '1700000000.000100', channel: 'C0001', event_ts: '1700000000.000100' };

function messageOf(body: unknown): SlackMessage {
  const d = parseSlackEnvelope(body);
  if (d.kind !== 'message') throw new Error(`expected a message, got ${JSON.stringify(d)}`);
  return d.message;
}

describe('integrations/slack/events', () => {
  it('answers url_verification with its challenge', () => {
    expect(parseSlackEnvelope({ token: 't', challenge: 'abc123', type: 'url_verification' })).to.deep.equal({ kind: 'url_verification', challenge: 'abc123' });
    expect(() => parseSlackEnvelope({ type: 'url_verification' })).to.throw(PayloadError);
  });

  it('reads a mention: team, event id, the bot from authorizations, channel, ts', () => {
    const d = parseSlackEnvelope(envelope(mention));
    expect(d).to.deep.include({ kind: 'message', teamId: 'T0001', eventId: 'Ev0001', botUserId: BOT });
    const m = messageOf(envelope(mention));
    expect(m).to.deep.equal({ eventType: 'app_mention', teamId: 'T0001', channelId: 'C0001', channelType: null, user: 'U0001', authorTeamId: null, text: mention.text, ts: mention.ts, threadTs: null });
    expect(messageKind(m, BOT)).to.equal('mention');
  });

  it("reads the author's team: the event's user_team, else its team (a Slack Connect author's is another organization's)", () => {
    expect(messageOf(envelope({ ...mention, team: 'T0001' })).authorTeamId).to.equal('T0001');
    const outsider = messageOf(envelope({ ...mention, team: 'T0001', user_team: 'TPARTNER1', source_team: 'TPARTNER1' }));
    expect(outsider).to.include({ teamId: 'T0001', authorTeamId: 'TPARTNER1' });
  });

  it('tells direct messages, channel messages and channel messages that mention the bot apart', () => {
    const dm = messageOf(envelope({ type: 'message', channel_type: 'im', user: 'U0001', text: 'hi', ts: '1700000000.000200', channel: 'D0001' }));
    expect(messageKind(dm, BOT)).to.equal('direct');
    const reply = messageOf(envelope({ type: 'message', channel_type: 'channel', user: 'U0001', text: 'and also', ts: '1700000000.000300', thread_ts: '1700000000.000100', channel: 'C0001' }));
    expect(messageKind(reply, BOT)).to.equal('channel');
    expect(reply.threadTs).to.equal('1700000000.000100');
    const twin = messageOf(envelope({ type: 'message', channel_type: 'channel', user: 'U0001', text: `<@${BOT}> hello`, ts: '1700000000.000400', channel: 'C0001' }));
    expect(messageKind(twin, BOT), 'the app_mention delivery routes it').to.equal('mention');
  });

  it('ignores bot messages, the bot itself, edits, deletions, joins and other event types', () => {
    const base = { type: 'message', channel_type: 'channel', user: 'U0001', text: 'x', ts: '1700000000.000500', channel: 'C0001' };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, bot_id: 'B0001' }, /bot/],
      [{ ...base, subtype: 'bot_message', user: undefined, bot_id: 'B1' }, /subtype bot_message/],
      [{ ...base, user: BOT }, /own message/],
      [{ ...base, subtype: 'message_changed', message: { text: 'edited' } }, /message_changed/],
      [{ ...base, subtype: 'message_deleted' }, /message_deleted/],
      [{ ...base, subtype: 'channel_join' }, /channel_join/],
      [{ ...base, type: 'reaction_added' }, /event type reaction_added/],
      [{ ...base, user: undefined }, /without a user/],
    ];
    for (const [event, reason] of cases) {
      const d = parseSlackEnvelope(envelope(event));
      expect(d.kind, JSON.stringify(event)).to.equal('ignored');
      expect((d as { reason: string }).reason).to.match(reason);
    }
    expect(parseSlackEnvelope({ type: 'app_rate_limited', team_id: 'T0001' })).to.deep.include({ kind: 'ignored' });
  });

  it("uses the connection's bot user over the envelope's", () => {
    const d = parseSlackEnvelope(envelope({ ...mention, type: 'message', user: 'UOTHERBOT' }), 'UOTHERBOT');
    expect(d.kind).to.equal('ignored');
  });

  it('keeps file shares and thread broadcasts: people writing', () => {
    const m = messageOf(envelope({ type: 'message', subtype: 'file_share', channel_type: 'channel', user: 'U0001', text: 'see log', ts: '1700000000.000600', channel: 'C0001' }));
    expect(m.text).to.equal('see log');
  });

  it('refuses malformed envelopes', () => {
    expect(() => parseSlackEnvelope('x')).to.throw(PayloadError);
    expect(() => parseSlackEnvelope(envelope(mention, { team_id: undefined }))).to.throw(/team_id/);
    expect(() => parseSlackEnvelope(envelope(mention, { event_id: 'bad id!' }))).to.throw(/event_id/);
    expect(() => parseSlackEnvelope(envelope({ ...mention, ts: 'now' }))).to.throw(/ts/);
    expect(() => parseSlackEnvelope(envelope({ ...mention, channel: '#general' }))).to.throw(/channel/);
  });

  it('reads the team before verification only when it looks like a Slack team id', () => {
    expect(envelopeTeamId({ team_id: 'T0001' })).to.equal('T0001');
    expect(envelopeTeamId({ team_id: "T1' OR 1=1" })).to.equal(null);
    expect(envelopeTeamId(null)).to.equal(null);
  });

  it('keys threads, deliveries and debounce windows', () => {
    const top = { teamId: 'T1', channelId: 'C1', ts: '1700000000.000100', threadTs: null };
    const reply = { ...top, ts: '1700000000.000900', threadTs: '1700000000.000100' };
    expect(threadRootOf(top)).to.equal(top.ts);
    expect(threadRootOf(reply)).to.equal(top.ts);
    expect(slackThreadKey('T1', 'C1', threadRootOf(reply))).to.equal('T1:C1:1700000000.000100');
    expect(slackMessageDeliveryId(reply)).to.equal('slack:T1:C1:1700000000.000900').and.match(/^[A-Za-z0-9._:-]{1,200}$/);
    expect(slackMessageDebounceKey(reply)).to.equal('slack:C1:1700000000.000100');
  });

  it('finds [env:name] and writes the text out for the agent', () => {
    expect(environmentTag('please [env: backend ] now')).to.equal('backend');
    expect(environmentTag('[ENV:Data Team] go')).to.equal('Data Team');
    expect(environmentTag('no tag')).to.equal(null);
    expect(plainText(`<@${BOT}> fix it [env:backend]`, BOT)).to.equal('fix it');
    expect(plainText(`<@${BOT}|hangar> ask <@U0002> in <#C0001|general>`, BOT)).to.equal('ask <@U0002> in #general');
    expect(plainText('see <https://example.com/a?b=1|the docs> and <https://x.test> &lt;tag&gt; &amp; <!here>', BOT)).to.equal(
      'see the docs (https://example.com/a?b=1) and https://x.test <tag> & @here',
    );
  });

  it('names a workspace after the first line', () => {
    expect(titleOf('\n  Fix the flaky test  \nmore')).to.equal('Fix the flaky test');
    expect(titleOf('x'.repeat(100))).to.have.length(80);
    expect(titleOf('  ')).to.equal(null);
  });
});
