/**
 * Linear through the public HTTP API on the real stack, with the local Linear
 * (test/support/fakeLinear.ts) sending signed webhooks and answering GraphQL: an issue assigned
 * to Hangar's app user becomes a workspace of the member with the assigner's email, whose turn
 * reaches the provider with that member's personal credential (not the organization's); the
 * agent's answer is posted back as a comment; a member's comment reaches the same workspace;
 * finishing the issue applies the workspace's lifecycle policy; forged or stale deliveries start
 * nothing.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { aiUpstream, fakeLinear, harness } from '../../support/harness';
import { as, newOrg } from '../../support/http';
import { until } from '../../support/wait';
import type { FakeLinearWorkspace } from '../../support/fakeLinear';
import { startUpstream, type Upstream } from '../gateway/upstream';

const ORG_SECRET = 'sk-ant-org-linear-0123456789abcdORG';
const PERSONAL_SECRET = 'sk-ant-personal-linear-0123456789ME';

const db = () => harness().database.db;

/** An organization connected to a fresh Linear workspace, with a member who is also a Linear user. */
async function linearOrg() {
  const org = await newOrg('linear');
  const email = `dev-${randomUUID().slice(0, 8)}@example.com`;
  const member = await harness().admin.createUser({ organizationId: org.organization_id, email, role: 'member' });
  const ws: FakeLinearWorkspace = fakeLinear().createWorkspace();
  const dev = ws.addUser('Dev Person', email);
  const api = as(org.org_api_key);
  const connected = await api.post('/v1/connections', {
    provider: 'linear',
    external_id: ws.organizationId,
    name: 'Acme Linear',
    secrets: { access_token: ws.accessToken, webhook_secret: ws.webhookSecret },
    settings: { app_user_id: ws.app.id },
  });
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { org, member, ws, dev, api };
}

const threadOf = (organizationId: string, issueId: string) =>
  db()('integration_threads').where({ organization_id: organizationId, provider: 'linear', thread_key: issueId }).first();

const replicasOf = (organizationId: string) => db()('replicas').where({ organization_id: organizationId });

/** The app's comments on an issue that contain `text`, once there is one. */
const appComment = (ws: FakeLinearWorkspace, issueId: string, text: string, timeoutMs = 150_000) =>
  until(`a Linear comment containing "${text}"`, async () => ws.commentsOn(issueId).find((c) => c.userId === ws.app.id && c.body.includes(text)), timeoutMs, 250);

describe('Linear issues routed to workspaces', function () {
  this.timeout(300_000);
  let upstream: Upstream & { close(): Promise<void> };
  before(async () => {
    upstream = await startUpstream(aiUpstream().port);
  });
  after(async () => {
    await upstream?.close();
  });

  it("assigning an issue to Hangar starts the assigner's workspace with their personal credential; answers, follow-ups and closing go through the issue", async () => {
    const { org, member, ws, dev, api } = await linearOrg();
    expect((await api.post('/v1/organization/credentials/agent_1', { kind: 'api_key', secret: ORG_SECRET })).status).to.equal(200);
    expect((await as(member.personal_api_key).post('/v1/user/credentials/agent_1', { kind: 'api_key', secret: PERSONAL_SECRET })).status).to.equal(200);

    // The description drives the test agent: one provider call through the AI gateway, then an answer.
    const testId = randomUUID();
    const description = [
      'The checkout page throws on an empty cart.',
      `!run curl -s -o /dev/null -X POST "$ANTHROPIC_BASE_URL/v1/messages" -H "x-api-key: $ANTHROPIC_API_KEY" -H "x-test-id: ${testId}" -H "anthropic-version: 2023-06-01" -H "content-type: application/json" -d '{"model":"claude-test-1","max_tokens":8,"messages":[{"role":"user","content":"hi"}]}'`,
      'Fixed the empty-cart check in https://github.com/acme/shop/pull/42',
    ].join('\n');
    const { issue } = await ws.createIssue(dev, { title: 'Checkout crashes', description });
    const before = (await replicasOf(org.organization_id)).length;

    const assigned = await ws.assign(issue.id, ws.app.id, dev);
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
    expect(assigned.body).to.deep.equal({ accepted: true, routed: 'message', duplicate: false });
    // Linear retrying the same delivery (same Linear-Delivery) does nothing again.
    const retried = await ws.deliver({ ...assigned.payload, webhookTimestamp: Date.now() }, { deliveryId: assigned.deliveryId });
    expect(retried.body).to.deep.equal({ accepted: true, routed: 'message', duplicate: true });

    const thread = await until('the issue to have a workspace', async () => {
      const row = await threadOf(org.organization_id, issue.id);
      return row?.replica_id ? row : undefined;
    }, 60_000, 100);
    const replica = await db()('replicas').where({ id: thread.replica_id }).first();
    // The workspace is the member's: matched by the Linear user's email, and linked for next time.
    expect(replica).to.include({ user_id: member.user_id, source: 'linear' });
    expect(thread.user_id).to.equal(member.user_id);
    const link = await db()('user_connections').where({ organization_id: org.organization_id, provider: 'linear', external_user_id: dev.id }).first();
    expect(link).to.include({ user_id: member.user_id, linked_via: 'email' });

    // The turn reached the provider with the member's own key, never the organization's.
    const call = await upstream.call(testId).catch(async (err) => {
      throw new Error(`${String(err)}; comments: ${JSON.stringify(ws.commentsOn(issue.id).map((c) => c.body))}`);
    });
    expect(call.headers['x-api-key']).to.equal(PERSONAL_SECRET);
    const usage = await until('the gateway usage row', async () => (await db()('ai_gateway_usage').where({ replica_id: replica.id }))[0], 10_000, 50);
    expect(usage.user_id).to.equal(member.user_id);

    // Hangar said it is on it, then posted the agent's answer with the pull request.
    await appComment(ws, issue.id, replica.id);
    const answer = await appComment(ws, issue.id, 'Fixed the empty-cart check');
    expect(answer.body).to.contain('https://github.com/acme/shop/pull/42');
    // Linear sends the app's own comments back; they are not forwarded to the workspace.
    const echoes = await until('the echoes of the app comments', async () => {
      const found = ws.deliveries.filter((d) => d.payload.type === 'Comment' && (d.payload.data as { userId: string }).userId === ws.app.id);
      return found.length >= 2 && found;
    }, 10_000, 50);
    for (const echo of echoes) expect(echo).to.deep.include({ status: 200 });
    for (const echo of echoes) expect(echo.body).to.include({ routed: null });

    // A member's comment goes to the same workspace (woken if it fell asleep), and is answered.
    const followUp = await ws.comment(issue.id, dev, 'Please also confirm FOLLOWUP-OK');
    expect(followUp.body).to.deep.equal({ accepted: true, routed: 'message', duplicate: false });
    const second = await appComment(ws, issue.id, 'FOLLOWUP-OK');
    expect(second.body).not.to.contain('checkout page throws');
    expect((await threadOf(org.organization_id, issue.id)).replica_id).to.equal(replica.id);
    expect(await replicasOf(org.organization_id)).to.have.length(before + 1);
    const messages = await db()('replica_messages').where({ replica_id: replica.id }).orderBy('created_at');
    expect(messages).to.have.length(2);
    expect(messages[1].content).to.contain('Dev Person commented on Linear issue').and.contain('FOLLOWUP-OK');

    // Finishing the issue applies the workspace's lifecycle policy: archive_when_done archives it.
    await db()('replicas').where({ id: replica.id }).update({ lifecycle_policy: 'archive_when_done' });
    const done = await ws.moveTo(issue.id, 'completed', dev);
    expect(done.body).to.deep.equal({ accepted: true, routed: 'close', duplicate: false });
    await until('the workspace to be archived', async () => (await db()('replicas').where({ id: replica.id }).first()).status === 'archived', 120_000, 250);
    expect((await threadOf(org.organization_id, issue.id)).closed_at).to.be.instanceOf(Date);

    // Later comments on the finished issue start nothing.
    expect((await ws.comment(issue.id, dev, 'Thanks!')).body).to.include({ routed: null });
  });

  it('a forged, foreign or stale delivery answers 401 and starts nothing; unassigned issues and their comments start nothing', async () => {
    const { org, ws, dev } = await linearOrg();
    const other = fakeLinear().createWorkspace();
    const { issue } = await ws.createIssue(dev, { title: 'Not for Hangar', description: 'x' });
    expect((await ws.comment(issue.id, dev, 'Just a note')).body).to.include({ routed: null });

    // The assignment as Linear would deliver it, sent forged, foreign, unsigned, stale or misaddressed.
    ws.issues.get(issue.id)!.assigneeId = ws.app.id;
    const assignment = ws.issuePayload('update', issue.id, dev, { assigneeId: null });
    const attempts = [
      await ws.deliver(assignment, { secret: 'guessed-secret' }),
      await ws.deliver(assignment, { secret: other.webhookSecret }),
      await ws.deliver(assignment, { signature: null }),
      await ws.deliver(assignment, { timestamp: Date.now() - 5 * 60_000 }),
      await ws.deliver({ ...assignment, organizationId: randomUUID() }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      expect(attempt.status, `attempt ${i}`).to.equal(401);
      expect(attempt.body.error, `attempt ${i}`).to.match(/signature/i);
    }
    expect(await threadOf(org.organization_id, issue.id)).to.equal(undefined);
    expect(await replicasOf(org.organization_id)).to.have.length(0);
    expect(ws.commentsOn(issue.id).filter((c) => c.userId === ws.app.id)).to.deep.equal([]);
  });
});
