/** The analytics overview: the original's `AnalyticsOverview`, plus `models` (Hangar's AI gateway usage). */
import { BUCKETS } from '../domain/analytics';
import { type JsonSchema, object, type QueryOf } from './common';

const instant = (what: string) =>
  ({
    type: 'string',
    maxLength: 64,
    description: `${what} as an ISO 8601 date-time with an offset (any offset; encode "+" as %2B). The bucket grid is UTC.`,
  }) as const;

export const overviewQuery = object({
  bucket: { type: 'string', enum: [...BUCKETS], default: 'day', description: 'UTC day, ISO week (from Monday 00:00 UTC) or calendar month (UTC)' },
  start: instant('Inclusive start of the range; defaults to 30 days before `end`'),
  end: instant('Exclusive end of the range; defaults to now'),
});
export type OverviewQuery = QueryOf<typeof overviewQuery>;

const count = { type: 'integer', minimum: 0 };
const bucketDate = { type: 'string', format: 'date', description: "The bucket's UTC start date (the first and last buckets are clipped to the range)" };

export const overviewResponse: JsonSchema = object(
  {
    bucket: { type: 'string', enum: [...BUCKETS] },
    start: { type: 'string', format: 'date-time', description: 'Inclusive start of the range (UTC)' },
    end: { type: 'string', format: 'date-time', description: 'Exclusive end of the range (UTC)' },
    points: {
      type: 'array',
      description: 'Every bucket of the range, zeros included',
      items: object({ bucket: bucketDate, workspacesCreated: count, prsOpened: count, prsMerged: count, prsClosed: count }, [
        'bucket',
        'workspacesCreated',
        'prsOpened',
        'prsMerged',
        'prsClosed',
      ]),
    },
    summary: object(
      {
        workspacesCreated: count,
        prsOpened: count,
        prsMerged: count,
        prsClosed: count,
        computeMinutes: { type: 'number', minimum: 0, description: 'Billed minutes while workspaces were active, each interval rounded up to whole minutes' },
      },
      ['workspacesCreated', 'prsOpened', 'prsMerged', 'prsClosed', 'computeMinutes'],
    ),
    sources: {
      type: 'array',
      description: 'Workspaces created in the range per source, most first',
      items: object({ source: { type: 'string' }, count }, ['source', 'count']),
    },
    usage: {
      type: 'array',
      description: 'Compute minutes per bucket and workspace source',
      items: object({ bucket: bucketDate, bySource: { type: 'object', additionalProperties: { type: 'number' } } }, ['bucket', 'bySource']),
    },
    models: {
      type: 'array',
      description: "Hangar's extension: AI gateway requests started in the range, per agent and model",
      items: object(
        { agent: { type: 'string' }, model: { type: ['string', 'null'] }, inputTokens: count, outputTokens: count, requests: count },
        ['agent', 'model', 'inputTokens', 'outputTokens', 'requests'],
      ),
    },
  },
  ['bucket', 'start', 'end', 'points', 'summary', 'sources', 'usage', 'models'],
);
