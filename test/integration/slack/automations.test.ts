/**
 * The `slack` automation trigger (interop §10.3) on the real stack: a verified channel message
 * fires the enabled automations of the connection's organization watching that channel, with
 * the message as the trigger payload; another channel, another organization's automations and
 * a direct message fire nothing; a reply in the same thread joins the first run's workspace
 * (`group_thread_replies`, on by default), one with grouping off gets its own.
 */
import { expect } from 'chai';
import { fakeSlack } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import { db, deliverMessage, slackOrg } from './support';

const globalEnv = async (organizationId: string): Promise<string> => (await db()('environments').where({ organization_id: organizationId, is_global: true }).first('id')).id;
const executionsOf = (automationId: string) => db()('automation_executions').where({ automation_id: automationId }).orderBy('triggered_at').select();
const finished = (id: string) =>
  until(`execution ${id} to finish`, async () => {
    const e = await db()('automation_executions').where({ id }).first();
    return e && (e.status === 'completed' || e.status === 'failed') ? e : undefined;
  }, 180_000, 250);

describe('slack: message-triggered automations', function () {
  this.timeout(400_000);

  it("fires the organization's automations watching the channel; a thread reply joins the run's workspace", async () => {
    const slack = fakeSlack();
    const { org, api, team } = await slackOrg('slack-automations');
    const env = await globalEnv(org.organization_id);
    const watched = slack.addChannel(team, { name: 'support' });
    const quiet = slack.addChannel(team, { name: 'random' });
    const dm = slack.addChannel(team, { type: 'im' });
    const carol = slack.addUser(team, { name: 'carol' });

    const body = (name: string, config: Record<string, unknown>) => ({ name, prompt: 'Triage this Slack message.', environment_id: env, triggers: [{ type: 'slack', config: { event: 'message', ...config } }] });
    const grouped = (await api.post('/v1/automations', body('Triage', { channel_ids: [watched.id] }))).body.automation;
    expect(grouped.triggers).to.deep.equal([{ type: 'slack', config: { event: 'message', channel_ids: [watched.id], group_thread_replies: true } }]);
    const separate = (await api.post('/v1/automations', body('Every message', { group_thread_replies: false }))).body.automation;
    // Another organization, its own Slack, watching every channel: never fired by this team's messages.
    const outsider = await slackOrg('slack-automations-other');
    const theirs = (await outsider.api.post('/v1/automations', { ...body('Theirs', {}), environment_id: await globalEnv(outsider.org.organization_id) })).body.automation;
    // And an organization without Slack at all.
    const unconnected = await newOrg('slack-automations-none');
    const none = (await as(unconnected.org_api_key).post('/v1/automations', { ...body('None', {}), environment_id: await globalEnv(unconnected.organization_id) })).body.automation;

    const root = slack.write(watched, { user: carol, text: 'Checkout returns 500 since noon' });
    expect(await deliverMessage(team, root)).to.deep.include({ automations: 2, routed: false });
    expect(await deliverMessage(team, root, 'message', { retryNum: 1 }), 'a retry fires nothing twice').to.deep.include({ automations: 0, duplicate: true });
    expect(await deliverMessage(team, slack.write(quiet, { user: carol, text: 'lunch?' }))).to.deep.include({ automations: 1 });
    // Direct messages are for the bot, not for automations (and start a thread workspace of their own).
    expect(await deliverMessage(team, slack.write(dm, { user: carol, text: 'hi bot' }))).to.deep.include({ automations: 0, routed: true });

    const [first] = await executionsOf(grouped.id);
    expect(first.trigger_payload).to.deep.equal({ team_id: team.id, channel_id: watched.id, ts: root.ts, thread_ts: null, user: carol.id, text: 'Checkout returns 500 since noon' });
    const firstDone = await finished(first.id);
    expect(firstDone.status, firstDone.error).to.equal('completed');
    const [prompt] = await db()('replica_messages').where({ replica_id: firstDone.workspace_id }).orderBy('created_at');
    expect(prompt.content).to.include('Triage this Slack message.').and.include('Checkout returns 500 since noon');

    // A reply in the thread: the grouped automation sends it to the first run's workspace, the other makes a new one.
    const reply = slack.write(watched, { user: carol, text: 'Also on mobile', threadTs: root.ts });
    expect(await deliverMessage(team, reply)).to.deep.include({ automations: 2 });
    const groupedRuns = await until('the grouped second run', async () => {
      const rows = await executionsOf(grouped.id);
      return rows.length === 2 ? rows : undefined;
    });
    expect(groupedRuns[1].trigger_payload).to.deep.include({ ts: reply.ts, thread_ts: root.ts, text: 'Also on mobile' });
    const secondDone = await finished(groupedRuns[1].id);
    expect(secondDone.status, secondDone.error).to.equal('completed');
    expect(secondDone.workspace_id, 'joined the first run workspace').to.equal(firstDone.workspace_id);
    const separateRuns = await until('the separate automation runs', async () => {
      const rows = await executionsOf(separate.id);
      return rows.length === 3 && rows.every((r: { status: string }) => r.status === 'completed' || r.status === 'failed') ? rows : undefined;
    }, 180_000, 250);
    expect(new Set(separateRuns.map((r: { workspace_id: string }) => r.workspace_id)).size, 'grouping off: a workspace per message').to.equal(3);

    expect(await executionsOf(theirs.id)).to.have.length(0);
    expect(await executionsOf(none.id)).to.have.length(0);

    for (const { id } of await db()('replicas').where({ organization_id: org.organization_id }).whereNull('deleted_at').select('id')) await api.delete(`/v1/replica/${id}`);
  });
});
