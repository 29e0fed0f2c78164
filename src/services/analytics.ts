/**
 * Analytics: the organization overview (admins only) and the pull request events it counts,
 * taken from the code-hosting deliveries the intake has already authenticated.
 */
import type { Repositories } from '../db';
import type { BucketCount, PullRequestAction } from '../db/analyticsRepository';
import { bucketGrid, gridEdges, resolveRange } from '../domain/analytics';
import type { Actor } from '../domain/actor';
import { forbidden } from '../domain/errors';
import { normaliseRepositoryUrl, type CodeHostingEvent, type CodeHostingProvider } from '../integrations/codeHosting/events';
import type { OverviewQuery } from '../schemas/analytics';

/** The query's own type, derived from its schema (src/schemas/analytics.ts): the bucket is always there (its default is filled in). */
export type { OverviewQuery };

const PULL_REQUEST_ACTIONS: Partial<Record<CodeHostingEvent['event'], PullRequestAction>> = {
  'pull_request.opened': 'opened',
  'pull_request.merged': 'merged',
  'pull_request.closed': 'closed',
  'merge_request.opened': 'opened',
  'merge_request.merged': 'merged',
  'merge_request.closed': 'closed',
};

/** Sums `rows` of one bucket (1-based) per key. */
function byBucket(rows: BucketCount[], buckets: number): Array<Map<string, number>> {
  const out = Array.from({ length: buckets }, () => new Map<string, number>());
  for (const r of rows) {
    const slot = out[r.bucket - 1];
    if (slot) slot.set(r.key, (slot.get(r.key) ?? 0) + r.count);
  }
  return out;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

export function createAnalyticsService(deps: { repos: Pick<Repositories, 'analytics'>; now?: () => Date }) {
  const { analytics } = deps.repos;
  const now = deps.now ?? (() => new Date());

  return {
    async overview(actor: Actor, query: OverviewQuery) {
      if (!actor.isAdmin) throw forbidden('Only organization admins can read analytics');
      const at = now();
      const range = resolveRange(query, at);
      const buckets = bucketGrid(range);
      const q = { organizationId: actor.organizationId, edges: gridEdges(buckets), now: at };
      const [created, pullRequests, minutes, models] = await Promise.all([
        analytics.workspacesCreated(q),
        analytics.pullRequests(q),
        analytics.computeMinutes(q),
        analytics.modelUsage(q),
      ]);

      const createdBy = byBucket(created, buckets.length);
      const prsBy = byBucket(pullRequests, buckets.length);
      const minutesBy = byBucket(minutes, buckets.length);
      const points = buckets.map((b, i) => ({
        bucket: b.label,
        workspacesCreated: total(createdBy[i]!),
        prsOpened: prsBy[i]!.get('opened') ?? 0,
        prsMerged: prsBy[i]!.get('merged') ?? 0,
        prsClosed: prsBy[i]!.get('closed') ?? 0,
      }));

      const sourceCounts = new Map<string, number>();
      for (const r of created) sourceCounts.set(r.key, (sourceCounts.get(r.key) ?? 0) + r.count);
      const sources = [...sourceCounts].map(([source, count]) => ({ source, count })).sort((a, b) => b.count - a.count || a.source.localeCompare(b.source));

      // Every bucket names every source that used compute in the range, so a chart's series line up.
      const usedSources = [...new Set(minutes.map((r) => r.key))].sort();
      const usage = buckets.map((b, i) => ({
        bucket: b.label,
        bySource: Object.fromEntries(usedSources.map((s) => [s, minutesBy[i]!.get(s) ?? 0])),
      }));

      const sum = (key: 'workspacesCreated' | 'prsOpened' | 'prsMerged' | 'prsClosed') => points.reduce((a, p) => a + p[key], 0);
      return {
        bucket: range.bucket,
        start: range.start.toISOString(),
        end: range.end.toISOString(),
        points,
        summary: {
          workspacesCreated: sum('workspacesCreated'),
          prsOpened: sum('prsOpened'),
          prsMerged: sum('prsMerged'),
          prsClosed: sum('prsClosed'),
          computeMinutes: minutesBy.reduce((a, m) => a + total(m), 0),
        },
        sources,
        usage,
        models,
      };
    },

    /**
     * Records a pull/merge request opened, merged or closed for every organization that has
     * connected the delivery's repository, once per delivery and action (a redelivery reuses
     * its delivery id). Other actions are not counted. Returns how many rows were new.
     * `organizationIds`: only these (a GitLab delivery reaches the organizations its token belongs to).
     */
    async recordPullRequest(provider: CodeHostingProvider, event: CodeHostingEvent, deliveryId: string | undefined, organizationIds?: ReadonlySet<string>): Promise<number> {
      const action = PULL_REQUEST_ACTIONS[event.event];
      if (!action) return 0;
      const wanted = new Set(event.repositoryUrls.map(normaliseRepositoryUrl).filter((u): u is string => !!u));
      if (!wanted.size) return 0;
      const candidates = await analytics.repositoriesNamed(event.repositoryFullName);
      const organizations = new Set(
        candidates.filter((r) => wanted.has(normaliseRepositoryUrl(r.url) ?? '') && (!organizationIds || organizationIds.has(r.organization_id))).map((r) => r.organization_id),
      );
      // Without a delivery id (older GitLab), the pull request and its head commit identify the event.
      const deliveryKey = deliveryId ?? `${event.repositoryFullName}#${event.number}@${event.headSha ?? ''}`;
      return analytics.recordPullRequestEvents(
        [...organizations].map((organizationId) => ({
          organizationId,
          provider,
          deliveryKey,
          action,
          repository: event.repositoryFullName,
          number: event.number,
        })),
      );
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
