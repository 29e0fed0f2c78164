/**
 * GET /v1/analytics/overview through the public API: who may read it, what it refuses, the
 * original's shape, workspaces and compute minutes from real workspaces, day/week arithmetic
 * over backdated intervals, pull requests from signed code-hosting deliveries, and tenant
 * isolation.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connectGitlab, githubPullRequest, gitlabMergeRequest, sendGithub, sendGitlab } from '../../support/codeHosting';
import { harness } from '../../support/harness';
import { as, errorOf, newOrg, request } from '../../support/http';
import { expectShape } from '../../support/originalShapes';
import { until } from '../../support/wait';

const V = { 'X-Api-Version': '2026-05-17' };
const db = () => harness().database.db;

const overview = (key: string, query = '') => as(key).get(`/v1/analytics/overview${query ? `?${query}` : ''}`);

/** Active intervals written straight into the table, to test the arithmetic over days. */
async function backdate(organizationId: string, intervals: Array<[source: string, startedAt: string, endedAt: string | null]>) {
  await db()('workspace_active_intervals').insert(
    intervals.map(([source, s, e]) => ({ id: randomUUID(), organization_id: organizationId, replica_id: randomUUID(), source, started_at: new Date(s), ended_at: e && new Date(e) })),
  );
}

describe('analytics: the organization overview', function () {
  this.timeout(240_000);

  it('is for admins: a member gets 403, org keys and admin personal keys get the original shape', async () => {
    const org = await newOrg('analytics');
    const member = await harness().admin.createUser({ organizationId: org.organization_id, email: 'member@example.com' });
    const refused = await overview(member.personal_api_key);
    expect(refused.status).to.equal(403);
    expect(errorOf(refused).error).to.match(/admin/i);

    for (const key of [org.org_api_key, org.admin.personal_api_key]) {
      const answer = await overview(key, 'bucket=week');
      expect(answer.status).to.equal(200);
      expectShape('AnalyticsOverview', answer.body);
      expect(answer.body.bucket).to.equal('week');
      // end defaults to now, start to 30 days before it; every week in between is listed, with zeros.
      expect(Date.parse(answer.body.end) - Date.parse(answer.body.start)).to.equal(30 * 86_400_000);
      expect(answer.body.points.length).to.be.within(5, 6);
      expect(answer.body.summary).to.deep.equal({ workspacesCreated: 0, prsOpened: 0, prsMerged: 0, prsClosed: 0, computeMinutes: 0 });
      expect(answer.body.models).to.deep.equal([]);
    }
    expect((await request('GET', '/v1/analytics/overview')).status).to.equal(401);
  });

  it('refuses a bad bucket, start or end with the Error body naming the field', async () => {
    const org = await newOrg('analytics');
    const cases: Array<[string, RegExp]> = [
      ['bucket=year', /query\.bucket: must be one of day, week, month/],
      ['start=yesterday', /query\.start: must be an ISO 8601 date-time/],
      ['end=2026-03-01T00:00:00', /query\.end: must be an ISO 8601 date-time/],
      ['start=2026-03-02T00:00:00Z&end=2026-03-01T00:00:00Z', /query\.start: must be before query\.end/],
      ['start=2026-03-01T00:00:00Z&end=2026-03-01T00:00:00Z', /query\.start: must be before query\.end/],
      ['start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z', /more than 400 day buckets/],
      ['colour=blue', /query\.colour: unknown field/],
    ];
    for (const [query, detail] of cases) {
      const answer = await overview(org.org_api_key, query);
      expect(answer.status, query).to.equal(400);
      expect(errorOf(answer).details, query).to.match(detail);
    }
    // The same six years are fine in months.
    expect((await overview(org.org_api_key, 'bucket=month&start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z')).body.points).to.have.length(72);
  });

  it('counts workspaces by source and bills a real workspace while it was active, and keeps both after it is deleted', async () => {
    const org = await newOrg('analytics');
    const other = await newOrg('analytics-other');
    const api = as(org.org_api_key);
    const created = await request('POST', '/v1/replica', { key: org.org_api_key, headers: V, body: { name: 'billed', message: 'hello' } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const replicaId: string = created.body.replica.id;
    const automation = (
      await api.post('/v1/automations', { name: 'Fired', prompt: 'hello', environment_id: org.global_environment_id, triggers: [{ type: 'custom', config: {} }] })
    ).body.automation;
    const fired = await api.post(`/v1/automations/${automation.id}/trigger`, {});
    expect(fired.status, JSON.stringify(fired.body)).to.equal(200);
    const automationWorkspace: string = fired.body.workspace_id;

    // Read from the database: reading a sleeping workspace through the API wakes it.
    const status = async (id: string) => (await db()('replicas').where({ id }).first('status'))?.status;
    await until('the workspace to be active', async () => (await status(replicaId)) === 'active', 120_000);
    const open = await db()('workspace_active_intervals').where({ replica_id: replicaId });
    expect(open.map((r) => [r.source, r.ended_at])).to.deep.equal([['api', null]]);

    // Its first message's turn ends before it sleeps (a message still queued would wake it again).
    await until('the first turn to end', async () => {
      const messages = await db()('replica_messages').where({ replica_id: replicaId }).select('status');
      return messages.length > 0 && messages.every((m) => m.status === 'completed' || m.status === 'failed');
    }, 60_000);
    expect((await api.post(`/v1/replica/${replicaId}/sleep`)).status).to.equal(200);
    await until('the workspace to sleep', async () => (await status(replicaId)) === 'sleeping', 60_000);
    const intervals = await db()('workspace_active_intervals').where({ replica_id: replicaId });
    expect(intervals).to.have.length(1);
    expect(intervals[0].ended_at, 'the interval closed when it slept').to.be.instanceOf(Date);
    const billed = Math.ceil((intervals[0].ended_at.getTime() - intervals[0].started_at.getTime()) / 60_000);

    const today = new Date().toISOString().slice(0, 10);
    const answer = await overview(org.org_api_key);
    expect(answer.status).to.equal(200);
    expectShape('AnalyticsOverview', answer.body);
    expect(answer.body.points.at(-1)).to.include({ bucket: today, workspacesCreated: 2 });
    expect(answer.body.sources).to.deep.equal([
      { source: 'api', count: 1 },
      { source: 'automation', count: 1 },
    ]);
    // The automation's workspace may still be active: its minutes grow, the slept one's do not.
    const apiMinutes = answer.body.usage.reduce((sum: number, u: { bySource: Record<string, number> }) => sum + (u.bySource.api ?? 0), 0);
    expect(apiMinutes).to.equal(billed);
    expect(answer.body.summary.computeMinutes).to.be.at.least(billed);

    // Deleting removes the replica's record; the figures stay.
    for (const id of [replicaId, automationWorkspace]) expect((await api.delete(`/v1/replica/${id}`)).status).to.equal(200);
    await until('both records to be removed', async () => (await db()('replicas').whereIn('id', [replicaId, automationWorkspace])).length === 0, 60_000);
    expect(await db()('workspace_active_intervals').whereIn('replica_id', [replicaId, automationWorkspace]).whereNull('ended_at')).to.deep.equal([]);
    const after = (await overview(org.org_api_key)).body;
    expect(after.summary.workspacesCreated).to.equal(2);
    expect(after.sources).to.deep.equal(answer.body.sources);
    expect(after.usage.reduce((sum: number, u: { bySource: Record<string, number> }) => sum + (u.bySource.api ?? 0), 0)).to.equal(billed);

    // Another organization sees none of it.
    const theirs = (await overview(other.org_api_key)).body;
    expect(theirs.summary).to.deep.equal({ workspacesCreated: 0, prsOpened: 0, prsMerged: 0, prsClosed: 0, computeMinutes: 0 });
    expect(theirs.sources).to.deep.equal([]);
  });

  it('puts minutes and workspaces in UTC day and ISO week buckets, with offsets honoured and edges clipped, and totals model usage', async () => {
    const org = await newOrg('analytics');
    const other = await newOrg('analytics-other');
    await backdate(org.organization_id, [
      ['api', '2026-03-01T23:30:00Z', '2026-03-02T00:30:00Z'], // 60 min across midnight (and a week edge: 2 March is a Monday)
      ['github', '2026-03-02T10:00:00Z', '2026-03-02T10:00:30Z'], // 30 s, billed 1
      ['api', '2026-03-03T05:00:00Z', '2026-03-03T05:10:00.500Z'], // billed 11
      ['api', '2026-02-28T22:00:00Z', '2026-02-28T23:30:00Z'], // half of it before the range
      ['api', '2026-03-04T00:00:00Z', null], // starts at the range's end: outside
    ]);
    await backdate(other.organization_id, [['api', '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z']]);
    await db()('analytics_workspaces').insert([
      { replica_id: randomUUID(), organization_id: org.organization_id, source: 'slack', created_at: new Date('2026-02-28T23:15:00Z') },
      { replica_id: randomUUID(), organization_id: org.organization_id, source: 'linear', created_at: new Date('2026-03-02T08:00:00Z') },
      { replica_id: randomUUID(), organization_id: org.organization_id, source: 'linear', created_at: new Date('2026-02-28T22:59:59Z') }, // before the range
    ]);

    // AI gateway requests (the table the gateway writes): two in the range, one after it.
    const gatewayRequest = (agent: string, model: string | null, startedAt: string, tokens: number) => ({
      id: randomUUID(),
      organization_id: org.organization_id,
      replica_id: randomUUID(),
      agent,
      model,
      status: 200,
      input_tokens: tokens,
      output_tokens: tokens / 10,
      duration_ms: 100,
      started_at: new Date(startedAt),
    });
    await db()('ai_gateway_usage').insert([
      gatewayRequest('agent_1', 'agent_1-default', '2026-02-28T23:00:00Z', 1000),
      gatewayRequest('agent_1', 'agent_1-default', '2026-03-02T12:00:00Z', 500),
      gatewayRequest('agent_1', 'agent_1-default', '2026-03-04T00:00:00Z', 7000),
    ]);

    // Local midnight at +01:00 is 23:00 UTC the day before; "+" is sent unencoded once (it arrives as a space).
    const range = 'start=2026-03-01T00:00:00%2B01:00&end=2026-03-04T00:00:00Z';
    const days = await overview(org.org_api_key, `bucket=day&${range}`);
    expect(days.status, JSON.stringify(days.body)).to.equal(200);
    expectShape('AnalyticsOverview', days.body);
    expect(days.body).to.include({ bucket: 'day', start: '2026-02-28T23:00:00.000Z', end: '2026-03-04T00:00:00.000Z' });
    expect(days.body.usage).to.deep.equal([
      { bucket: '2026-02-28', bySource: { api: 30, github: 0 } },
      { bucket: '2026-03-01', bySource: { api: 30, github: 0 } },
      { bucket: '2026-03-02', bySource: { api: 30, github: 1 } },
      { bucket: '2026-03-03', bySource: { api: 11, github: 0 } },
    ]);
    expect(days.body.points.map((p: { bucket: string; workspacesCreated: number }) => [p.bucket, p.workspacesCreated])).to.deep.equal([
      ['2026-02-28', 1],
      ['2026-03-01', 0],
      ['2026-03-02', 1],
      ['2026-03-03', 0],
    ]);
    expect(days.body.summary).to.include({ workspacesCreated: 2, computeMinutes: 102 });
    expect(days.body.models).to.deep.equal([{ agent: 'agent_1', model: 'agent_1-default', inputTokens: 1500, outputTokens: 150, requests: 2 }]);
    expect(days.body.sources).to.deep.equal([
      { source: 'linear', count: 1 },
      { source: 'slack', count: 1 },
    ]);

    const weeks = await overview(org.org_api_key, 'bucket=week&start=2026-03-01T00:00:00+01:00&end=2026-03-04T00:00:00Z');
    expect(weeks.status, JSON.stringify(weeks.body)).to.equal(200);
    expect(weeks.body.usage).to.deep.equal([
      { bucket: '2026-02-23', bySource: { api: 60, github: 0 } },
      { bucket: '2026-03-02', bySource: { api: 41, github: 1 } },
    ]);
    expect(weeks.body.summary.computeMinutes).to.equal(days.body.summary.computeMinutes);
  });

  it('counts pull and merge requests opened, merged and closed once per delivery, for the organizations that connected the repository', async () => {
    const org = await newOrg('analytics');
    const other = await newOrg('analytics-other');
    const fullName = `acme-${randomUUID().slice(0, 8)}/app`;
    await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://github.com/${fullName}.git` });
    await harness().admin.addRepository({ organizationId: org.organization_id, url: `https://gitlab.com/${fullName}` });
    await harness().admin.addRepository({ organizationId: other.organization_id, url: `https://github.com/${fullName}-other` });

    const opened = randomUUID();
    for (let i = 0; i < 2; i++) {
      // The second is GitHub's redelivery: the same delivery id.
      const sent = await sendGithub('pull_request', githubPullRequest({ fullName, number: 1, action: 'opened' }), { deliveryId: opened });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(202);
    }
    const mergedId = randomUUID();
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 1, action: 'closed', merged: true }), { deliveryId: mergedId })).status).to.equal(202);
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 1, action: 'closed', merged: true }), { deliveryId: mergedId })).status).to.equal(202);
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 2, action: 'closed', merged: false }))).status).to.equal(202);
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 3, action: 'synchronize' }))).status).to.equal(202);
    const { token } = await connectGitlab(org.org_api_key);
    expect((await sendGitlab(gitlabMergeRequest({ fullName, iid: 7, action: 'merge' }), { token })).status).to.equal(202);
    // A bad signature counts nothing.
    expect((await sendGithub('pull_request', githubPullRequest({ fullName, number: 4, action: 'opened' }), { signature: `sha256=${'0'.repeat(64)}` })).status).to.equal(401);

    const answer = await overview(org.org_api_key);
    expectShape('AnalyticsOverview', answer.body);
    expect(answer.body.summary).to.include({ prsOpened: 1, prsMerged: 2, prsClosed: 1 });
    const today = answer.body.points.at(-1);
    expect(today).to.include({ bucket: new Date().toISOString().slice(0, 10), prsOpened: 1, prsMerged: 2, prsClosed: 1 });
    expect((await overview(other.org_api_key)).body.summary).to.include({ prsOpened: 0, prsMerged: 0, prsClosed: 0 });
  });
});
