/** The Slack thread adapter against the fake Slack, with its connection sealed as in the database. */
import { expect } from 'chai';
import { createSecretBox, generateEncryptionKey } from '../../../../src/crypto/secretBox';
import { sealedField } from '../../../../src/crypto/sealedFields';
import { parseEncryptionKeys } from '../../../../src/config';
import { createSlackThreadAdapter } from '../../../../src/integrations/slack/adapter';
import { createSlackWebApi } from '../../../../src/integrations/slack/webApi';
import type { InboundThreadMessage, ThreadAdapter, ThreadBinding } from '../../../../src/integrations/threads/types';
import { createLogger } from '../../../../src/logger';
import { startFakeSlack, type FakeSlack, type FakeSlackChannel, type FakeSlackTeam, type FakeSlackUser } from '../../../support/fakeSlack';

const secretBox = createSecretBox(parseEncryptionKeys(generateEncryptionKey('unit')));

describe('integrations/slack/adapter', () => {
  let fake: FakeSlack;
  let team: FakeSlackTeam;
  let channel: FakeSlackChannel;
  let alice: FakeSlackUser;
  let adapter: ThreadAdapter;
  let settings: Record<string, unknown>;
  const logs: string[] = [];

  before(async () => {
    fake = await startFakeSlack();
  });
  after(() => fake.close());

  beforeEach(() => {
    team = fake.createTeam();
    channel = fake.addChannel(team);
    alice = fake.addUser(team, { name: 'alice', email: 'alice@example.com' });
    settings = { bot_user_id: team.botUserId };
    const sealed = secretBox.seal(JSON.stringify({ bot_token: team.botToken, signing_secret: team.signingSecret }), sealedField('connections', 'secrets_sealed', 'conn-1'));
    adapter = createSlackThreadAdapter({
      repos: {
        connections: {
          findSealed: async (id: string) => (id === 'conn-1' ? { id, organization_id: 'org-1', provider: 'slack', external_id: team.id, name: 'x', settings, secrets_sealed: sealed } : null),
        },
        replicas: { find: async (id: string) => (id === 'rep-1' ? { id, name: 'Fix the build' } : null) },
      } as any,
      secretBox,
      slack: createSlackWebApi({ apiUrl: fake.url, sleep: async () => undefined }),
      publicBaseUrl: 'https://hangar.example.com',
      logger: createLogger({ level: 'debug', write: (l) => logs.push(l) }),
    });
  });

  const binding = (over: Partial<ThreadBinding> = {}): ThreadBinding => ({
    id: 'th-1',
    organizationId: 'org-1',
    provider: 'slack',
    connectionId: 'conn-1',
    threadKey: 'k',
    replicaId: 'rep-1',
    chatId: 'chat-1',
    userId: null,
    reference: {},
    cursor: null,
    closedAt: null,
    ...over,
  });
  const ref = (threadTs: string, messageTs = threadTs) => ({ team_id: team.id, channel_id: channel.id, thread_ts: threadTs, message_ts: messageTs });
  const inbound = (text: string, threadTs: string, ts: string): InboundThreadMessage => ({
    provider: 'slack',
    organizationId: 'org-1',
    connectionId: 'conn-1',
    threadKey: 'k',
    deliveryId: `slack:${ts}`,
    text,
    author: { externalId: alice.id },
    reference: ref(threadTs, ts),
    cursor: ts,
  });

  it('reacts with eyes and names a new workspace in the thread, linked', async () => {
    const m = fake.write(channel, { user: alice, text: `<@${team.botUserId}> fix the build` });
    await adapter.acknowledge(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', chatId: 'chat-1', messageId: 'm', created: true, waking: false });
    expect(m.reactions).to.deep.equal([{ name: 'eyes', users: [team.botUserId] }]);
    expect(fake.botPosts(channel, m.ts).map((p) => p.text)).to.deep.equal([
      'Working on it in workspace *Fix the build* (<https://hangar.example.com/v1/replica/rep-1|open>). Reply in this thread to talk to it.',
    ]);
    const reply = fake.write(channel, { user: alice, text: 'also this', threadTs: m.ts });
    await adapter.acknowledge(binding({ reference: ref(m.ts, reply.ts) }), { replicaId: 'rep-1', chatId: 'chat-1', messageId: 'm2', created: false, waking: true });
    expect(reply.reactions.map((r) => r.name)).to.deep.equal(['eyes']);
    expect(fake.botPosts(channel, m.ts), 'no second announcement').to.have.length(1);
  });

  it('acknowledging is best effort: a refused reaction does not stop the announcement', async () => {
    const m = fake.write(channel, { user: alice, text: 'x' });
    fake.failNext('reactions.add', 1, { error: 'not_in_channel' });
    await adapter.acknowledge(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', chatId: 'c', messageId: 'm', created: true, waking: false });
    expect(m.reactions).to.have.length(0);
    expect(fake.botPosts(channel, m.ts)).to.have.length(1);
  });

  it('posts the answer in the thread, split, with its pull request last', async () => {
    const m = fake.write(channel, { user: alice, text: 'x' });
    const long = Array.from({ length: 120 }, (_, i) => `Step ${i}: ${'done '.repeat(12)}`).join('\n');
    await adapter.reply(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', text: long, ok: true, error: null, pullRequestUrls: ['https://github.com/o/r/pull/3'] });
    const posts = fake.botPosts(channel, m.ts);
    expect(posts.length).to.be.greaterThan(1);
    for (const p of posts) expect(p.text.length).to.be.at.most(3900);
    expect(posts.map((p) => p.text).join('\n')).to.include('Step 0:').and.include('Step 119:');
    expect(posts.at(-1)!.text).to.match(/Pull request: <https:\/\/github\.com\/o\/r\/pull\/3>$/);
  });

  it('a failed turn says so in the thread', async () => {
    const m = fake.write(channel, { user: alice, text: 'x' });
    await adapter.reply(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', text: '', ok: false, error: 'the agent stalled', pullRequestUrls: [] });
    expect(fake.botPosts(channel, m.ts).map((p) => p.text)).to.deep.equal([":warning: The agent's turn failed: the agent stalled"]);
  });

  it('throws a retryable failure of the first message (nothing posted yet), logs a refusal', async () => {
    const m = fake.write(channel, { user: alice, text: 'x' });
    fake.failNext('chat.postMessage', 1, { status: 500 });
    const err = await adapter.reply(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', text: 'hi', ok: true, error: null, pullRequestUrls: [] }).catch((e: unknown) => e);
    expect(err).to.deep.include({ code: 'http_500', retryable: true });
    fake.failNext('chat.postMessage', 1, { error: 'channel_not_found' });
    await adapter.reply(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', text: 'hi', ok: true, error: null, pullRequestUrls: [] });
    expect(fake.botPosts(channel, m.ts)).to.have.length(0);
    expect(logs.some((l) => l.includes('channel_not_found'))).to.equal(true);
    expect(logs.join('\n')).to.not.include(team.botToken);
  });

  it('expands the first message to the thread so far, then only what is new, without its own messages', async () => {
    const bob = fake.addUser(team, { name: 'bob' });
    const root = fake.write(channel, { user: bob, text: 'the deploy is failing' });
    const mention = fake.write(channel, { user: alice, text: `<@${team.botUserId}> can you look? [env:ops]`, threadTs: root.ts });
    const first = await adapter.expand!(binding({ cursor: null }), inbound('can you look?', root.ts, mention.ts));
    expect(first).to.deep.equal({ text: `The Slack thread so far:\n\n<@${bob.id}>: the deploy is failing\n\n<@${alice.id}>: can you look?`, cursor: mention.ts });

    await adapter.reply(binding({ reference: ref(root.ts) }), { replicaId: 'rep-1', text: 'Looking.', ok: true, error: null, pullRequestUrls: [] });
    const a = fake.write(channel, { user: bob, text: 'it is the migration', threadTs: root.ts });
    const b = fake.write(channel, { user: alice, text: 'please roll it back', threadTs: root.ts });
    const next = await adapter.expand!(binding({ cursor: first.cursor }), inbound('please roll it back', root.ts, b.ts));
    expect(next).to.deep.equal({ text: `New messages in the Slack thread:\n\n<@${bob.id}>: it is the migration\n\n<@${alice.id}>: please roll it back`, cursor: b.ts });
    void a;
  });

  it('includes other bots but not itself, and never moves the cursor back', async () => {
    const ci = fake.addUser(team, { name: 'ci', isBot: true });
    const root = fake.write(channel, { user: alice, text: 'start' });
    await adapter.reply(binding({ reference: ref(root.ts) }), { replicaId: 'rep-1', text: 'on it', ok: true, error: null, pullRequestUrls: [] });
    fake.write(channel, { user: ci, text: 'build 42 failed', threadTs: root.ts });
    const later = fake.write(channel, { user: alice, text: 'see CI', threadTs: root.ts });
    const out = await adapter.expand!(binding({ cursor: root.ts }), inbound('see CI', root.ts, later.ts));
    expect(out).to.deep.equal({ text: `New messages in the Slack thread:\n\n<@${ci.id}>: build 42 failed\n\n<@${alice.id}>: see CI`, cursor: later.ts });
    const stale = await adapter.expand!(binding({ cursor: later.ts }), inbound('start', root.ts, root.ts));
    expect(stale.cursor).to.equal(later.ts);
  });

  it('forwards the message alone when the thread cannot be read', async () => {
    const m = fake.write(channel, { user: alice, text: 'hello' });
    fake.failNext('conversations.replies', 1, { error: 'missing_scope' });
    expect(await adapter.expand!(binding(), inbound('hello', m.ts, m.ts))).to.deep.equal({ text: 'hello', cursor: m.ts });
  });

  it("learns the bot user from auth.test when the connection did not record it", async () => {
    settings = {};
    const m = fake.write(channel, { user: alice, text: 'hi' });
    await adapter.reply(binding({ reference: ref(m.ts) }), { replicaId: 'rep-1', text: 'answer', ok: true, error: null, pullRequestUrls: [] });
    const r = fake.write(channel, { user: alice, text: 'thanks', threadTs: m.ts });
    const out = await adapter.expand!(binding({ cursor: m.ts }), inbound('thanks', m.ts, r.ts));
    expect(out.text).to.equal('thanks');
    expect(fake.calls.some((c) => c.method === 'auth.test' && c.authorization === `Bearer ${team.botToken}`)).to.equal(true);
  });

  it("finds the author's email through users.info", async () => {
    expect(await adapter.authorEmail!({ connectionId: 'conn-1', organizationId: 'org-1' }, { externalId: alice.id })).to.equal('alice@example.com');
    expect(await adapter.authorEmail!({ connectionId: 'conn-1', organizationId: 'org-1' }, { externalId: 'UNOBODY' })).to.equal(null);
  });

  it('never gives the email of a person of another organization (Slack Connect), though Slack shows it', async () => {
    const partner = fake.addConnectUser(team, { name: 'carol', email: 'carol@example.com' });
    const answered = fake.calls.length;
    expect(await adapter.authorEmail!({ connectionId: 'conn-1', organizationId: 'org-1' }, { externalId: partner.id })).to.equal(null);
    const call = fake.calls.slice(answered).find((c) => c.method === 'users.info');
    expect(call?.args.user, 'asked Slack, which knows the user').to.equal(partner.id);
  });

  it("never uses another organization's connection", async () => {
    const m = fake.write(channel, { user: alice, text: 'x' });
    const err = await adapter.reply(binding({ organizationId: 'org-2', reference: ref(m.ts) }), { replicaId: 'rep-1', text: 'hi', ok: true, error: null, pullRequestUrls: [] }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect(fake.botPosts(channel)).to.have.length(0);
    expect(await adapter.authorEmail!({ connectionId: 'conn-1', organizationId: 'org-2' }, { externalId: alice.id })).to.equal(null);
  });
});
