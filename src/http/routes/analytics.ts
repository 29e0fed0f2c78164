import { overviewQuery, overviewResponse } from '../../schemas/analytics';
import type { AnalyticsService } from '../../services/analytics';
import { defineRoute, type Route } from '../route';

export function analyticsRoutes(analytics: AnalyticsService): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/analytics/overview',
      operationId: 'getAnalyticsOverview',
      summary: 'Workspaces created, pull requests, compute minutes and model usage over a time range (admins)',
      tag: 'Analytics',
      auth: 'apiKey',
      query: overviewQuery,
      response: { status: 200, description: 'The overview', schema: overviewResponse },
      errors: [400, 401, 403],
      handler: ({ actor, query }) => analytics.overview(actor, query),
    }),
  ];
}
