/**
 * The analytics overview's time arithmetic, pure so it can be tested at every edge.
 *
 * - A request's range is `[start, end)`: offsets in `start`/`end` are honoured exactly (the
 *   instants are normalised to UTC); the bucket grid is UTC: a day from 00:00Z, an ISO week
 *   from Monday 00:00Z, a calendar month from the 1st 00:00Z. The first and last buckets are
 *   clipped to the range; each is labelled with its unclipped start date.
 * - Billed compute minutes: an active interval `[s, e)` is cut into whole minutes anchored at
 *   `s` (minute k covers `[s + k min, s + (k+1) min)`, the last one partly used and billed in
 *   full, so the interval bills ceil((e − s) / 1 min)). A minute belongs to the bucket, and to
 *   the range, that holds its first instant. So no minute is billed twice, the buckets sum to
 *   the range's total, and adjacent ranges add up to the range that spans them.
 *   The SQL in `src/db/analyticsRepository.ts` computes exactly `billedMinutes` per bucket.
 */
import { invalid } from './errors';

export const BUCKETS = ['day', 'week', 'month'] as const;
export type BucketSize = (typeof BUCKETS)[number];

/** At most this many buckets per request (400 days, 400 weeks or 400 months). */
export const MAX_BUCKETS = 400;
export const DEFAULT_RANGE_DAYS = 30;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export interface OverviewRange {
  bucket: BucketSize;
  start: Date;
  /** Exclusive. */
  end: Date;
}

/** One bucket of the grid, clipped to the range. */
export interface Bucket {
  /** The bucket's own (unclipped) start as an ISO 8601 date, e.g. `2026-07-13` for that week. */
  label: string;
  from: Date;
  to: Date;
}

/**
 * RFC 3339 date-time with a required offset. A space where the offset's `+` belongs is
 * accepted: an unencoded `+` in a query string arrives as a space.
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+\- ])(\d{2}):(\d{2}))$/;

/** Parses a query instant; null when it is not an RFC 3339 date-time with an offset. */
export function parseInstant(value: string): Date | null {
  const m = INSTANT.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  const year = Number(y);
  // Nothing predates the epoch here, and Date.UTC reads years 0–99 as 1900–1999.
  if (year < 1970) return null;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month - 1)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  if (sign !== undefined && (Number(oh) > 23 || Number(om) > 59)) return null;
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const utc = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), ms);
  const offsetMinutes = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om));
  const date = new Date(utc - offsetMinutes * MINUTE_MS);
  return Number.isNaN(date.getTime()) ? null : date;
}

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

/**
 * The request's range: `end` defaults to now, `start` to `end` − 30 days. A start not before
 * its end, or more than MAX_BUCKETS buckets, is a 400.
 */
export function resolveRange(q: { bucket?: BucketSize; start?: string; end?: string }, now: Date): OverviewRange {
  const bucket = q.bucket ?? 'day';
  const instant = (name: 'start' | 'end', value: string): Date => {
    const parsed = parseInstant(value);
    if (!parsed) throw invalid('Invalid query', `query.${name}: must be an ISO 8601 date-time from 1970 on with a time zone offset (e.g. 2026-07-01T00:00:00Z or 2026-07-01T00:00:00%2B02:00)`);
    return parsed;
  };
  const end = q.end === undefined ? now : instant('end', q.end);
  const start = q.start === undefined ? new Date(end.getTime() - DEFAULT_RANGE_DAYS * DAY_MS) : instant('start', q.start);
  if (start.getTime() >= end.getTime()) throw invalid('Invalid query', 'query.start: must be before query.end (end is exclusive)');
  if (countBuckets(bucket, start, end) > MAX_BUCKETS) {
    throw invalid('Invalid query', `query.start: the range spans more than ${MAX_BUCKETS} ${bucket} buckets; narrow it or use a larger bucket`);
  }
  return { bucket, start, end };
}

/** The start of the UTC bucket holding `at`. */
export function bucketStart(size: BucketSize, at: Date): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  switch (size) {
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'week': {
      // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
      const sinceMonday = (at.getUTCDay() + 6) % 7;
      return new Date(Date.UTC(y, m, d - sinceMonday));
    }
    case 'month':
      return new Date(Date.UTC(y, m, 1));
  }
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucketStart(size: BucketSize, start: Date): Date {
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth();
  const d = start.getUTCDate();
  switch (size) {
    case 'day':
      return new Date(Date.UTC(y, m, d + 1));
    case 'week':
      return new Date(Date.UTC(y, m, d + 7));
    case 'month':
      return new Date(Date.UTC(y, m + 1, 1));
  }
}

function countBuckets(size: BucketSize, start: Date, end: Date): number {
  const first = bucketStart(size, start);
  switch (size) {
    case 'day':
      return Math.ceil((end.getTime() - first.getTime()) / DAY_MS);
    case 'week':
      return Math.ceil((end.getTime() - first.getTime()) / (7 * DAY_MS));
    case 'month': {
      const months = (end.getUTCFullYear() - first.getUTCFullYear()) * 12 + (end.getUTCMonth() - first.getUTCMonth());
      return bucketStart('month', end).getTime() === end.getTime() ? months : months + 1;
    }
  }
}

/** Every bucket overlapping `[start, end)`, in order, the first and last clipped to it. */
export function bucketGrid(range: OverviewRange): Bucket[] {
  const buckets: Bucket[] = [];
  for (let at = bucketStart(range.bucket, range.start); at < range.end; at = nextBucketStart(range.bucket, at)) {
    const to = nextBucketStart(range.bucket, at);
    buckets.push({
      label: at.toISOString().slice(0, 10),
      from: at < range.start ? range.start : at,
      to: to > range.end ? range.end : to,
    });
  }
  return buckets;
}

/**
 * The edges of the grid: the range's start, every inner bucket edge, the range's end
 * (`buckets.length + 1` instants), which is what the SQL bins by.
 */
export function gridEdges(buckets: Bucket[]): Date[] {
  return buckets.length === 0 ? [] : [...buckets.map((b) => b.from), buckets[buckets.length - 1]!.to];
}

/**
 * Billed minutes of the active interval `[startedAt, endedAt)` whose first instant lies in
 * `[from, to)` (see the file's comment). `endedAt` null: still active, counted up to `now`.
 */
export function billedMinutes(interval: { startedAt: Date; endedAt: Date | null }, from: Date, to: Date, now: Date): number {
  const s = interval.startedAt.getTime();
  const e = (interval.endedAt ?? now).getTime();
  const lo = Math.max(s, from.getTime());
  const hi = Math.min(e, to.getTime());
  if (hi <= lo) return 0;
  return Math.ceil((hi - s) / MINUTE_MS) - Math.ceil((lo - s) / MINUTE_MS);
}

/**
 * How a range is read from per-day rollups: the whole UTC days inside it (`days`, ISO dates,
 * `from` inclusive, `to` exclusive, empty when equal) come from the rollup, and the parts of
 * days at its ends (`partial`, two instant ranges, possibly empty) from the rows themselves.
 */
export function dailySplit(start: Date, end: Date): { days: { from: string; to: string }; partial: Array<[Date, Date]> } {
  const dayOf = (d: Date) => d.toISOString().slice(0, 10);
  const floorStart = bucketStart('day', start);
  const fullFrom = floorStart.getTime() === start.getTime() ? start : nextBucketStart('day', floorStart);
  const fullTo = bucketStart('day', end);
  if (fullFrom >= fullTo) return { days: { from: dayOf(start), to: dayOf(start) }, partial: [[start, end], [end, end]] };
  return { days: { from: dayOf(fullFrom), to: dayOf(fullTo) }, partial: [[start, fullFrom], [fullTo, end]] };
}
