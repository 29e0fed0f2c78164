/**
 * The overview's SQL against the pure definitions in src/domain/analytics.ts, on the embedded
 * database (the same PostgreSQL engine): random intervals across bucket edges, open ones,
 * offsets in the range, every bucket size.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createAnalyticsRepository, recordStatusChange } from '../../../src/db/analyticsRepository';
import { createEmbeddedKnex, migrateToLatest } from '../../../src/db/knex';
import { billedMinutes, bucketGrid, gridEdges, type BucketSize } from '../../../src/domain/analytics';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000b2';

/** A deterministic generator, so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('analytics repository (embedded PostgreSQL)', function () {
  this.timeout(60_000);
  let db: Knex;

  before(async () => {
    db = createEmbeddedKnex();
    await migrateToLatest(db);
    await db('organizations').insert([
      { id: ORG, name: 'a' },
      { id: OTHER, name: 'b' },
    ]);
  });
  after(() => db.destroy());

  it('bills the same minutes per bucket and source as the definition, across edges, offsets and open intervals', async () => {
    const rnd = random(7);
    const base = Date.parse('2026-01-20T00:00:00Z');
    const now = new Date('2026-04-10T08:30:00Z');
    const intervals: Array<{ source: string; startedAt: Date; endedAt: Date | null }> = [];
    for (let i = 0; i < 400; i++) {
      const startedAt = new Date(base + Math.floor(rnd() * 75 * 86_400_000));
      const open = rnd() < 0.05;
      const endedAt = open ? null : new Date(startedAt.getTime() + Math.floor(rnd() * (rnd() < 0.2 ? 5 * 86_400_000 : 3 * 3_600_000)));
      intervals.push({ source: rnd() < 0.5 ? 'api' : 'github', startedAt, endedAt });
    }
    await db('workspace_active_intervals').insert(
      intervals.map((iv) => ({ id: randomUUID(), organization_id: ORG, replica_id: randomUUID(), source: iv.source, started_at: iv.startedAt, ended_at: iv.endedAt })),
    );
    // Another organization's minutes never count.
    await db('workspace_active_intervals').insert({ id: randomUUID(), organization_id: OTHER, replica_id: randomUUID(), source: 'api', started_at: new Date(base), ended_at: null });

    const repo = createAnalyticsRepository(db);
    const ranges: Array<[BucketSize, string, string]> = [
      ['day', '2026-02-01T00:00:00+05:30', '2026-03-01T07:15:00-03:00'],
      ['week', '2026-01-21T13:00:00Z', '2026-04-10T08:30:00Z'],
      ['month', '2026-01-01T00:00:00Z', '2026-05-01T00:00:00Z'],
    ];
    for (const [bucket, start, end] of ranges) {
      const buckets = bucketGrid({ bucket, start: new Date(start), end: new Date(end) });
      const rows = await repo.computeMinutes({ organizationId: ORG, edges: gridEdges(buckets), now });
      const got = new Map(rows.map((r) => [`${r.bucket}|${r.key}`, r.count]));
      const want = new Map<string, number>();
      buckets.forEach((b, i) => {
        for (const iv of intervals) {
          const minutes = billedMinutes(iv, b.from, b.to, now);
          if (minutes > 0) want.set(`${i + 1}|${iv.source}`, (want.get(`${i + 1}|${iv.source}`) ?? 0) + minutes);
        }
      });
      expect(want.size, bucket).to.be.greaterThan(buckets.length);
      expect(Object.fromEntries(got), bucket).to.deep.equal(Object.fromEntries(want));
    }
  });

  it('counts workspaces and pull requests in the bucket holding their instant, the range end excluded', async () => {
    const repo = createAnalyticsRepository(db);
    const at = (iso: string, source: string) => ({ replica_id: randomUUID(), organization_id: ORG, source, created_at: new Date(iso) });
    await db('analytics_workspaces').insert([
      at('2027-03-01T23:59:59.999Z', 'api'),
      at('2027-03-02T00:00:00Z', 'api'),
      at('2027-03-02T12:00:00Z', 'slack'),
      at('2027-03-03T00:00:00Z', 'api'), // the range's end: excluded
    ]);
    const edges = gridEdges(bucketGrid({ bucket: 'day', start: new Date('2027-03-01T00:00:00Z'), end: new Date('2027-03-03T00:00:00Z') }));
    const rows = await repo.workspacesCreated({ organizationId: ORG, edges, now: new Date('2027-04-01T00:00:00Z') });
    expect(rows.sort((a, b) => a.bucket - b.bucket || a.key.localeCompare(b.key))).to.deep.equal([
      { bucket: 1, key: 'api', count: 1 },
      { bucket: 2, key: 'api', count: 1 },
      { bucket: 2, key: 'slack', count: 1 },
    ]);

    const event = { organizationId: ORG, provider: 'github', deliveryKey: 'd-1', repository: 'acme/app', number: 3 };
    expect(await repo.recordPullRequestEvents([{ ...event, action: 'opened' }])).to.equal(1);
    expect(await repo.recordPullRequestEvents([{ ...event, action: 'opened' }])).to.equal(0);
    expect(await repo.recordPullRequestEvents([{ ...event, deliveryKey: 'd-2', action: 'merged' }])).to.equal(1);
  });

  it('answers pull requests and model usage from the daily rollups exactly as from the rows, across part-days', async () => {
    const repo = createAnalyticsRepository(db);
    const rnd = random(11);
    const base = Date.parse('2028-05-01T00:00:00Z');
    const events = Array.from({ length: 600 }, (_, i) => ({
      organizationId: ORG,
      provider: 'github',
      deliveryKey: `r-${i}`,
      action: (['opened', 'merged', 'closed'] as const)[i % 3]!,
      repository: 'acme/app',
      number: i,
      at: new Date(base + Math.floor(rnd() * 20 * 86_400_000)),
    }));
    await repo.recordPullRequestEvents(events);
    // The events' instants are set afterwards; the rollup follows the rows' own times, so it is rebuilt here.
    for (const e of events) await db('analytics_pull_request_events').where({ organization_id: ORG, delivery_key: e.deliveryKey }).update({ occurred_at: e.at });
    await db('analytics_pull_requests_daily').where({ organization_id: ORG }).delete();
    await db.raw(`INSERT INTO analytics_pull_requests_daily SELECT organization_id, (occurred_at AT TIME ZONE 'UTC')::date, action, count(*)
                    FROM analytics_pull_request_events WHERE organization_id = ? GROUP BY 1, 2, 3`, [ORG]);
    const usage = Array.from({ length: 600 }, (_, i) => ({
      id: randomUUID(),
      organization_id: ORG,
      replica_id: randomUUID(),
      agent: `agent_${1 + (i % 2)}`,
      model: i % 5 === 0 ? null : `m-${i % 3}`,
      status: 200,
      input_tokens: i % 7 === 0 ? null : 100 + i,
      output_tokens: 10 + i,
      duration_ms: 5,
      started_at: new Date(base + Math.floor(rnd() * 20 * 86_400_000)),
    }));
    await db('ai_gateway_usage').insert(usage);

    for (const [bucket, start, end] of [
      ['day', '2028-05-03T07:13:00Z', '2028-05-17T19:00:00+02:00'],
      ['week', '2028-05-02T00:00:00Z', '2028-05-19T00:00:00Z'],
      ['month', '2028-05-05T23:00:00Z', '2028-05-06T01:00:00Z'],
    ] as Array<[BucketSize, string, string]>) {
      const buckets = bucketGrid({ bucket, start: new Date(start), end: new Date(end) });
      const q = { organizationId: ORG, edges: gridEdges(buckets), now: new Date('2028-06-01T00:00:00Z') };
      const want = new Map<string, number>();
      for (const e of events) {
        const i = buckets.findIndex((b) => b.from <= e.at && e.at < b.to);
        if (i >= 0) want.set(`${i + 1}|${e.action}`, (want.get(`${i + 1}|${e.action}`) ?? 0) + 1);
      }
      const got = await repo.pullRequests(q);
      expect(Object.fromEntries(got.map((r) => [`${r.bucket}|${r.key}`, r.count])), bucket).to.deep.equal(Object.fromEntries(want));

      const inRange = usage.filter((u) => u.started_at >= new Date(start) && u.started_at < new Date(end));
      const models = new Map<string, { requests: number; inputTokens: number; outputTokens: number }>();
      for (const u of inRange) {
        const key = `${u.agent}|${u.model ?? ''}`;
        const m = models.get(key) ?? { requests: 0, inputTokens: 0, outputTokens: 0 };
        models.set(key, { requests: m.requests + 1, inputTokens: m.inputTokens + (u.input_tokens ?? 0), outputTokens: m.outputTokens + u.output_tokens });
      }
      const gotModels = await repo.modelUsage(q);
      expect(Object.fromEntries(gotModels.map((m) => [`${m.agent}|${m.model ?? ''}`, { requests: m.requests, inputTokens: m.inputTokens, outputTokens: m.outputTokens }])), bucket).to.deep.equal(
        Object.fromEntries(models),
      );
      expect(inRange.length, bucket).to.be.greaterThan(0);
    }
  });

  it('opens one interval per stretch of activity, however often a status write is retried', async () => {
    const replicaId = randomUUID();
    await db('replicas').insert({ id: replicaId, organization_id: ORG, name: 'w', status: 'active', source: 'linear', coding_agent: 'agent_1', engine_secret_hash: 'x' });
    const write = (status: string) => db.transaction((trx) => recordStatusChange(trx, replicaId, status));
    await write('active');
    await write('active');
    await write('sleeping');
    await write('sleeping');
    await write('active');
    const rows = await db('workspace_active_intervals').where({ replica_id: replicaId }).orderBy('started_at');
    expect(rows.map((r) => [r.source, r.ended_at === null])).to.deep.equal([
      ['linear', false],
      ['linear', true],
    ]);
  });
});
