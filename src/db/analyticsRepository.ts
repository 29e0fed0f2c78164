/**
 * The analytics tables (migration 015): workspaces created, active intervals and pull request
 * events, and the overview's aggregate queries over them. The writes that follow a replica's
 * record are plain functions taking the replica repository's transaction, so they commit or
 * roll back with the change they describe.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { dailySplit } from '../domain/analytics';

export type PullRequestAction = 'opened' | 'merged' | 'closed';

export interface PullRequestEventRow {
  organizationId: string;
  provider: string;
  deliveryKey: string;
  action: PullRequestAction;
  repository: string;
  number: number;
}

/** Counts of one bucket (1-based index into the grid) and one key (source or action). */
export interface BucketCount {
  bucket: number;
  key: string;
  count: number;
}

/** AI gateway requests of one (agent, model) over a range. */
export interface ModelUsage {
  agent: string;
  model: string | null;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface OverviewQuery {
  organizationId: string;
  /** The grid's edges: the range's start, the inner bucket edges, the range's end. */
  edges: Date[];
  /** Open intervals count up to here. */
  now: Date;
}

/** A workspace was created: counted for good, even after its record is removed. */
export async function recordWorkspaceCreated(trx: Knex, row: { replicaId: string; organizationId: string; source: string; createdAt: Date }): Promise<void> {
  await trx('analytics_workspaces')
    .insert({ replica_id: row.replicaId, organization_id: row.organizationId, source: row.source, created_at: row.createdAt })
    .onConflict('replica_id')
    .ignore();
}

/**
 * The replica's status is now `status`: an interval opens when it becomes active and closes
 * when it becomes anything else. Idempotent (at most one open interval per replica), so a
 * retried status write changes nothing. Call it in the transaction that writes the status.
 */
export async function recordStatusChange(trx: Knex, replicaId: string, status: string): Promise<void> {
  if (status !== 'active') {
    await closeActiveInterval(trx, replicaId);
    return;
  }
  await trx.raw(
    `INSERT INTO workspace_active_intervals (id, organization_id, replica_id, source, started_at)
     SELECT ?, organization_id, id, source, now() FROM replicas WHERE id = ?
     ON CONFLICT DO NOTHING`,
    [randomUUID(), replicaId],
  );
}

/** The workspace stopped being billed (it left `active`, or it is being removed). */
export async function closeActiveInterval(trx: Knex, replicaId: string): Promise<void> {
  await trx('workspace_active_intervals').where({ replica_id: replicaId }).whereNull('ended_at').update({ ended_at: trx.fn.now() });
}

/** A PostgreSQL array literal of instants, bound as one parameter. */
const instantArray = (dates: Date[]) => `{${dates.map((d) => `"${d.toISOString()}"`).join(',')}}`;

const counts = (rows: Array<{ bucket: unknown; key: unknown; count: unknown }>): BucketCount[] =>
  rows.map((r) => ({ bucket: Number(r.bucket), key: String(r.key), count: Number(r.count) }));

export function createAnalyticsRepository(db: Knex) {
  const range = (q: OverviewQuery) => ({ start: q.edges[0]!, end: q.edges[q.edges.length - 1]! });

  return {
    /** Pull request events, once per (organization, provider, delivery key, action); how many were new. */
    async recordPullRequestEvents(rows: PullRequestEventRow[], trx: Knex = db): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await trx('analytics_pull_request_events')
        .insert(
          rows.map((r) => ({
            id: randomUUID(),
            organization_id: r.organizationId,
            provider: r.provider,
            delivery_key: r.deliveryKey,
            action: r.action,
            repository: r.repository,
            number: r.number,
          })),
        )
        .onConflict(['organization_id', 'provider', 'delivery_key', 'action'])
        .ignore()
        .returning('id');
      return inserted.length;
    },

    /** Connected repositories whose url contains `name` (case-insensitive): the candidates a delivery may name. */
    async repositoriesNamed(name: string, trx: Knex = db): Promise<Array<{ organization_id: string; url: string }>> {
      const pattern = `%${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return (await trx('repositories').whereRaw("lower(url) LIKE ? ESCAPE '\\'", [pattern]).select('organization_id', 'url')) as Array<{
        organization_id: string;
        url: string;
      }>;
    },

    /** Workspaces created per bucket and source. */
    async workspacesCreated(q: OverviewQuery, trx: Knex = db): Promise<BucketCount[]> {
      const { start, end } = range(q);
      const { rows } = (await trx.raw(
        `SELECT width_bucket(created_at, ?::timestamptz[]) AS bucket, source AS key, count(*) AS count
           FROM analytics_workspaces
          WHERE organization_id = ? AND created_at >= ? AND created_at < ?
          GROUP BY 1, 2`,
        [instantArray(q.edges), q.organizationId, start, end],
      )) as { rows: Array<{ bucket: unknown; key: unknown; count: unknown }> };
      return counts(rows);
    },

    /** Pull request events per bucket and action: whole days from the daily rollup, part-days from the events. */
    async pullRequests(q: OverviewQuery, trx: Knex = db): Promise<BucketCount[]> {
      const { start, end } = range(q);
      const { days, partial } = dailySplit(start, end);
      const { rows } = (await trx.raw(
        `SELECT width_bucket(at, ?::timestamptz[]) AS bucket, action AS key, sum(n) AS count
           FROM (SELECT (day::timestamp AT TIME ZONE 'UTC') AS at, action, count AS n
                   FROM analytics_pull_requests_daily
                  WHERE organization_id = ? AND day >= ?::date AND day < ?::date
                 UNION ALL
                 SELECT occurred_at, action, 1
                   FROM analytics_pull_request_events
                  WHERE organization_id = ? AND ((occurred_at >= ? AND occurred_at < ?) OR (occurred_at >= ? AND occurred_at < ?))) x
          GROUP BY 1, 2`,
        [instantArray(q.edges), q.organizationId, days.from, days.to, q.organizationId, ...partial.flat()],
      )) as { rows: Array<{ bucket: unknown; key: unknown; count: unknown }> };
      return counts(rows);
    },

    /** AI gateway requests per agent and model over the range, read like `pullRequests`. */
    async modelUsage(q: OverviewQuery, trx: Knex = db): Promise<ModelUsage[]> {
      const { start, end } = range(q);
      const { days, partial } = dailySplit(start, end);
      const { rows } = (await trx.raw(
        `SELECT agent, model, sum(requests) AS requests, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens
           FROM (SELECT agent, model, requests, input_tokens, output_tokens
                   FROM ai_gateway_usage_daily
                  WHERE organization_id = ? AND day >= ?::date AND day < ?::date
                 UNION ALL
                 SELECT agent, coalesce(model, ''), 1, coalesce(input_tokens, 0), coalesce(output_tokens, 0)
                   FROM ai_gateway_usage
                  WHERE organization_id = ? AND ((started_at >= ? AND started_at < ?) OR (started_at >= ? AND started_at < ?))) x
          GROUP BY 1, 2
          ORDER BY 1, 2`,
        [q.organizationId, days.from, days.to, q.organizationId, ...partial.flat()],
      )) as { rows: Array<Record<string, unknown>> };
      return rows.map((r) => ({
        agent: String(r.agent),
        model: r.model === '' ? null : String(r.model),
        requests: Number(r.requests),
        inputTokens: Number(r.input_tokens),
        outputTokens: Number(r.output_tokens),
      }));
    },

    /**
     * Billed minutes per bucket and source, as `billedMinutes` in src/domain/analytics.ts
     * defines them: each interval is clipped to the range (open ones to `now`), spread over
     * the buckets it overlaps (found by binary search in the edges, not a join with every
     * bucket), and each bucket gets the minutes whose first instant it holds.
     */
    async computeMinutes(q: OverviewQuery, trx: Knex = db): Promise<BucketCount[]> {
      const { start, end } = range(q);
      // The planner takes each interval to span 1,000 buckets (generate_series' default
      // estimate) where it spans one or two, and would spend more compiling the query (JIT)
      // and starting a parallel worker than running it.
      const { rows } = (await trx.transaction(async (t) => {
        await t.raw('SET LOCAL jit = off');
        await t.raw('SET LOCAL max_parallel_workers_per_gather = 0');
        return t.raw(
        `WITH grid AS (SELECT ?::timestamptz[] AS e),
              iv AS (
                SELECT source, started_at AS s,
                       greatest(started_at, ?::timestamptz) AS lo,
                       least(coalesce(ended_at, ?::timestamptz), ?::timestamptz) AS hi
                  FROM workspace_active_intervals
                 WHERE organization_id = ?
                   AND coalesce(ended_at, 'infinity'::timestamptz) > ?::timestamptz
                   AND started_at < ?::timestamptz
              )
         SELECT i AS bucket, iv.source AS key,
                sum(ceil(date_part('epoch', least(iv.hi, grid.e[i + 1]) - iv.s) / 60)
                  - ceil(date_part('epoch', greatest(iv.lo, grid.e[i]) - iv.s) / 60)) AS count
           FROM iv CROSS JOIN grid
           CROSS JOIN LATERAL generate_series(width_bucket(iv.lo, grid.e), least(width_bucket(iv.hi, grid.e), cardinality(grid.e) - 1)) AS i
          WHERE iv.hi > iv.lo
          GROUP BY 1, 2`,
        [instantArray(q.edges), start, q.now, end, q.organizationId, start, end],
        );
      })) as { rows: Array<{ bucket: unknown; key: unknown; count: unknown }> };
      return counts(rows).filter((r) => r.count > 0);
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
