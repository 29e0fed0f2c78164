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
