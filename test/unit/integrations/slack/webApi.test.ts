/** The Web API client against the fake Slack: encodings, auth, errors, rate limits, paging. */
import { expect } from 'chai';
import { createSlackWebApi, SlackApiError } from '../../../../src/integrations/slack/webApi';
import { startFakeSlack, type FakeSlack, type FakeSlackTeam } from '../../../support/fakeSlack';

describe('integrations/slack/webApi', () => {
  let fake: FakeSlack;
  let team: FakeSlackTeam;
  const slept: number[] = [];
  const api = () => createSlackWebApi({ apiUrl: fake.url, sleep: async (ms) => void slept.push(ms), maxRetryAfterMs: 5000 });

  before(async () => {
    fake = await startFakeSlack();
  });
  after(() => fake.close());
  beforeEach(() => {
    team = fake.createTeam();
    slept.length = 0;
  });

  it('posts in a thread with JSON and the bot token as Bearer', async () => {
    const channel = fake.addChannel(team);
    const alice = fake.addUser(team, { name: 'alice' });
    const root = fake.write(channel, { user: alice, text: 'hello' });
    const { ts } = await api().postMessage(team.botToken, { channel: channel.id, text: 'hi there', threadTs: root.ts });
    const call = fake.calls.at(-1)!;
    expect(call.method).to.equal('chat.postMessage');
    expect(call.authorization).to.equal(`Bearer ${team.botToken}`);
    expect(call.contentType).to.match(/^application\/json/);
    expect(call.args).to.deep.include({ channel: channel.id, text: 'hi there', thread_ts: root.ts, unfurl_links: false });
    expect(fake.botPosts(channel, root.ts).map((m) => [m.ts, m.text])).to.deep.equal([[ts, 'hi there']]);
  });

  it("reads with form bodies and returns Slack's error codes as SlackApiError", async () => {
    const alice = fake.addUser(team, { name: 'alice', email: 'alice@example.com' });
    expect(await api().userInfo(team.botToken, alice.id)).to.deep.equal({ id: alice.id, name: 'alice', realName: 'alice', email: 'alice@example.com', isBot: false, teamId: team.id });
    expect(fake.calls.at(-1)!.contentType).to.equal('application/x-www-form-urlencoded');
    const err = await api().userInfo(team.botToken, 'UNOBODY').catch((e: unknown) => e);
    expect(err).to.be.instanceOf(SlackApiError).and.deep.include({ method: 'users.info', code: 'user_not_found', retryable: false });
    const auth = await api().postMessage('xoxb-wrong', { channel: 'C1', text: 'x' }).catch((e: unknown) => e);
    expect(auth).to.deep.include({ code: 'invalid_auth', retryable: false });
  });

  it('waits out a 429 for Retry-After seconds and tries again', async () => {
    const channel = fake.addChannel(team);
    fake.failNext('chat.postMessage', 2, { status: 429, retryAfter: 2 });
    await api().postMessage(team.botToken, { channel: channel.id, text: 'eventually' });
    expect(slept).to.deep.equal([2000, 2000]);
    expect(fake.botPosts(channel).map((m) => m.text)).to.deep.equal(['eventually']);
  });

  it('gives up on a rate limit after its attempts, or when Retry-After is too long, as retryable', async () => {
    const channel = fake.addChannel(team);
    fake.failNext('chat.postMessage', 3, { status: 429, retryAfter: 1 });
    const tooMany = await api().postMessage(team.botToken, { channel: channel.id, text: 'x' }).catch((e: unknown) => e);
    expect(tooMany).to.deep.include({ code: 'ratelimited', retryable: true });
    fake.failNext('chat.postMessage', 1, { status: 429, retryAfter: 60 });
    const tooLong = await api().postMessage(team.botToken, { channel: channel.id, text: 'x' }).catch((e: unknown) => e);
    expect(tooLong).to.deep.include({ code: 'ratelimited', retryable: true, retryAfterMs: 60_000 });
    fake.failNext('chat.postMessage', 1, { status: 500 });
    expect(await api().postMessage(team.botToken, { channel: channel.id, text: 'x' }).catch((e: unknown) => e)).to.deep.include({ code: 'http_500', retryable: true });
    expect(fake.botPosts(channel)).to.have.length(0);
  });

  it('treats an existing reaction as done', async () => {
    const channel = fake.addChannel(team);
    const m = fake.write(channel, { user: fake.addUser(team, { name: 'bob' }), text: 'x' });
    await api().addReaction(team.botToken, { channel: channel.id, timestamp: m.ts, name: 'eyes' });
    await api().addReaction(team.botToken, { channel: channel.id, timestamp: m.ts, name: 'eyes' });
    expect(m.reactions).to.deep.equal([{ name: 'eyes', users: [team.botUserId] }]);
    const missing = await api().addReaction(team.botToken, { channel: channel.id, timestamp: '1.000001', name: 'eyes' }).catch((e: unknown) => e);
    expect(missing).to.deep.include({ code: 'message_not_found' });
  });

  it('reads a whole thread across pages, or only what came after a ts (the root always first)', async () => {
    const channel = fake.addChannel(team);
    const bob = fake.addUser(team, { name: 'bob' });
    const root = fake.write(channel, { user: bob, text: 'root' });
    const replies = Array.from({ length: 450 }, (_, i) => fake.write(channel, { user: bob, text: `r${i}`, threadTs: root.ts }));
    const all = await api().replies(team.botToken, { channel: channel.id, ts: root.ts });
    expect(all.map((m) => m.text)).to.deep.equal(['root', ...replies.map((r) => r.text)]);
    expect(fake.calls.filter((c) => c.method === 'conversations.replies')).to.have.length(3);
    const after = await api().replies(team.botToken, { channel: channel.id, ts: root.ts, oldest: replies[447]!.ts });
    expect(after.map((m) => m.text)).to.deep.equal(['root', 'r448', 'r449']);
  });

  it('learns the bot user from auth.test', async () => {
    expect(await api().authTest(team.botToken)).to.deep.equal({ userId: team.botUserId, teamId: team.id, botId: team.botId });
  });

  it('reports an unreachable Slack as a retryable network error', async () => {
    const down = createSlackWebApi({ apiUrl: 'http://127.0.0.1:1/api', timeoutMs: 2000 });
    expect(await down.authTest('xoxb-x').catch((e: unknown) => e)).to.deep.include({ code: 'network', retryable: true });
  });
});
