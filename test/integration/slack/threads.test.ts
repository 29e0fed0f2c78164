/**
 * A Slack thread ↔ one workspace, on the real stack with the fake Slack: a mention starts a
 * workspace (the author matched to a member by email), Hangar reacts and says which workspace,
 * the agent's answer is posted in the same thread; later messages in the thread, mention or not,
 * reach the same workspace after it was put to sleep (woken), carrying only what is new; a
 * thread attached from inside the workspace (its engine secret) talks to it too.
 */
import { expect } from 'chai';
import { execInContainer } from '../../support/containerExec';
import { fakeSlack, harness } from '../../support/harness';
import { request } from '../../support/http';
import { until } from '../../support/wait';
import { workspaceName } from '../../../src/sandbox/workspace';
import { db, deliverMessage, slackOrg, threadRow } from './support';

const statusOf = async (id: string): Promise<string> => (await db()('replicas').where({ id }).first('status')).status;
const messagesOf = (replicaId: string) => db()('replica_messages').where({ replica_id: replicaId }).orderBy([{ column: 'created_at' }, { column: 'queue_position' }]).select('id', 'content', 'status', 'chat_id');

describe('slack: threads routed to workspaces', function () {
  this.timeout(400_000);

  it('mention → workspace → answer in the thread → a follow-up wakes the same workspace with only the new messages', async () => {
    const slack = fakeSlack();
    const { org, api, team } = await slackOrg('slack-threads');
    const channel = slack.addChannel(team, { name: 'ops' });
    const alice = slack.addUser(team, { name: 'alice', email: org.admin.email });
    const bob = slack.addUser(team, { name: 'bob', email: 'bob@elsewhere.example' });
    const ci = slack.addUser(team, { name: 'ci', isBot: true });

    // A plain channel message in an unbound thread: nothing to route.
    const root = slack.write(channel, { user: bob, text: 'the deploy is failing' });
    expect(await deliverMessage(team, root)).to.deep.include({ routed: false, automations: 0 });

    const mention = slack.write(channel, { user: alice, text: `<@${team.botUserId}> can you look?`, threadTs: root.ts });
    expect(await deliverMessage(team, mention, 'app_mention')).to.deep.include({ routed: true, duplicate: false });
    // Slack also sends the same message as a channel `message` event: done once.
    expect(await deliverMessage(team, mention, 'message')).to.deep.include({ routed: false });

    const threadKey = `${team.id}:${channel.id}:${root.ts}`;
    const bound = await until('the thread to get its workspace', async () => ((await threadRow(org.organization_id, threadKey))?.replica_id as string | null) ?? undefined, 60_000);
    const replica = await db()('replicas').where({ id: bound }).first();
    expect(replica).to.include({ organization_id: org.organization_id, source: 'slack', user_id: org.admin.user_id });

    // Acknowledged: eyes on the mention, and the workspace named in the thread.
    await until('the eyes reaction', async () => mention.reactions.some((r) => r.name === 'eyes' && r.users.includes(team.botUserId)), 60_000);
    const announced = await until('the announcement', async () => slack.botPosts(channel, root.ts).find((p) => p.text.startsWith('Working on it')), 60_000);
    expect(announced.text).to.equal(`Working on it in workspace *${replica.name}*. Reply in this thread to talk to it.`);

    // The first message is the thread so far; the agent's answer comes back to the same thread.
    const [first] = await messagesOf(bound);
    expect(first!.content).to.equal(`The Slack thread so far:\n\n<@${bob.id}>: the deploy is failing\n\n<@${alice.id}>: can you look?`);
    const answers = (threadTs: string) => slack.botPosts(channel, threadTs).filter((p) => p !== announced);
    const answer = await until('the agent answer in the thread', async () => answers(root.ts)[0], 180_000, 250);
    expect(answer.text).to.include('can you look?');
    expect(slack.botPosts(channel).every((p) => p.threadTs === root.ts), 'nothing posted outside the thread').to.equal(true);

    // Asleep, then follow-ups: another bot's message (not a delivery Hangar acts on) and a reply without a mention.
    expect((await api.post(`/v1/replica/${bound}/sleep`)).status).to.equal(200);
    await until('the workspace to sleep', async () => (await statusOf(bound)) === 'sleeping', 90_000);
    const ciPost = slack.write(channel, { user: ci, text: 'build 42 failed', threadTs: root.ts });
    expect(await deliverMessage(team, ciPost)).to.deep.include({ ignored: 'a bot message' });
    const followUp = slack.write(channel, { user: bob, text: 'it is the migration', threadTs: root.ts });
    expect(await deliverMessage(team, followUp)).to.deep.include({ routed: true });
    expect(await deliverMessage(team, followUp, 'message', { retryNum: 1 }), 'a retry does nothing').to.deep.include({ routed: false, duplicate: true });

    await until('the workspace to wake', async () => (await statusOf(bound)) === 'active', 120_000);
    const second = await until('the agent answer to the follow-up', async () => answers(root.ts)[1], 180_000, 250);
    expect(second.text).to.include('it is the migration');
    const messages = await messagesOf(bound);
    expect(messages.map((m) => m.content)).to.deep.equal([
      first!.content,
      `New messages in the Slack thread:\n\n<@${ci.id}>: build 42 failed\n\n<@${bob.id}>: it is the migration`,
    ]);
    expect(await db()('replicas').where({ organization_id: org.organization_id, source: 'slack' }).count<{ count: string }[]>({ count: '*' })).to.deep.equal([{ count: '1' }]);

    // From inside the workspace, attach another thread to it (its engine secret; the workspace is the default).
    const container = workspaceName(replica.workspace_key ?? bound);
    const engineSecret = (await execInContainer(container, 'printf %s "$HANGAR_ENGINE_SECRET"')).trim();
    const other = slack.write(channel, { user: bob, text: 'separate question about caching' });
    const attached = await request('POST', '/v1/slack/threads/attach', {
      headers: { authorization: `Bearer ${engineSecret}`, 'x-workspace-id': bound },
      body: { channel_id: channel.id, thread_ts: other.ts },
    });
    expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
    expect(attached.body.workspace).to.deep.equal({ id: bound, name: replica.name });
    const inAttached = slack.write(channel, { user: bob, text: 'any news?', threadTs: other.ts });
    expect(await deliverMessage(team, inAttached)).to.deep.include({ routed: true });
    const attachedAnswer = await until('the answer in the attached thread', async () => answers(other.ts)[0], 180_000, 250);
    expect(attachedAnswer.text).to.include('any news?');
    const last = (await messagesOf(bound)).at(-1)!;
    expect(last.content, 'an attached thread starts with the thread so far').to.equal(
      `The Slack thread so far:\n\n<@${bob.id}>: separate question about caching\n\n<@${bob.id}>: any news?`,
    );

    // The app's secrets stay out of logs and answers.
    const logs = harness().logs.join('\n');
    expect(logs).not.to.include(team.botToken);
    expect(logs).not.to.include(team.signingSecret);
    expect(JSON.stringify(attached.body)).not.to.include(team.botToken);

    await api.delete(`/v1/replica/${bound}`);
  });

  it("links a member by email only for people of the connection's own team: a Slack Connect user with the same email stays unlinked", async () => {
    const slack = fakeSlack();
    const { org, api, team } = await slackOrg('slack-connect');
    const email = `carol-${org.organization_id.slice(0, 8)}@example.com`;
    const carol = await harness().admin.createUser({ organizationId: org.organization_id, email });
    const shared = slack.addChannel(team, { name: 'shared-with-partner' });
    // Someone of another organization, in a channel shared with it, whose address is the member's.
    const impostor = slack.addConnectUser(team, { name: 'carol', email });
    const links = () => db()('user_connections').where({ organization_id: org.organization_id, provider: 'slack' }).select('user_id', 'external_user_id', 'linked_via');

    const asked = slack.write(shared, { user: impostor, text: `<@${team.botUserId}> show me the DMs` });
    expect(await deliverMessage(team, asked, 'app_mention')).to.deep.include({ routed: true });
    const threadKey = `${team.id}:${shared.id}:${asked.ts}`;
    const bound = await until('the thread to get its workspace', async () => ((await threadRow(org.organization_id, threadKey))?.replica_id as string | null) ?? undefined, 60_000);
    expect(await db()('replicas').where({ id: bound }).first('user_id'), "the organization's, not the member's").to.deep.equal({ user_id: null });
    expect(await links()).to.deep.equal([]);

    // The member herself, of the connection's team, is linked by the same address.
    const own = slack.addUser(team, { name: 'carol', email });
    const reply = slack.write(shared, { user: own, text: 'that was not me', threadTs: asked.ts });
    expect(await deliverMessage(team, reply)).to.deep.include({ routed: true });
    await until('the member to be linked', async () => (await links()).length > 0, 60_000);
    expect(await links()).to.deep.equal([{ user_id: carol.user_id, external_user_id: own.id, linked_via: 'email' }]);

    await api.delete(`/v1/replica/${bound}`);
  });
});
